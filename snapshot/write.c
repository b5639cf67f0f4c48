/* Writing a snapshot file (docs/snapshot-format.md): sections streamed through one sink with a
 * running CRC, buffer contents straight from the caller's pointers, the CRC put into the header
 * last; and the atomic replace around it (temporary file, fsync, rename, fsync directory).
 *
 * Every section is emitted twice by the same code: once into a counting sink (to learn its
 * length and where each root buffer's contents land) and once for real, so the layout the
 * header and the buffer records announce cannot drift from the bytes written. */
#include "snapshot/format.h"

#include "ir/ndrange_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { STAGE_SIZE = 64 * 1024, DIRECT_CHUNK = 4 * 1024 * 1024 };

typedef struct sink {
  int fd;       /* -1: the counting pass, nothing is written */
  uint64_t pos; /* absolute file offset of the next byte emitted */
  uint64_t written; /* bytes handed to write() so far (staging lags behind pos) */
  uint32_t crc;
  bool failed;
  char *err;
  size_t err_size;
  size_t staged;
  uint8_t stage[STAGE_SIZE]; /* small fields gathered into few write() calls */
} sink;

static void write_all(sink *k, const uint8_t *p, size_t n) {
  while (n && !k->failed) {
    ssize_t w = write(k->fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      k->failed = true;
      hg_snap_errf(k->err, k->err_size, "write failed at byte %llu: %s", (unsigned long long)k->written,
                   w < 0 ? strerror(errno) : "no progress");
      return;
    }
    p += w;
    n -= (size_t)w;
    k->written += (uint64_t)w;
  }
}

static void flush(sink *k) {
  write_all(k, k->stage, k->staged);
  k->staged = 0;
}

/* Appends bytes; `in_crc` false only for the header's CRC field. */
static void put_raw(sink *k, const void *src, size_t n, bool in_crc) {
  const uint8_t *p = src;
  k->pos += n;
  /* n == 0 may come with src NULL (a sampler without properties): memcpy must not see it */
  if (n == 0 || k->fd < 0 || k->failed)
    return;
  if (n <= STAGE_SIZE - k->staged) {
    if (in_crc)
      k->crc = hg_snap_crc32c(k->crc, p, n);
    memcpy(k->stage + k->staged, p, n);
    k->staged += n;
    return;
  }
  /* large: buffer contents go from the caller's memory to the file in chunks, each checksummed
   * just before it is written while it is still in cache */
  flush(k);
  for (size_t done = 0; done < n && !k->failed;) {
    size_t c = n - done < DIRECT_CHUNK ? n - done : DIRECT_CHUNK;
    if (in_crc)
      k->crc = hg_snap_crc32c(k->crc, p + done, c);
    write_all(k, p + done, c);
    done += c;
  }
}
static void put(sink *k, const void *p, size_t n) { put_raw(k, p, n, true); }
static void put_u32(sink *k, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  put(k, b, 4);
}
static void put_u64(sink *k, uint64_t v) {
  put_u32(k, (uint32_t)v);
  put_u32(k, (uint32_t)(v >> 32));
}
static void put_zeros(sink *k, uint64_t n) {
  static const uint8_t zero[HG_SNAP_DATA_ALIGN];
  for (; n; n -= n < sizeof zero ? n : sizeof zero)
    put(k, zero, n < sizeof zero ? n : sizeof zero);
}
static void pad_to(sink *k, uint64_t align) { put_zeros(k, hg_snap_align(k->pos, align) - k->pos); }
/* u32 length (HG_SNAP_STRING_NULL for NULL), the bytes, a NUL */
static void put_string(sink *k, const char *s) {
  if (!s) {
    put_u32(k, HG_SNAP_STRING_NULL);
    return;
  }
  size_t n = strlen(s);
  put_u32(k, (uint32_t)n);
  put(k, s, n + 1);
}

/* ---- section payloads ------------------------------------------------------------------ */
/* data_off[i]: file offset of root buffer i's contents, filled by emit_buffer_data; then, from
 * index num_buffers, of image i's, filled by emit_image_data. */
typedef void emit_fn(sink *k, const hg_snapshot *s, uint64_t *data_off);

static void emit_meta(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  put_u64(k, s->created_ns);
  put_string(k, s->source_backend);
}

