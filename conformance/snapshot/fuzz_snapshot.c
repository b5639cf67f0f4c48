/* libFuzzer harness for the snapshot reader: any bytes must give a snapshot or NULL with a
 * message, never a crash, an out-of-bounds read or an unbounded allocation. Each input is read
 * as given and once more with its file-size and CRC fields made to match (else mutations stop
 * at the checksum). A snapshot that opens must have every byte it points to inside the input,
 * and must write out (hg_snap_write_fd, to a memfd) and read back equal. Seeds: the files
 * `snapshot_unit_test <dir>` writes (corpus/: seed12 and seed13 hold kernels in flight, the
 * kernel state section of minor 1; seed14 and seed15, written by `snapshot_image_test <dir>`,
 * images and samplers, the sections of minor 2). */
#include "snapshot/format.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void check_one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check_one(data, size);
  if (size >= HG_SNAP_HEADER_SIZE) {
    uint8_t *c = malloc(size);
    if (!c)
      return 0;
    memcpy(c, data, size);
    for (int k = 0; k < 8; k++)
      c[HG_SNAP_OFF_FSIZE + k] = (uint8_t)((uint64_t)size >> (8 * k));
    uint32_t crc = hg_snap_file_crc(c, size);
    for (int k = 0; k < 4; k++)
      c[HG_SNAP_OFF_CRC + k] = (uint8_t)(crc >> (8 * k));
    check_one(c, size);
    free(c);
  }
  return 0;
}

static bool inside(const uint8_t *p, uint64_t n, const uint8_t *data, size_t size) {
  return p >= data && p <= data + size && n <= (uint64_t)(data + size - p);
}

/* every pointer of s lies in the input (the sanitizer checks the reads; this checks the bounds) */
static void check_pointers(const hg_snapshot *s, const uint8_t *data, size_t size) {
  for (uint32_t i = 0; i < s->num_buffers; i++)
    if (s->buffers[i].data && !inside(s->buffers[i].data, s->buffers[i].size, data, size))
      abort();
  for (uint32_t i = 0; i < s->num_programs; i++)
    if (!inside(s->programs[i].ir, s->programs[i].ir_size, data, size))
      abort();
  for (uint32_t i = 0; i < s->num_kernels; i++)
    for (uint32_t a = 0; a < s->kernels[i].num_args; a++) {
      const hg_snap_kernel_arg *g = &s->kernels[i].args[a];
      if (g->value && !inside(g->value, g->size, data, size))
        abort();
    }
  /* image contents and sampler property lists (minor 2) */
  for (uint32_t i = 0; i < s->num_images; i++)
    if (s->images[i].data && !inside(s->images[i].data, s->images[i].size, data, size))
      abort();
  for (uint32_t i = 0; i < s->num_samplers; i++)
    if (s->samplers[i].properties && !inside(s->samplers[i].properties, 8ull * s->samplers[i].num_properties, data, size))
      abort();
  /* the stopped launches' values too; their states are the reader's own copies */
  for (uint32_t i = 0; i < s->num_running; i++) {
    if (!s->running[i].state)
      abort();
    for (uint32_t a = 0; a < s->running[i].num_args; a++) {
      const hg_snap_kernel_arg *g = &s->running[i].args[a];
      if (g->value && !inside(g->value, g->size, data, size))
        abort();
    }
  }
}

static void check_rewrite(const hg_snapshot *s) {
  int fd = memfd_create("fuzz_snapshot", MFD_CLOEXEC);
  if (fd < 0)
    return;
  char err[512] = "";
  if (hg_snap_write_fd(s, fd, err, sizeof err) != 0) {
    fprintf(stderr, "rewrite failed: %s\n", err);
    abort();
  }
  off_t n = lseek(fd, 0, SEEK_END);
  uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
  if (!b || pread(fd, b, (size_t)n, 0) != n)
    abort();
  close(fd);
  hg_snapshot_file *f = hg_snapshot_open_memory(b, (size_t)n, err, sizeof err);
  if (!f || !hg_snapshot_equal(s, hg_snapshot_get(f))) {
    fprintf(stderr, "round trip failed: %s\n", f ? "not equal" : err);
    abort();
  }
  hg_snapshot_close(f);
  free(b);
}

static void check_one(const uint8_t *data, size_t size) {
  char err[512] = "";
  hg_snapshot_file *f = hg_snapshot_open_memory(data, size, err, sizeof err);
  if (!f) {
    if (!err[0])
      abort(); /* a rejection always says why */
    return;
  }
  const hg_snapshot *s = hg_snapshot_get(f);
  check_pointers(s, data, size);
  check_rewrite(s);
  hg_snapshot_close(f);
}
