/* devices/cache.c against hostile and broken cache directories (issue "Reliability" rows 2, 3,
 * 4 and 10). Each lookup that must reach the disk runs in a child process (a fresh process has
 * an empty memory layer), under an alarm, so a lookup that blocks fails the test instead of
 * hanging it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conformance/harness/unit_check.h"
#include "devices/cache.h"

static char dir[256];

static void make_key(hg_cache_key *k, unsigned n) {
  memset(k, 0, sizeof *k);
  hg_cache_key_add_str(k, "cache_test");
  hg_cache_key_add(k, &n, sizeof n);
}

static void fill(uint8_t *v, size_t size, unsigned seed) {
  for (size_t i = 0; i < size; i++)
    v[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
}

/* In a child: 1 when key n is found with the value fill() gives, 0 on a miss, 2 on a wrong
 * value, 3 when it did not answer within 10 s. */
static int lookup(unsigned n, size_t size) {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(10);
    hg_cache_key k;
    make_key(&k, n);
    uint8_t *v = NULL;
    size_t got = 0;
    if (!hg_cache_get(&k, &v, &got))
      _exit(0);
    uint8_t *want = malloc(size);
    fill(want, size, n);
    _exit(got == size && !memcmp(v, want, size) ? 1 : 2);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

static void store(unsigned n, size_t size) {
  pid_t pid = fork();
  if (pid == 0) {
    hg_cache_key k;
    make_key(&k, n);
    uint8_t *v = malloc(size);
    fill(v, size, n);
    hg_cache_put(&k, v, size);
    _exit(0);
  }
  waitpid(pid, NULL, 0);
}

/* The path of key n's entry: the one file that appeared after storing it. */
static void entry_of(unsigned n, size_t size, char *path, size_t cap) {
  DIR *d = opendir(dir);
  char before[64][64];
  int nb = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    if (nb < 64 && strlen(e->d_name) < 64)
      snprintf(before[nb++], 64, "%s", e->d_name);
  if (d) /* not there before the first entry */
    closedir(d);
  store(n, size);
  path[0] = 0;
  d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    int seen = 0;
    for (int i = 0; i < nb; i++)
      seen |= !strcmp(before[i], e->d_name);
    if (!seen && e->d_name[0] != '.')
      snprintf(path, cap, "%s/%s", dir, e->d_name);
  }
  if (d)
    closedir(d);
}

static void write_file(const char *path, const void *bytes, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    if (write(fd, bytes, n) != (ssize_t)n)
      perror("write");
    close(fd);
  }
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/hg-cache-test-%d/sub", (int)getpid());
  setenv("HETGPU_CACHE_DIR", dir, 1);
  setenv("HETGPU_CACHE_SIZE", "4000000", 1);
  umask(022);

  /* a round trip through the disk; the directory and the entry private to the user */
  char path[512];
  entry_of(1, 100000, path, sizeof path);
  CHECK(path[0], "no entry file appeared");
  CHECK(lookup(1, 100000) == 1, "a stored entry is not found");
  struct stat st;
  CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700, "directory mode %o", st.st_mode & 0777);
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "entry mode %o", st.st_mode & 0777);

  /* a flipped byte anywhere (header, key, value, hash): a miss, the entry removed, then rewritten */
  off_t size = st.st_size;
  const off_t spots[] = {3, 12, 30, size / 2, size - 20, size - 1};
  for (unsigned i = 0; i < sizeof spots / sizeof *spots; i++) {
    int fd = open(path, O_RDWR);
    uint8_t b;
    CHECK(fd >= 0 && pread(fd, &b, 1, spots[i]) == 1, "read byte");
    b ^= 0x40;
    CHECK(pwrite(fd, &b, 1, spots[i]) == 1, "write byte");
    close(fd);
    CHECK(lookup(1, 100000) == 0, "an entry with byte %lld flipped was used", (long long)spots[i]);
    CHECK(access(path, F_OK) != 0, "the broken entry (byte %lld) is still there", (long long)spots[i]);
    store(1, 100000);
    CHECK(lookup(1, 100000) == 1, "the entry was not rewritten after the flip at %lld", (long long)spots[i]);
  }
  /* truncated, empty, an older format */
  CHECK(truncate(path, size - 7) == 0, "truncate");
  CHECK(lookup(1, 100000) == 0, "a truncated entry was used");
  write_file(path, "", 0);
  CHECK(lookup(1, 100000) == 0, "an empty entry was used");
  write_file(path, "HGCACHE1\\0\\0\\0\\0\\0\\0\\0\\0", 16);
  CHECK(lookup(1, 100000) == 0, "an entry of another format was used");
  store(1, 100000);
  CHECK(lookup(1, 100000) == 1, "not rewritten");

  /* a FIFO at the entry's path: a miss, at once (it used to block clBuildProgram forever) */
  unlink(path);
  CHECK(mkfifo(path, 0600) == 0, "mkfifo: %s", strerror(errno));
  time_t t0 = time(NULL);
  CHECK(lookup(1, 100000) == 0, "a FIFO entry: lookup gave something (3 = it blocked)");
  CHECK(time(NULL) - t0 < 5, "the FIFO lookup took %lld s", (long long)(time(NULL) - t0));
  unlink(path);
  /* a symbolic link at the path to a valid-looking file elsewhere: not followed */
  char other[600];
  snprintf(other, sizeof other, "%s/../elsewhere.bin", dir);
  entry_of(1, 100000, path, sizeof path);
  CHECK(rename(path, other) == 0, "rename");
  CHECK(symlink(other, path) == 0, "symlink");
  CHECK(lookup(1, 100000) == 0, "a link at the entry's path was followed");
  unlink(path);
  unlink(other);

  /* eviction: over the 4 MB limit, the least recently used entries go, files hetGPU did not
   * write stay (names like its own but not its own: other extensions, other lengths, upper case) */
  static const char *const foreign[] = {"notes.bin", "0123456789abcdef0123456789abcdef.bin.keep",
                                        "0123456789ABCDEF0123456789ABCDEF.bin", "0123456789abcdef.bin", "model.bin"};
  uint8_t *big = calloc(1, 1 << 20);
  for (unsigned i = 0; i < sizeof foreign / sizeof *foreign; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, foreign[i]);
    write_file(path, big, 1 << 20);
  }
  for (unsigned n = 10; n < 20; n++)
    store(n, 900000);
  for (unsigned i = 0; i < sizeof foreign / sizeof *foreign; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, foreign[i]);
    CHECK(access(path, F_OK) == 0, "eviction removed %s, a file hetGPU did not write", foreign[i]);
  }
  CHECK(lookup(19, 900000) == 1, "the newest entry was evicted");
  CHECK(lookup(10, 900000) == 0, "the oldest entry was kept past the limit");
  free(big);

  /* an existing directory readable by others (an older hetGPU made it 0755) becomes private */
  chmod(dir, 0755);
  store(30, 1000);
  CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700, "directory mode stays %o", st.st_mode & 0777);

  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf /tmp/hg-cache-test-%d", (int)getpid());
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove the test directory\n");
  printf("%s\n", failures ? "FAILED" : "cache_test: all checks passed");
  return failures ? 1 : 0;
}