static void emit_buffers(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  put_u32(k, s->num_buffers);
  for (uint32_t i = 0; i < s->num_buffers; i++) {
    const hg_snap_buffer *b = &s->buffers[i];
    put_u32(k, b->id);
    put_u32(k, b->parent);
    put_u64(k, b->flags);
    put_u64(k, b->origin);
    put_u64(k, b->size);
    put_u64(k, data_off[i]);
    put_string(k, b->label);
  }
}

static void emit_programs(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  put_u32(k, s->num_programs);
  for (uint32_t i = 0; i < s->num_programs; i++) {
    const hg_snap_program *p = &s->programs[i];
    put_u32(k, p->id);
    put_string(k, p->label);
    put_string(k, p->build_options);
    put_u64(k, p->ir_size);
    put(k, p->ir, p->ir_size);
  }
}

/* u32 count, then per argument u32 kind, u32 buffer, u64 size and (VALUE) the bytes: the
 * kernels' and the stopped launches' arguments alike */
static void emit_args(sink *k, uint32_t n, const hg_snap_kernel_arg *args) {
  put_u32(k, n);
  for (uint32_t a = 0; a < n; a++) {
    const hg_snap_kernel_arg *g = &args[a];
    put_u32(k, g->kind);
    put_u32(k, g->buffer);
    put_u64(k, g->size);
    if (g->kind == HG_SNAP_ARG_VALUE)
      put(k, g->value, g->size);
  }
}

static void emit_kernels(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  put_u32(k, s->num_kernels);
  for (uint32_t i = 0; i < s->num_kernels; i++) {
    const hg_snap_kernel *kn = &s->kernels[i];
    put_u32(k, kn->id);
    put_u32(k, kn->program);
    put_string(k, kn->name);
    put_string(k, kn->label);
    emit_args(k, kn->num_args, kn->args);
  }
}

static void emit_queues(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  put_u32(k, s->num_queues);
  for (uint32_t i = 0; i < s->num_queues; i++) {
    put_u32(k, s->queues[i].id);
    put_u64(k, s->queues[i].properties);
    put_string(k, s->queues[i].label);
  }
}

/* root buffers in id order, each at the next 64-byte aligned file offset */
static void emit_buffer_data(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  for (uint32_t i = 0; i < s->num_buffers; i++) {
    const hg_snap_buffer *b = &s->buffers[i];
    if (b->parent != HG_SNAP_NONE)
      continue;
    pad_to(k, HG_SNAP_DATA_ALIGN);
    data_off[i] = k->pos;
    put(k, b->data, b->size);
  }
}

/* one running work-group: where each work-item stands, its values and frame, the local memory */
static void emit_group(sink *k, const hg_ir_ndrange_state *st, const hg_ir_group_state *g) {
  uint64_t n = g->num_items;
  put_u64(k, g->group);
  put_u32(k, g->num_items);
  for (uint64_t i = 0; i < n; i++)
    put_u32(k, g->safepoint[i]);
  put(k, g->values, n * st->value_stride);
  put(k, g->frames, n * st->private_size);
  put(k, g->local, st->local_bytes);
}

/* the stopped NDRange, every field of hg_ir_ndrange_state in declaration order */
static void emit_state(sink *k, const hg_ir_ndrange_state *st) {
  put_string(k, st->kernel);
  put_u32(k, st->work_dim);
  for (int d = 0; d < 3; d++)
    put_u64(k, st->global_offset[d]);
  for (int d = 0; d < 3; d++)
    put_u64(k, st->global_size[d]);
  for (int d = 0; d < 3; d++)
    put_u64(k, st->local_size[d]);
  put_u64(k, st->num_groups);
  put(k, st->group_status, st->num_groups);
  put_u32(k, st->value_stride);
  put_u32(k, st->private_size);
  put_u32(k, st->local_bytes);
  put_u32(k, st->num_running);
  for (uint32_t r = 0; r < st->num_running; r++)
    emit_group(k, st, &st->running[r]);
}

static void emit_kernel_state(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  put_u32(k, s->num_running);
  for (uint32_t i = 0; i < s->num_running; i++) {
    const hg_snap_running *r = &s->running[i];
    put_u32(k, r->queue);
    put_u32(k, r->kernel);
    emit_args(k, r->num_args, r->args);
    emit_state(k, r->state);
  }
}

