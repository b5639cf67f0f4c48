/* Unit tests of the snapshot file format (snapshot/): the fast CRC-32C against the IR's, round
 * trips of random snapshots compared field by field, every truncation and every single-byte
 * corruption rejected (and, with the checksum made to match, never a crash), version rules,
 * the writer refusing snapshots the reader would refuse, the atomic replace
 * (snapshot_atomic_test.c), and the throughput of a 256 MiB snapshot (printed, not asserted).
 * Optional argument: a directory to which small snapshots are written (the fuzzer's seeds). */
#include "random_snapshot.h"
#include "test_check.h"

#include "ir/ir_internal.h"
#include "snapshot/format.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int test_passed, test_failed;
static char dir[256];

unsigned char *test_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return p;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void set_crc(uint8_t *d, size_t n) {
  uint32_t c = hg_snap_file_crc(d, n);
  for (int k = 0; k < 4; k++)
    d[HG_SNAP_OFF_CRC + k] = (uint8_t)(c >> (8 * k));
}

/* ---- CRC ------------------------------------------------------------------------------------ */
static void test_crc(void) {
  const uint8_t check[] = "123456789";
  CHECK(hg_snap_crc32c(0, check, 9) == 0xE3069283u, "CRC-32C check value");
  CHECK(hg_snap_crc32c_portable(0, check, 9) == 0xE3069283u, "portable CRC-32C check value");
  uint8_t *buf = malloc(1 << 20);
  for (size_t i = 0; i < 1 << 20; i++)
    buf[i] = (uint8_t)test_rand();
  int bad = 0;
  for (int t = 0; t < 2000; t++) {
    size_t off = test_rand() % 16, n = t < 1000 ? (size_t)t : test_rand() % 70000;
    uint32_t seed = t & 1 ? (uint32_t)test_rand() : 0;
    uint32_t want = hg_ir_crc32c(seed, buf + off, n);
    bad += hg_snap_crc32c(seed, buf + off, n) != want || hg_snap_crc32c_portable(seed, buf + off, n) != want;
  }
  CHECK(bad == 0, "fast and portable CRC-32C equal hg_ir_crc32c (%d differ)", bad);
  /* continuing a CRC over pieces gives the CRC of the whole */
  uint32_t whole = hg_snap_crc32c(0, buf, 1 << 20), pieces = 0;
  for (size_t at = 0; at < 1 << 20; at += 12345)
    pieces = hg_snap_crc32c(pieces, buf + at, (1 << 20) - at < 12345 ? (1 << 20) - at : 12345);
  CHECK(whole == pieces, "CRC continues across pieces");
  free(buf);
}

/* ---- round trips --------------------------------------------------------------------------- */
static void check_round_trip(const char *name, const hg_snapshot *s) {
  char path[512], err[512] = "";
  snprintf(path, sizeof path, "%s/%s.hgsnap", dir, name);
  int rc = hg_snapshot_write(s, path, err, sizeof err);
  CHECK(rc == 0, "%s: write: %s", name, err);
  if (rc)
    return;
  hg_snapshot_file *f = hg_snapshot_open(path, err, sizeof err);
  CHECK(f != NULL, "%s: open: %s", name, err);
  if (!f)
    return;
  const hg_snapshot *r = hg_snapshot_get(f);
  CHECK(hg_snapshot_equal(s, r), "%s: read back equal", name);
  bool aligned = true;
  for (uint32_t i = 0; i < r->num_buffers; i++)
    aligned &= !r->buffers[i].data || ((uintptr_t)r->buffers[i].data % 64) == 0;
  CHECK(aligned, "%s: buffer contents 64-byte aligned in the mapping", name);
  hg_snapshot_close(f);
  size_t n;
  uint8_t *bytes = test_read_file(path, &n);
  f = bytes ? hg_snapshot_open_memory(bytes, n, err, sizeof err) : NULL;
  CHECK(f && hg_snapshot_equal(s, hg_snapshot_get(f)), "%s: open_memory equal: %s", name, err);
  hg_snapshot_close(f);
  free(bytes);
}

static void test_round_trips(void) {
  hg_snapshot empty = {.source_backend = "", .created_ns = 0};
  check_round_trip("empty", &empty);
  for (int i = 0; i < 60; i++) {
    test_snapshot *t = test_snapshot_random(i < 50 ? 3000 : 300000);
    char name[32];
    snprintf(name, sizeof name, "random%d", i);
    check_round_trip(name, &t->s);
    test_snapshot_free(t);
  }
}

