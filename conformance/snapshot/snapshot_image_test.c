/* Images and samplers in snapshots (minor 2, docs/snapshot-format.md section 3.8): a snapshot
 * with a 2D image, a 1D buffer image, samplers and a kernel taking them round-trips; each
 * broken rule is refused by hg_snap_validate (hence the writer) and, patched into a written
 * file with its checksum fixed, by the reader, with a message that names the problem; every
 * truncation and byte flip of such a file is rejected with a message or reads back whole.
 * Optional argument: a directory to which the image seeds of the fuzzer's corpus are written. */
#include "image_snapshot.h"
#include "test_check.h"

#include "common/image_format.h"
#include "common/profile_limits.h"
#include "snapshot/format.h"

#include <CL/cl.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int test_passed, test_failed;
static char dir[256];

/* The file hg_snap_write_fd makes of s (malloc'd), or NULL with the writer's message in err. */
static uint8_t *write_bytes(const hg_snapshot *s, size_t *n, char *err, size_t err_size) {
  int fd = memfd_create("image_test", MFD_CLOEXEC);
  if (fd < 0)
    abort();
  uint8_t *b = NULL;
  if (hg_snap_write_fd(s, fd, err, err_size) == 0) {
    off_t len = lseek(fd, 0, SEEK_END);
    b = malloc(len > 0 ? (size_t)len : 1);
    if (!b || pread(fd, b, (size_t)len, 0) != len)
      abort();
    *n = (size_t)len;
  }
  close(fd);
  return b;
}

static uint64_t get_le(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  for (int k = bytes - 1; k >= 0; k--)
    v = v << 8 | p[k];
  return v;
}
static void put_le(uint8_t *p, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; k++)
    p[k] = (uint8_t)(v >> (8 * k));
}
static void fix_crc(uint8_t *d, size_t n) {
  put_le(d + HG_SNAP_OFF_FSIZE, n, 8);
  put_le(d + HG_SNAP_OFF_CRC, hg_snap_file_crc(d, n), 4);
}

/* The absolute offset of the section `tag`'s header, or 0. */
static size_t section_at(const uint8_t *d, size_t n, uint32_t tag) {
  for (size_t at = HG_SNAP_HEADER_SIZE; at + 16 <= n;) {
    if (get_le(d + at, 4) == tag)
      return at;
    at = (at + 16 + get_le(d + at + 8, 8) + 7) & ~(size_t)7;
  }
  return 0;
}

/* An exact-size copy opened from memory: true when it opens; else err says why. Anything that
 * opens must write out and read back equal (as in the fuzzer). */
static bool opens(const uint8_t *d, size_t n, char *err, size_t err_size) {
  uint8_t *c = malloc(n ? n : 1);
  memcpy(c, d, n);
  err[0] = 0;
  hg_snapshot_file *f = hg_snapshot_open_memory(c, n, err, err_size);
  if (f) {
    char werr[512];
    size_t m;
    uint8_t *again = write_bytes(hg_snapshot_get(f), &m, werr, sizeof werr);
    hg_snapshot_file *g = again ? hg_snapshot_open_memory(again, m, werr, sizeof werr) : NULL;
    CHECK(g && hg_snapshot_equal(hg_snapshot_get(f), hg_snapshot_get(g)), "what opens rewrites equal: %s", werr);
    hg_snapshot_close(g);
    free(again);
  }
  hg_snapshot_close(f);
  free(c);
  return f != NULL;
}