/* images, then samplers (section IMAGES, minor 2) */
static void emit_images(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  put_u32(k, s->num_images);
  for (uint32_t i = 0; i < s->num_images; i++) {
    const hg_snap_image *im = &s->images[i];
    put_u32(k, im->id);
    put_u32(k, im->type);
    put_u32(k, im->channel_order);
    put_u32(k, im->channel_type);
    put_u64(k, im->flags);
    put_u64(k, im->width);
    put_u64(k, im->height);
    put_u64(k, im->depth);
    put_u64(k, im->array_size);
    put_u64(k, im->row_pitch);
    put_u64(k, im->slice_pitch);
    put_u32(k, im->buffer);
    put_u64(k, im->size);
    put_u64(k, data_off[s->num_buffers + i]);
    put_string(k, im->label);
  }
  put_u32(k, s->num_samplers);
  for (uint32_t i = 0; i < s->num_samplers; i++) {
    const hg_snap_sampler *sm = &s->samplers[i];
    put_u32(k, sm->id);
    put_u32(k, sm->bits);
    put_u32(k, sm->num_properties);
    put(k, sm->properties, 8ull * sm->num_properties);
    put_string(k, sm->label);
  }
}

/* images with storage of their own in id order, as root buffers in BUFFER_DATA */
static void emit_image_data(sink *k, const hg_snapshot *s, uint64_t *data_off) {
  for (uint32_t i = 0; i < s->num_images; i++) {
    const hg_snap_image *im = &s->images[i];
    if (!im->data)
      continue;
    pad_to(k, HG_SNAP_DATA_ALIGN);
    data_off[s->num_buffers + i] = k->pos;
    put(k, im->data, im->size);
  }
}

static const struct {
  uint32_t tag;
  emit_fn *emit;
} SECTIONS[] = {
    {HG_SNAP_SEC_META, emit_meta},       {HG_SNAP_SEC_BUFFERS, emit_buffers},
    {HG_SNAP_SEC_PROGRAMS, emit_programs}, {HG_SNAP_SEC_KERNELS, emit_kernels},
    {HG_SNAP_SEC_QUEUES, emit_queues},   {HG_SNAP_SEC_BUFFER_DATA, emit_buffer_data},
    {HG_SNAP_SEC_KERNEL_STATE, emit_kernel_state},
    {HG_SNAP_SEC_IMAGES, emit_images},   {HG_SNAP_SEC_IMAGE_DATA, emit_image_data},
};
enum { ALL_SECTIONS = sizeof SECTIONS / sizeof SECTIONS[0] };

/* The kernel-state section exists only with kernels in flight, the image sections only with
 * images or samplers: a snapshot without either is the minor-0 file it always was, readable by
 * every 1.x reader; each is written in the oldest minor that has its sections. */
static bool has_images(const hg_snapshot *s) { return s->num_images || s->num_samplers; }
static bool section_present(const hg_snapshot *s, uint32_t tag) {
  if (tag == HG_SNAP_SEC_KERNEL_STATE)
    return s->num_running;
  if (tag == HG_SNAP_SEC_IMAGES || tag == HG_SNAP_SEC_IMAGE_DATA)
    return has_images(s);
  return true;
}
static uint16_t minor_of(const hg_snapshot *s) {
  return has_images(s) ? HG_SNAP_MINOR_IMAGES : s->num_running ? HG_SNAP_MINOR_KERNEL_STATE : 0;
}

static void emit_section_header(sink *k, uint32_t tag, uint64_t len) {
  put_u32(k, tag);
  put_u32(k, 0); /* flags: every section of this version is required */
  put_u64(k, len);
}