/* ---- corruption ---------------------------------------------------------------------------- */
/* A small snapshot with something of every kind in it. */
static test_snapshot *small_snapshot(void) {
  for (;;) {
    test_snapshot *t = test_snapshot_random(200);
    if (t->s.num_buffers >= 3 && t->s.num_kernels >= 2 && t->s.num_queues >= 1)
      return t;
    test_snapshot_free(t);
  }
}

/* data is copied into an exactly sized allocation so the sanitizer sees any read past it */
static bool opens(const uint8_t *data, size_t n, char *err, size_t err_size) {
  uint8_t *c = malloc(n ? n : 1);
  memcpy(c, data, n);
  err[0] = 0;
  hg_snapshot_file *f = hg_snapshot_open_memory(c, n, err, err_size);
  if (f) { /* touch everything it points to */
    const hg_snapshot *s = hg_snapshot_get(f);
    volatile uint8_t sink = 0;
    for (uint32_t i = 0; i < s->num_buffers; i++)
      if (s->buffers[i].data)
        sink ^= s->buffers[i].data[s->buffers[i].size - 1];
    (void)sink;
  }
  hg_snapshot_close(f);
  free(c);
  return f != NULL;
}

static void test_corruption(void) {
  test_snapshot *t = small_snapshot();
  char path[512], err[512];
  snprintf(path, sizeof path, "%s/small.hgsnap", dir);
  CHECK(hg_snapshot_write(&t->s, path, err, sizeof err) == 0, "small: write: %s", err);
  size_t n;
  uint8_t *d = test_read_file(path, &n);
  CHECK(d && opens(d, n, err, sizeof err), "small snapshot opens: %s", err);
  printf("  small snapshot: %zu bytes, %u buffers, %u programs, %u kernels, %u queues\n", n, t->s.num_buffers,
         t->s.num_programs, t->s.num_kernels, t->s.num_queues);
  int accepted = 0, silent = 0;
  for (size_t len = 0; len < n; len++) {
    bool ok = opens(d, len, err, sizeof err);
    accepted += ok;
    silent += !ok && !err[0];
  }
  CHECK(accepted == 0 && silent == 0, "every truncation rejected with a message (%d accepted, %d silent)", accepted,
        silent);
  /* the same through the file path: a few lengths, and an empty file */
  for (size_t len = 0; len < n; len += n / 7 + 1) {
    FILE *fp = fopen(path, "wb");
    fwrite(d, 1, len, fp);
    fclose(fp);
    hg_snapshot_file *f = hg_snapshot_open(path, err, sizeof err);
    CHECK(!f && err[0], "truncated file of %zu bytes rejected", len);
    hg_snapshot_close(f);
  }
  accepted = silent = 0;
  int fixed_accepted = 0;
  uint8_t *c = malloc(n);
  for (size_t i = 0; i < n; i++) {
    memcpy(c, d, n);
    c[i] ^= (uint8_t)(1 + test_rand() % 255);
    bool ok = opens(c, n, err, sizeof err);
    accepted += ok;
    silent += !ok && !err[0];
    /* with the checksum made to match: any outcome but a crash, a rejection with a message */
    static const uint8_t flips[3] = {0x01, 0x80, 0xFF};
    for (int k = 0; k < 3 && (i < HG_SNAP_OFF_CRC || i >= HG_SNAP_OFF_CRC + 4); k++) {
      memcpy(c, d, n);
      c[i] ^= flips[k];
      set_crc(c, n);
      ok = opens(c, n, err, sizeof err);
      fixed_accepted += ok;
      silent += !ok && !err[0];
    }
  }
  CHECK(accepted == 0 && silent == 0, "every single-byte flip rejected with a message (%d accepted, %d silent)",
        accepted, silent);
  printf("  with the checksum fixed up: %d of %zu flips still open (labels, flags, contents)\n", fixed_accepted,
         3 * (n - 4));
  free(c);
  free(d);
  test_snapshot_free(t);
}