static void test_round_trip(void) {
  for (int extra = 0; extra < 2; extra++) {
    test_snapshot *t = test_snapshot_images(extra);
    char err[512] = "";
    CHECK(hg_snap_validate(&t->s, err, sizeof err), "image snapshot valid: %s", err);
    size_t n;
    uint8_t *d = write_bytes(&t->s, &n, err, sizeof err);
    CHECK(d != NULL, "image snapshot written: %s", err);
    if (!d) {
      test_snapshot_free(t);
      continue;
    }
    CHECK(get_le(d + HG_SNAP_OFF_MINOR, 2) == HG_SNAP_MINOR_IMAGES, "a file with images is minor 2");
    hg_snapshot_file *f = hg_snapshot_open_memory(d, n, err, sizeof err);
    CHECK(f && hg_snapshot_equal(&t->s, hg_snapshot_get(f)), "image snapshot reads back equal: %s", err);
    if (f) {
      const hg_snapshot *r = hg_snapshot_get(f);
      CHECK(r->images[0].data && (r->images[0].data - d) % 64 == 0 && !r->images[1].data,
            "image contents 64-byte aligned; the 1D buffer image has none of its own");
    }
    hg_snapshot_close(f);
    free(d);
    test_snapshot_free(t);
  }
}

/* ---- rules broken in memory: hg_snap_validate and the writer refuse, naming the problem ---- */
enum { BAD_FORMAT, BAD_WIDTH, BAD_BUF_WIDTH, BAD_SIZE, BAD_OUTSIDE, BAD_IMAGE_AS_SAMPLER, BAD_SAMPLER_RANGE,
       BAD_BITS, BAD_TWO_FILTERS, BAD_ADDRESS, BAD_DIM, BAD_BUFFER_AS_IMAGE, BAD_PROPS, NUM_BAD };

static const char *break_rule(test_snapshot *t, int which) {
  hg_snap_image *im = t->images;
  hg_snap_kernel_arg *args = (hg_snap_kernel_arg *)t->kernels[0].args;
  switch (which) {
  case BAD_FORMAT: im[0].channel_type = 0x10FF; return "format";
  case BAD_WIDTH: im[0].width = HG_PROFILE_IMAGE2D_MAX_WIDTH + 1; return "not allowed for its type";
  case BAD_BUF_WIDTH: im[1].width = HG_PROFILE_IMAGE_MAX_BUFFER_SIZE + 1; return "not allowed for its type";
  case BAD_SIZE: im[0].size = 44; return "packs into 48";
  case BAD_OUTSIDE: /* 128 pixels of 4 bytes over a 256-byte buffer */
    im[1].width = 128, im[1].row_pitch = im[1].size = 512;
    return "do not fit in buffer 0";
  case BAD_IMAGE_AS_SAMPLER: args[2].buffer = im[0].id; return "sampler 2 out of range";
  case BAD_SAMPLER_RANGE: args[2].buffer = 2; return "out of range";
  case BAD_BITS: t->samplers[0].bits |= 0x40; return "bits 0x55";
  case BAD_TWO_FILTERS: t->samplers[0].bits |= HG_SAMPLER_FILTER_LINEAR; return "are not a sampler's";
  case BAD_ADDRESS: t->samplers[0].bits = HG_SAMPLER_FILTER_NEAREST | 0xA; return "are not a sampler's";
  case BAD_DIM: args[0].buffer = im[1].id; return "not of the parameter's dimension";
  case BAD_BUFFER_AS_IMAGE: args[1].buffer = 0; return "mem 0 is not an image";
  case BAD_PROPS: t->samplers[1].bits ^= HG_SAMPLER_FILTER_NEAREST | HG_SAMPLER_FILTER_LINEAR;
    return "not those of its bits";
  }
  return NULL;
}

static void test_rules(void) {
  for (int which = 0; which < NUM_BAD; which++) {
    test_snapshot *t = test_snapshot_images(false);
    const char *want = break_rule(t, which);
    char err[512] = "";
    bool valid = hg_snap_validate(&t->s, err, sizeof err);
    CHECK(!valid && strstr(err, want), "rule %d refused naming \"%s\": %s", which, want, err);
    /* hg_snapshot_write checks before it writes (hg_snap_write_fd does not) */
    char path[512];
    snprintf(path, sizeof path, "%s/refused.hgsnap", dir);
    err[0] = 0;
    int rc = hg_snapshot_write(&t->s, path, err, sizeof err);
    CHECK(rc == -1 && strstr(err, want) && access(path, F_OK) != 0, "rule %d: the writer refuses: %s", which, err);
    test_snapshot_free(t);
  }
}