int hg_snap_write_fd(const hg_snapshot *s, int fd, char *err, size_t err_size) {
  uint64_t *data_off = calloc((size_t)s->num_buffers + s->num_images + 1, sizeof *data_off);
  sink *k = malloc(sizeof *k);
  if (!data_off || !k) {
    free(data_off);
    free(k);
    return hg_snap_errf(err, err_size, "out of memory"), -1;
  }
  /* layout: every payload's length, and where the buffer contents go */
  int nsec = 0, present[ALL_SECTIONS];
  for (int i = 0; i < ALL_SECTIONS; i++)
    if (section_present(s, SECTIONS[i].tag))
      present[nsec++] = i;
  uint64_t len[ALL_SECTIONS], pos = HG_SNAP_HEADER_SIZE;
  for (int j = 0; j < nsec; j++) {
    sink count = {.fd = -1, .pos = pos + HG_SNAP_SECTION_HEADER};
    SECTIONS[present[j]].emit(&count, s, data_off);
    len[j] = count.pos - (pos + HG_SNAP_SECTION_HEADER);
    pos = hg_snap_align(count.pos, HG_SNAP_SECTION_ALIGN);
  }
  uint64_t file_size = pos;

  *k = (sink){.fd = fd, .err = err, .err_size = err_size};
  uint8_t h[HG_SNAP_HEADER_SIZE] = {0};
  memcpy(h, HG_SNAP_MAGIC, sizeof HG_SNAP_MAGIC);
  h[HG_SNAP_OFF_MAJOR] = HG_SNAP_VERSION;
  h[HG_SNAP_OFF_MINOR] = (uint8_t)minor_of(s);
  h[HG_SNAP_OFF_HSIZE] = HG_SNAP_HEADER_SIZE;
  for (int b = 0; b < 8; b++)
    h[HG_SNAP_OFF_FSIZE + b] = (uint8_t)(file_size >> (8 * b));
  h[HG_SNAP_OFF_NSECTIONS] = (uint8_t)nsec;
  put(k, h, HG_SNAP_OFF_CRC);
  put_raw(k, h + HG_SNAP_OFF_CRC, 4, false);
  put(k, h + HG_SNAP_OFF_CRC + 4, sizeof h - (HG_SNAP_OFF_CRC + 4));
  for (int j = 0; j < nsec; j++) {
    emit_section_header(k, SECTIONS[present[j]].tag, len[j]);
    SECTIONS[present[j]].emit(k, s, data_off);
    pad_to(k, HG_SNAP_SECTION_ALIGN);
  }
  flush(k);
  int rc = -1;
  if (!k->failed && k->pos != file_size)
    hg_snap_errf(err, err_size, "internal error: wrote %llu bytes of a %llu-byte layout",
                 (unsigned long long)k->pos, (unsigned long long)file_size);
  else if (!k->failed) {
    uint8_t c[4] = {(uint8_t)k->crc, (uint8_t)(k->crc >> 8), (uint8_t)(k->crc >> 16), (uint8_t)(k->crc >> 24)};
    if (pwrite(fd, c, 4, HG_SNAP_OFF_CRC) != 4)
      hg_snap_errf(err, err_size, "writing the checksum failed: %s", strerror(errno));
    else
      rc = 0;
  }
  free(data_off);
  free(k);
  return rc;
}

/* ---- atomic replace ---------------------------------------------------------------------- */
/* fsync of the directory holding path, so that the rename itself survives a power loss */
static int sync_parent_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (!dir)
    return ENOMEM;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;
  free(dir);
  if (fd < 0)
    return errno;
  if (fsync(fd) != 0 && errno != EINVAL) /* EINVAL: a file system that cannot sync directories */
    rc = errno;
  close(fd);
  return rc;
}

int hg_snapshot_write(const hg_snapshot *s, const char *path, char *err, size_t err_size) {
  if (!s || !path || !path[0])
    return hg_snap_errf(err, err_size, "no snapshot or no path"), -1;
  char why[512];
  if (!hg_snap_validate(s, why, sizeof why))
    return hg_snap_errf(err, err_size, "snapshot not written to %s: %s", path, why), -1;
  size_t n = strlen(path);
  char *tmp = malloc(n + sizeof ".tmp-XXXXXX");
  if (!tmp)
    return hg_snap_errf(err, err_size, "out of memory"), -1;
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    hg_snap_errf(err, err_size, "cannot create a temporary file next to %s: %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  /* each step runs only when the one before succeeded; any failure removes the temporary */
  bool ok = hg_snap_write_fd(s, fd, why, sizeof why) == 0;
  if (!ok)
    hg_snap_errf(err, err_size, "writing %s: %s", tmp, why);
  if (ok && !(ok = fsync(fd) == 0))
    hg_snap_errf(err, err_size, "fsync of %s: %s", tmp, strerror(errno));
  int closed = close(fd);
  if (ok && !(ok = closed == 0))
    hg_snap_errf(err, err_size, "close of %s: %s", tmp, strerror(errno));
  if (ok && !(ok = rename(tmp, path) == 0))
    hg_snap_errf(err, err_size, "renaming %s to %s: %s", tmp, path, strerror(errno));
  if (!ok) {
    unlink(tmp);
    free(tmp);
    return -1;
  }
  free(tmp);
  int e = sync_parent_dir(path);
  if (e)
    return hg_snap_errf(err, err_size, "%s replaced, but syncing its directory failed: %s", path, strerror(e)), -1;
  return 0;
}