/* ---- versions -------------------------------------------------------------------------------- */
/* The file with one more section appended, in a file of the given minor version. */
static uint8_t *with_section(const uint8_t *d, size_t n, uint16_t minor, uint32_t tag, uint32_t flags, size_t *out) {
  uint8_t *c = calloc(1, n + 24);
  memcpy(c, d, n);
  uint8_t sec[16] = {(uint8_t)tag, (uint8_t)(tag >> 8), 0, 0, (uint8_t)flags, 0, 0, 0, 8};
  memcpy(c + n, sec, 16);
  *out = n + 24;
  for (int k = 0; k < 8; k++)
    c[HG_SNAP_OFF_FSIZE + k] = (uint8_t)(*out >> (8 * k));
  c[HG_SNAP_OFF_NSECTIONS]++;
  c[HG_SNAP_OFF_MINOR] = (uint8_t)minor;
  set_crc(c, *out);
  return c;
}

static void test_versions(void) {
  test_snapshot *t = small_snapshot();
  char path[512], err[512];
  snprintf(path, sizeof path, "%s/version.hgsnap", dir);
  CHECK(hg_snapshot_write(&t->s, path, err, sizeof err) == 0, "version: write: %s", err);
  size_t n, m;
  uint8_t *d = test_read_file(path, &n), *c = malloc(n);
  memcpy(c, d, n);
  c[HG_SNAP_OFF_MAJOR] = 2;
  set_crc(c, n);
  CHECK(!opens(c, n, err, sizeof err) && strstr(err, "major version"), "major 2 rejected: %s", err);
  /* this reader's own minors are 0 to HG_SNAP_VERSION_MINOR; the one after is a newer one */
  const uint16_t newer = HG_SNAP_VERSION_MINOR + 1;
  for (uint16_t minor = 1; minor <= newer; minor++) {
    memcpy(c, d, n);
    c[HG_SNAP_OFF_MINOR] = (uint8_t)minor;
    set_crc(c, n);
    CHECK(opens(c, n, err, sizeof err), "minor %u without new sections opens: %s", minor, err);
  }
  free(c);
  c = with_section(d, n, newer, 99, HG_SNAP_SECTION_OPTIONAL, &m);
  CHECK(opens(c, m, err, sizeof err), "newer minor: unknown optional section skipped: %s", err);
  free(c);
  c = with_section(d, n, newer, 99, 0, &m);
  CHECK(!opens(c, m, err, sizeof err), "newer minor: unknown required section rejected");
  free(c);
  for (uint16_t minor = 0; minor <= HG_SNAP_VERSION_MINOR; minor++) {
    c = with_section(d, n, minor, 99, HG_SNAP_SECTION_OPTIONAL, &m);
    CHECK(!opens(c, m, err, sizeof err), "own minor %u: unknown section rejected even if optional", minor);
    free(c);
  }
  /* the kernel state section: never in a minor-0 file; not empty (snapshot_running_test has the rest) */
  c = with_section(d, n, 0, HG_SNAP_SEC_KERNEL_STATE, 0, &m);
  CHECK(!opens(c, m, err, sizeof err) && strstr(err, "in flight"), "kernel state section in minor 0 rejected: %s",
        err);
  free(c);
  c = with_section(d, n, 1, HG_SNAP_SEC_KERNEL_STATE, 0, &m);
  CHECK(!opens(c, m, err, sizeof err), "an empty kernel state section rejected: %s", err);
  free(c);
  free(d);
  test_snapshot_free(t);
}

/* ---- the writer refuses what the reader would ------------------------------------------------ */
static void expect_refused(const char *what, const hg_snapshot *s) {
  char path[512], err[512] = "";
  snprintf(path, sizeof path, "%s/refused.hgsnap", dir);
  unlink(path);
  int rc = hg_snapshot_write(s, path, err, sizeof err);
  CHECK(rc == -1 && err[0] && access(path, F_OK) != 0, "writer refuses %s (%s)", what, err);
}