/* ---- the same rules broken in a written file: the reader refuses ------------------------- */
/* Offsets in the IMAGES payload (images 0 and 1 have NULL labels: 96-byte records). */
enum { IMG0 = 4, IMG_REC = 96, F_TYPE = 12, F_WIDTH = 24, F_ROW = 56, F_SIZE = 76,
       SMP0 = 4 + 2 * IMG_REC + 4, S_BITS = 4 };
/* In the KERNELS payload: count, id, program, name "k_img" (10 bytes), NULL label, num_args,
 * then 16-byte arguments (kind, buffer, size). */
enum { ARG0 = 4 + 4 + 4 + 10 + 4 + 4, ARG_REC = 16, A_BUFFER = 4 };

typedef struct patch {
  uint32_t tag;       /* section */
  uint32_t at, bytes; /* in its payload */
  uint64_t value;
} patch;

static void expect_file_refused(const uint8_t *d, size_t n, const patch *p, int np, const char *what,
                                const char *want) {
  uint8_t *c = malloc(n);
  memcpy(c, d, n);
  for (int i = 0; i < np; i++) {
    size_t sec = section_at(c, n, p[i].tag);
    put_le(c + sec + 16 + p[i].at, p[i].value, (int)p[i].bytes);
  }
  fix_crc(c, n);
  char err[512];
  CHECK(!opens(c, n, err, sizeof err) && strstr(err, want), "file with %s refused naming \"%s\": %s", what, want,
        err);
  free(c);
}

/* IMAGE_DATA (the last section) cut short by `cut` bytes, the file ending after its padding. */
static void expect_truncated_data_refused(const uint8_t *d, size_t n, uint64_t cut) {
  size_t sec = section_at(d, n, HG_SNAP_SEC_IMAGE_DATA);
  uint64_t len = get_le(d + sec + 8, 8) - cut;
  size_t end = sec + 16 + (size_t)len, m = (end + 7) & ~(size_t)7;
  uint8_t *c = calloc(1, m);
  memcpy(c, d, end);
  put_le(c + sec + 8, len, 8);
  fix_crc(c, m);
  char err[512];
  CHECK(!opens(c, m, err, sizeof err) && strstr(err, "image data"), "image data cut by %llu refused: %s",
        (unsigned long long)cut, err);
  free(c);
}

static void test_file_rules(void) {
  test_snapshot *t = test_snapshot_images(false);
  char err[512];
  size_t n;
  uint8_t *d = write_bytes(&t->s, &n, err, sizeof err);
  CHECK(d && opens(d, n, err, sizeof err), "image file opens: %s", err);
  if (!d) {
    test_snapshot_free(t);
    return;
  }
  const uint32_t IM = HG_SNAP_SEC_IMAGES, K = HG_SNAP_SEC_KERNELS;
  /* the patches land where the offsets say: the unpatched values are the snapshot's */
  const uint8_t *imgs = d + section_at(d, n, IM) + 16, *kern = d + section_at(d, n, K) + 16;
  CHECK(get_le(imgs + IMG0 + F_WIDTH, 8) == 4 && get_le(imgs + IMG0 + IMG_REC + F_SIZE, 8) == 64 &&
            get_le(imgs + SMP0 + S_BITS, 4) == t->samplers[0].bits &&
            get_le(kern + ARG0 + 2 * ARG_REC + A_BUFFER, 4) == 1,
        "the test's field offsets match the file");
  expect_file_refused(d, n, (patch[]){{IM, IMG0 + F_TYPE, 4, 0x10FF}}, 1, "an unsupported format", "format");
  expect_file_refused(d, n, (patch[]){{IM, IMG0 + F_WIDTH, 8, HG_PROFILE_IMAGE2D_MAX_WIDTH + 1}}, 1,
                      "a width above the limit", "sizes 8193 x 3");
  expect_file_refused(d, n, (patch[]){{IM, IMG0 + IMG_REC + F_SIZE, 8, 60}}, 1, "a size not the packed one",
                      "packs into 64");
  expect_file_refused(d, n,
                      (patch[]){{IM, IMG0 + IMG_REC + F_WIDTH, 8, 128},
                                {IM, IMG0 + IMG_REC + F_ROW, 8, 512},
                                {IM, IMG0 + IMG_REC + F_SIZE, 8, 512}},
                      3, "a 1D buffer image past its buffer", "do not fit in buffer 0");
  expect_file_refused(d, n, (patch[]){{K, ARG0 + 2 * ARG_REC + A_BUFFER, 4, 2}}, 1, "an image id as a sampler",
                      "sampler 2 out of range");
  expect_file_refused(d, n, (patch[]){{K, ARG0 + 2 * ARG_REC + A_BUFFER, 4, 0xFFFFFFFEu}}, 1,
                      "a sampler id out of range", "out of range");
  expect_file_refused(d, n, (patch[]){{IM, SMP0 + S_BITS, 4, 0x80}}, 1, "invalid sampler bits", "bits 0x80");
  expect_file_refused(d, n, (patch[]){{K, ARG0 + A_BUFFER, 4, 3}}, 1, "a 1D buffer image for an image2d_t",
                      "not of the parameter's dimension");
  expect_file_refused(d, n, (patch[]){{K, ARG0 + A_BUFFER, 4, 9}}, 1, "an image id out of range", "not an image");
  for (uint64_t cut = 1; cut <= 48; cut += 47) /* image 0's 48 bytes: one short, and all gone */
    expect_truncated_data_refused(d, n, cut);
  free(d);
  test_snapshot_free(t);
}

