/* The writer's atomic replace: file A stays intact, byte for byte, when a writer replacing it
 * with B is killed with SIGKILL part way (a child writing a 256 MiB snapshot) or fails part
 * way (a child whose file size limit makes write() fail: the writer must remove its temporary).
 * Nothing but A and the writer's temporaries ("<name>.tmp-XXXXXX") may be left in the folder. */
#include "random_snapshot.h"
#include "test_check.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Counts the folder's temporaries of `name`; false when any other file than `name` is there. */
static bool only_target_and_temps(const char *dir, const char *name, int *temps) {
  DIR *d = opendir(dir);
  bool ok = d != NULL;
  size_t n = strlen(name);
  *temps = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, name))
      continue;
    if (!strncmp(e->d_name, name, n) && !strncmp(e->d_name + n, ".tmp-", 5))
      (*temps)++;
    else
      ok = false;
  }
  if (d)
    closedir(d);
  return ok;
}

static void remove_temps(const char *dir, const char *name) {
  DIR *d = opendir(dir);
  size_t n = strlen(name);
  for (struct dirent *e; d && (e = readdir(d));)
    if (!strncmp(e->d_name, name, n) && !strncmp(e->d_name + n, ".tmp-", 5)) {
      char p[1024];
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
    }
  if (d)
    closedir(d);
}

/* Size of the largest temporary of `name` (0 if none). */
static long long temp_size(const char *dir, const char *name) {
  DIR *d = opendir(dir);
  size_t n = strlen(name);
  long long best = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    if (!strncmp(e->d_name, name, n) && !strncmp(e->d_name + n, ".tmp-", 5)) {
      char p[1024];
      struct stat st;
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      if (stat(p, &st) == 0 && st.st_size > best)
        best = st.st_size;
    }
  if (d)
    closedir(d);
  return best;
}

static bool a_intact(const char *path, const hg_snapshot *a) {
  char err[512];
  hg_snapshot_file *f = hg_snapshot_open(path, err, sizeof err);
  bool ok = f && hg_snapshot_equal(a, hg_snapshot_get(f));
  if (!f)
    printf("  A does not open: %s\n", err);
  hg_snapshot_close(f);
  return ok;
}

static void kill_mid_write(const char *dir, const char *path, const hg_snapshot *a) {
  test_snapshot *b = test_snapshot_big(256ull << 20);
  pid_t pid = fork();
  if (pid == 0) {
    char err[512];
    _exit(hg_snapshot_write(&b->s, path, err, sizeof err) == 0 ? 0 : 1);
  }
  /* kill once the temporary holds some megabytes of B, long before it is complete */
  long long seen = 0;
  for (int i = 0; i < 20000 && (seen = temp_size(dir, "target.hgsnap")) < (8 << 20); i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "writer of B killed part way (temp had %lld bytes)",
        seen);
  CHECK(a_intact(path, a), "A intact after the writer of B was killed");
  int temps;
  CHECK(only_target_and_temps(dir, "target.hgsnap", &temps), "nothing but A and temporaries in the folder");
  printf("  killed writer left %d temporary file(s)\n", temps);
  remove_temps(dir, "target.hgsnap");
  test_snapshot_free(b);
}

static void fail_mid_write(const char *dir, const char *path, const hg_snapshot *a) {
  test_snapshot *b = test_snapshot_big(4 << 20);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN); /* write() then fails with EFBIG instead of killing us */
    struct rlimit rl = {1 << 20, 1 << 20};
    setrlimit(RLIMIT_FSIZE, &rl);
    char err[512] = "";
    int rc = hg_snapshot_write(&b->s, path, err, sizeof err);
    printf("  writer under a 1 MiB file size limit: %s\n", err);
    _exit(rc == -1 && err[0] ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer failing part way returns -1 with a message");
  CHECK(a_intact(path, a), "A intact after a failed write of B");
  int temps;
  CHECK(only_target_and_temps(dir, "target.hgsnap", &temps) && temps == 0,
        "a failed writer removes its temporary (%d left)", temps);
  test_snapshot_free(b);
}

void test_atomic_replace(const char *dir) {
  char sub[512], path[600], err[512];
  snprintf(sub, sizeof sub, "%s/atomic", dir);
  mkdir(sub, 0700);
  snprintf(path, sizeof path, "%s/target.hgsnap", sub);
  test_snapshot *a = test_snapshot_random(100000);
  CHECK(hg_snapshot_write(&a->s, path, err, sizeof err) == 0, "write A: %s", err);
  kill_mid_write(sub, path, &a->s);
  fail_mid_write(sub, path, &a->s);
  /* and a complete write of C does replace A */
  test_snapshot *c = test_snapshot_random(1000);
  CHECK(hg_snapshot_write(&c->s, path, err, sizeof err) == 0 && a_intact(path, &c->s), "C replaces A: %s", err);
  int temps;
  CHECK(only_target_and_temps(sub, "target.hgsnap", &temps) && temps == 0, "a finished writer leaves no temporary");
  test_snapshot_free(c);
  test_snapshot_free(a);
}