static void test_writer_refuses(void) {
  test_snapshot *t = small_snapshot();
  hg_snap_buffer *b = t->buffers;
  hg_snap_kernel *k = t->kernels;
  hg_snap_buffer saved_b = b[1];
  b[1].id = 7;
  expect_refused("a buffer id that is not its index", &t->s);
  b[1] = saved_b;
  b[1].parent = 1;
  b[1].data = NULL;
  expect_refused("a sub-buffer that is its own parent", &t->s);
  b[1] = (hg_snap_buffer){1, 0, 0, b[0].size, 1, NULL, NULL};
  expect_refused("a sub-buffer past its parent's end", &t->s);
  b[1] = saved_b;
  const char *name = k[0].name;
  k[0].name = "missing";
  expect_refused("a kernel name the program does not have", &t->s);
  k[0].name = name;
  k[0].num_args--;
  expect_refused("an argument count that is not the kernel's", &t->s);
  k[0].num_args++;
  hg_snap_kernel_arg *args = (hg_snap_kernel_arg *)k[0].args, saved_a = args[0];
  args[0] = (hg_snap_kernel_arg){HG_SNAP_ARG_BUFFER, t->s.num_buffers, 0, NULL};
  expect_refused("an argument naming a buffer out of range", &t->s);
  args[0] = (hg_snap_kernel_arg){HG_SNAP_ARG_VALUE, HG_SNAP_NONE, 3, (const uint8_t *)"abc"};
  expect_refused("a value for a pointer parameter", &t->s);
  args[0] = saved_a;
  uint32_t prog = k[0].program;
  k[0].program = t->s.num_programs;
  expect_refused("a program id out of range", &t->s);
  k[0].program = prog;
  char err[512];
  CHECK(hg_snapshot_write(&t->s, "/nonexistent-dir/x.hgsnap", err, sizeof err) == -1 && err[0],
        "write into a missing directory fails with a message: %s", err);
  test_snapshot_free(t);
}

/* ---- throughput (printed only: no timing assertions) ------------------------------------------ */
static void test_throughput(void) {
  const uint64_t bytes = 256ull << 20;
  test_snapshot *t = test_snapshot_big(bytes);
  const uint8_t *data = t->buffers[0].data;
  double mib = (double)bytes / (1 << 20), t0 = now_s();
  uint32_t fast = hg_snap_crc32c(0, data, bytes);
  double t1 = now_s();
  uint32_t portable = hg_snap_crc32c_portable(0, data, bytes);
  double t2 = now_s();
  uint32_t bytewise = hg_ir_crc32c(0, data, 64 << 20);
  double t3 = now_s();
  CHECK(fast == portable && bytewise == hg_snap_crc32c(0, data, 64 << 20), "big CRCs agree");
  char path[512], err[512];
  snprintf(path, sizeof path, "%s/big.hgsnap", dir);
  double w0 = now_s();
  int rc = hg_snapshot_write(&t->s, path, err, sizeof err);
  double w1 = now_s();
  CHECK(rc == 0, "big: write: %s", err);
  hg_snapshot_file *f = hg_snapshot_open(path, err, sizeof err);
  double w2 = now_s();
  CHECK(f && hg_snapshot_equal(&t->s, hg_snapshot_get(f)), "big: read back equal: %s", err);
  hg_snapshot_close(f);
  printf("  256 MiB: CRC-32C fast %.0f MB/s, slicing-by-8 %.0f MB/s, hg_ir_crc32c %.0f MB/s; "
         "write+fsync %.0f MB/s; open+verify %.0f MB/s\n",
         mib / (t1 - t0), mib / (t2 - t1), 64 / (t3 - t2), mib / (w1 - w0), mib / (w2 - w1));
  unlink(path);
  test_snapshot_free(t);
}

/* seed00..11: random snapshots (minor 0); seed12, seed13: kernels in flight (minor 1) */
static void write_seeds(const char *seed_dir) {
  for (int i = 0; i < 14; i++) {
    test_snapshot *t = i < 12 ? test_snapshot_random(i < 6 ? 16 : 200) : test_snapshot_running((uint32_t)i - 11);
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/seed%02d.hgsnap", seed_dir, i);
    CHECK(hg_snapshot_write(&t->s, path, err, sizeof err) == 0, "seed: %s", err);
    test_snapshot_free(t);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/hgsnap-test-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  uint64_t seed = getenv("HG_TEST_SEED") ? strtoull(getenv("HG_TEST_SEED"), NULL, 0) : (uint64_t)time(NULL);
  printf("seed %llu (HG_TEST_SEED to repeat)\n", (unsigned long long)seed);
  test_seed(seed);
  test_crc();
  test_round_trips();
  test_corruption();
  test_versions();
  test_writer_refuses();
  test_atomic_replace(dir);
  test_throughput();
  if (argc > 1)
    write_seeds(argv[1]);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    printf("could not remove %s\n", dir);
  printf("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed ? 1 : 0;
}