/* Every truncation rejected with a message; every byte flipped, with the checksum fixed: a
 * rejection with a message or a snapshot that reads back equal, never a crash. */
static void test_sweep(void) {
  test_snapshot *t = test_snapshot_images(true);
  char err[512];
  size_t n;
  uint8_t *d = write_bytes(&t->s, &n, err, sizeof err);
  if (!d) {
    CHECK(false, "image sweep: write: %s", err);
    test_snapshot_free(t);
    return;
  }
  int accepted = 0, silent = 0, fixed_accepted = 0;
  for (size_t len = 0; len < n; len++) {
    bool ok = opens(d, len, err, sizeof err);
    accepted += ok;
    silent += !ok && !err[0];
  }
  uint8_t *c = malloc(n);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      static const uint8_t flips[3] = {0x01, 0x80, 0xFF};
      memcpy(c, d, n);
      c[i] ^= flips[k];
      if (i < HG_SNAP_OFF_CRC || i >= HG_SNAP_OFF_CRC + 4)
        fix_crc(c, n);
      bool ok = opens(c, n, err, sizeof err);
      fixed_accepted += ok;
      silent += !ok && !err[0];
    }
  CHECK(accepted == 0 && silent == 0, "image file: truncations and flips rejected with a message (%d, %d silent)",
        accepted, silent);
  printf("  image file of %zu bytes: %d of %zu flips with the checksum fixed still open\n", n, fixed_accepted, 3 * n);
  free(c);
  free(d);
  test_snapshot_free(t);
}

/* seed14 (two images), seed15 (three): minor-2 seeds of the fuzzer's corpus */
static void write_seeds(const char *seed_dir) {
  for (int i = 0; i < 2; i++) {
    test_snapshot *t = test_snapshot_images(i == 1);
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/seed%02d.hgsnap", seed_dir, 14 + i);
    CHECK(hg_snapshot_write(&t->s, path, err, sizeof err) == 0, "seed: %s", err);
    test_snapshot_free(t);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  uint64_t seed = getenv("HG_TEST_SEED") ? strtoull(getenv("HG_TEST_SEED"), NULL, 0) : (uint64_t)time(NULL);
  printf("seed %llu (HG_TEST_SEED to repeat)\n", (unsigned long long)seed);
  test_seed(seed);
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/hgsnap-image-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_round_trip();
  test_rules();
  test_file_rules();
  test_sweep();
  if (argc > 1)
    write_seeds(argv[1]);
  rmdir(dir);
  printf("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed ? 1 : 0;
}
