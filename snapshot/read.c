/* Reading a snapshot file (docs/snapshot-format.md): the header and checksum, the section walk,
 * then each section's records into an hg_snapshot whose byte pointers point into the file's
 * image, then the meaning-level rules (hg_snap_validate). Nothing read is trusted: every read is
 * bounds-checked against the end of its section, every count is checked against the bytes left
 * before anything is allocated for it, and every string ends in a NUL inside the file. */
#include "snapshot/format.h"

#include "ir/ndrange_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct hg_snapshot_file {
  hg_snapshot snap;
  hg_snap_buffer *buffers;
  hg_snap_program *programs;
  hg_snap_kernel *kernels; /* each kernel's args array is its own allocation */
  hg_snap_queue *queues;
  hg_snap_running *running; /* each one's args and state are its own allocations */
  hg_snap_image *images;
  hg_snap_sampler *samplers;
  void *map; /* the file's mapping (NULL when opened from memory) */
  size_t map_size;
};

/* ---- bounds-checked reads ------------------------------------------------------------------ */
typedef struct cursor {
  const uint8_t *base; /* the file's first byte: offsets below are absolute, as in messages */
  uint64_t at, end;
  uint16_t minor;
  bool bad;
  char *err;
  size_t err_size;
  const char *what; /* section being read */
} cursor;

static bool fail(cursor *c, const char *msg) {
  if (!c->bad)
    hg_snap_errf(c->err, c->err_size, "invalid snapshot (%s, byte %llu): %s", c->what, (unsigned long long)c->at,
                 msg);
  c->bad = true;
  return false;
}
static bool need(cursor *c, uint64_t n) { return !c->bad && c->end - c->at >= n ? true : fail(c, "truncated"); }
static uint32_t get_le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get_le64(const uint8_t *p) { return get_le32(p) | (uint64_t)get_le32(p + 4) << 32; }
static uint32_t r_u32(cursor *c) {
  if (!need(c, 4))
    return 0;
  c->at += 4;
  return get_le32(c->base + c->at - 4);
}
static uint64_t r_u64(cursor *c) {
  if (!need(c, 8))
    return 0;
  c->at += 8;
  return get_le64(c->base + c->at - 8);
}
static const uint8_t *r_bytes(cursor *c, uint64_t n) {
  if (!need(c, n))
    return NULL;
  c->at += n;
  return c->base + c->at - n;
}
/* A u32 count of records of at least `min_record` bytes each, checked against the bytes left
 * before the zeroed array of `elem`-byte entries is allocated. NULL after a failure. */
static void *r_records(cursor *c, uint32_t *count, uint64_t min_record, size_t elem) {
  uint32_t n = r_u32(c);
  *count = 0;
  if (!c->bad && n > (c->end - c->at) / min_record)
    fail(c, "count larger than the section can hold");
  if (c->bad)
    return NULL;
  void *p = calloc(n ? n : 1, elem);
  if (!p)
    return fail(c, "out of memory"), NULL;
  *count = n;
  return p;
}
static const char *r_string(cursor *c) {
  uint32_t n = r_u32(c);
  if (c->bad || n == HG_SNAP_STRING_NULL)
    return NULL;
  if (n >= HG_SNAP_MAX_STRING)
    return fail(c, "string too long"), NULL;
  const uint8_t *p = r_bytes(c, (uint64_t)n + 1);
  if (!p)
    return NULL;
  if (p[n] != 0 || memchr(p, 0, n))
    return fail(c, "string not NUL-terminated at its length"), NULL;
  return (const char *)p;
}
/* A version's own sections end exactly where their fields do; a newer minor may append fields. */
static bool section_end(cursor *c) {
  if (!c->bad && c->at != c->end && c->minor <= HG_SNAP_VERSION_MINOR)
    fail(c, "trailing bytes in the section");
  return !c->bad;
}
static bool zeros(const uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (p[i])
      return false;
  return true;
}

/* ---- sections ------------------------------------------------------------------------------ */
static bool read_meta(cursor *c, hg_snapshot_file *f) {
  f->snap.created_ns = r_u64(c);
  const char *name = r_string(c);
  if (!c->bad && (!name || strlen(name) >= sizeof f->snap.source_backend))
    return fail(c, "source backend name missing or longer than 255 bytes");
  if (name)
    memcpy(f->snap.source_backend, name, strlen(name) + 1);
  return section_end(c);
}

/* data: the BUFFER_DATA payload; root contents must lie in it back to back, each at the next
 * 64-byte aligned offset, zero padding between, nothing after the last. */
static bool read_buffers(cursor *c, hg_snapshot_file *f, uint64_t data_start, uint64_t data_end) {
  uint32_t n;
  if (!(f->buffers = r_records(c, &n, HG_SNAP_MIN_BUFFER, sizeof *f->buffers)))
    return false;
  uint64_t next = data_start;
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    hg_snap_buffer *b = &f->buffers[i];
    b->id = r_u32(c);
    b->parent = r_u32(c);
    b->flags = r_u64(c);
    b->origin = r_u64(c);
    b->size = r_u64(c);
    uint64_t off = r_u64(c);
    b->label = r_string(c);
    if (c->bad)
      break;
    if (b->parent != HG_SNAP_NONE) {
      if (off != 0)
        fail(c, "a sub-buffer with a contents offset");
      continue;
    }
    uint64_t want = hg_snap_align(next, HG_SNAP_DATA_ALIGN);
    if (want > data_end || off != want || b->size > data_end - off)
      fail(c, "root buffer contents not where the layout puts them in the buffer data section");
    else if (!zeros(c->base + next, off - next))
      fail(c, "non-zero padding in the buffer data section");
    else {
      b->data = c->base + off;
      next = off + b->size;
    }
  }
  if (!c->bad && next != data_end)
    fail(c, "buffer data section holds bytes no buffer owns");
  f->snap.num_buffers = n;
  f->snap.buffers = f->buffers;
  return section_end(c);
}

static bool read_programs(cursor *c, hg_snapshot_file *f) {
  uint32_t n;
  if (!(f->programs = r_records(c, &n, HG_SNAP_MIN_PROGRAM, sizeof *f->programs)))
    return false;
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    hg_snap_program *p = &f->programs[i];
    p->id = r_u32(c);
    p->label = r_string(c);
    p->build_options = r_string(c);
    uint64_t size = r_u64(c);
    p->ir = r_bytes(c, size);
    p->ir_size = (size_t)size;
  }
  f->snap.num_programs = n;
  f->snap.programs = f->programs;
  return section_end(c);
}

/* The argument list of a kernel or of a stopped launch; *out is set before the records are
 * read, so that close() frees it whatever happens next. */
static bool read_args(cursor *c, const hg_snap_kernel_arg **out, uint32_t *count) {
  uint32_t n;
  hg_snap_kernel_arg *args = r_records(c, &n, HG_SNAP_MIN_ARG, sizeof *args);
  if (!args)
    return false;
  *out = args;
  *count = n;
  for (uint32_t a = 0; a < n && !c->bad; a++) {
    args[a].kind = r_u32(c);
    args[a].buffer = r_u32(c);
    args[a].size = r_u64(c);
    if (args[a].kind == HG_SNAP_ARG_VALUE)
      args[a].value = r_bytes(c, args[a].size);
  }
  return !c->bad;
}

static bool read_kernels(cursor *c, hg_snapshot_file *f) {
  uint32_t n;
  if (!(f->kernels = r_records(c, &n, HG_SNAP_MIN_KERNEL, sizeof *f->kernels)))
    return false;
  f->snap.num_kernels = n; /* before the records: close() frees the args read so far */
  f->snap.kernels = f->kernels;
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    hg_snap_kernel *k = &f->kernels[i];
    k->id = r_u32(c);
    k->program = r_u32(c);
    k->name = r_string(c);
    k->label = r_string(c);
    read_args(c, &k->args, &k->num_args);
  }
  return section_end(c);
}

static bool read_queues(cursor *c, hg_snapshot_file *f) {
  uint32_t n;
  if (!(f->queues = r_records(c, &n, HG_SNAP_MIN_QUEUE, sizeof *f->queues)))
    return false;
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    f->queues[i].id = r_u32(c);
    f->queues[i].properties = r_u64(c);
    f->queues[i].label = r_string(c);
  }
  f->snap.num_queues = n;
  f->snap.queues = f->queues;
  return section_end(c);
}

/* ---- kernels in flight (section KERNEL_STATE) ------------------------------------------------ */
/* a * b, or UINT64_MAX when it does not fit (more than any file holds) */
static uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
static uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The range as hg_ir_ndrange_state_new takes it, refused unless canonical (unused dimensions
 * 0, 1, 1; no zero size) and unless num_groups is its group count: new() would otherwise
 * normalise what the file says, or divide by zero. */
static bool range_ok(cursor *c, uint32_t dim, const uint64_t *off, const uint64_t *gl, const uint64_t *lo,
                     uint64_t num_groups) {
  if (dim < 1 || dim > 3)
    return fail(c, "work_dim not 1, 2 or 3");
  uint64_t groups = 1, items = 1;
  for (uint32_t d = 0; d < 3; d++) {
    bool used = d < dim;
    if (!gl[d] || !lo[d] || (!used && (off[d] || gl[d] != 1 || lo[d] != 1)))
      return fail(c, "a global or local size of 0, or an unused dimension not 0, 1, 1");
    groups = mul_sat(groups, gl[d] / lo[d] + (gl[d] % lo[d] != 0));
    items = mul_sat(items, lo[d]);
  }
  if (items > UINT32_MAX)
    return fail(c, "more than 2^32 work-items in a work-group");
  if (groups != num_groups)
    return fail(c, "group count is not the range's");
  return true;
}

/* One running group into st (sorted, listed RUNNING, its item count the range's), its bytes
 * checked to be in the section before hg_ir_ndrange_state_add_group allocates for them. */
static bool read_group(cursor *c, hg_ir_ndrange_state *st, const uint8_t *status, bool first, uint64_t prev) {
  uint64_t group = r_u64(c);
  uint32_t items = r_u32(c);
  if (c->bad)
    return false;
  if (group >= st->num_groups || (!first && group <= prev) || status[group] != HG_GROUP_RUNNING)
    return fail(c, "running group out of range, out of order, or not marked running");
  if (items != hg_ir_ndrange_group_items(st, group))
    return fail(c, "running group's item count is not the range's");
  uint64_t per_item = 4 + (uint64_t)st->value_stride + st->private_size;
  if (!need(c, add_sat(mul_sat(items, per_item), st->local_bytes)))
    return false;
  hg_ir_group_state *g = hg_ir_ndrange_state_add_group(st, group);
  if (!g)
    return fail(c, "out of memory");
  for (uint32_t i = 0; i < items; i++)
    g->safepoint[i] = r_u32(c);
  memcpy(g->values, r_bytes(c, (uint64_t)items * st->value_stride), (size_t)items * st->value_stride);
  memcpy(g->frames, r_bytes(c, (uint64_t)items * st->private_size), (size_t)items * st->private_size);
  memcpy(g->local, r_bytes(c, st->local_bytes), st->local_bytes);
  return !c->bad;
}

/* A stopped NDRange, decoded into an hg_ir_ndrange_state of ir/ndrange_state.c; NULL after a
 * failure. Its meaning (safe points, record sizes against the kernel) is hg_snap_validate's. */
static hg_ir_ndrange_state *read_state(cursor *c) {
  const char *name = r_string(c);
  uint32_t dim = r_u32(c);
  uint64_t off[3], gl[3], lo[3];
  for (int d = 0; d < 3; d++)
    off[d] = r_u64(c);
  for (int d = 0; d < 3; d++)
    gl[d] = r_u64(c);
  for (int d = 0; d < 3; d++)
    lo[d] = r_u64(c);
  uint64_t num_groups = r_u64(c);
  if (!c->bad && !name)
    fail(c, "a NULL kernel name");
  if (c->bad || !range_ok(c, dim, off, gl, lo, num_groups))
    return NULL;
  const uint8_t *status = r_bytes(c, num_groups); /* checked before new() allocates as much */
  uint32_t stride = r_u32(c), priv = r_u32(c), local = r_u32(c), nrun = r_u32(c);
  if (!c->bad && nrun > (c->end - c->at) / add_sat(HG_SNAP_MIN_GROUP, local))
    fail(c, "running group count larger than the section can hold");
  if (c->bad)
    return NULL;
  hg_ir_state_layout sizes = {.value_stride = stride, .private_size = priv};
  hg_ir_ndrange_state *st = hg_ir_ndrange_state_new(name, dim, off, gl, lo, &sizes, local);
  if (!st)
    return fail(c, "out of memory"), NULL;
  memcpy(st->group_status, status, num_groups);
  uint64_t prev = 0;
  for (uint32_t r = 0; r < nrun && read_group(c, st, status, r == 0, prev); r++)
    prev = st->running[r].group;
  if (c->bad) {
    hg_ir_ndrange_state_free(st);
    return NULL;
  }
  return st;
}

static bool read_kernel_state(cursor *c, hg_snapshot_file *f) {
  uint32_t n;
  if (!(f->running = r_records(c, &n, HG_SNAP_MIN_RUNNING, sizeof *f->running)))
    return false;
  f->snap.num_running = n; /* before the records: close() frees what was read so far */
  f->snap.running = f->running;
  if (n == 0)
    return fail(c, "a kernel state section without kernels (such a file is minor 0, without the section)");
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    hg_snap_running *r = &f->running[i];
    r->queue = r_u32(c);
    r->kernel = r_u32(c);
    if (read_args(c, &r->args, &r->num_args))
      r->state = read_state(c);
  }
  return section_end(c);
}

/* ---- images and samplers (sections IMAGES and IMAGE_DATA, minor 2) ------------------------------ */
/* data: the IMAGE_DATA payload, laid out as BUFFER_DATA is for root buffers: the contents of
 * every image with storage of its own, in id order, each at the next 64-byte aligned offset. */
static bool read_image_records(cursor *c, hg_snapshot_file *f, uint64_t data_start, uint64_t data_end) {
  uint32_t n;
  if (!(f->images = r_records(c, &n, HG_SNAP_MIN_IMAGE, sizeof *f->images)))
    return false;
  f->snap.num_images = n;
  f->snap.images = f->images;
  uint64_t next = data_start;
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    hg_snap_image *im = &f->images[i];
    im->id = r_u32(c);
    im->type = r_u32(c);
    im->channel_order = r_u32(c);
    im->channel_type = r_u32(c);
    im->flags = r_u64(c);
    im->width = r_u64(c);
    im->height = r_u64(c);
    im->depth = r_u64(c);
    im->array_size = r_u64(c);
    im->row_pitch = r_u64(c);
    im->slice_pitch = r_u64(c);
    im->buffer = r_u32(c);
    im->size = r_u64(c);
    uint64_t off = r_u64(c);
    im->label = r_string(c);
    if (c->bad)
      break;
    if (im->buffer != HG_SNAP_NONE) { /* a 1D buffer image: its buffer's bytes (validation checks the rest) */
      if (off != 0)
        fail(c, "a 1D buffer image with a contents offset");
      continue;
    }
    uint64_t want = hg_snap_align(next, HG_SNAP_DATA_ALIGN);
    if (want > data_end || off != want || im->size > data_end - off)
      fail(c, "image contents not where the layout puts them in the image data section");
    else if (!zeros(c->base + next, off - next))
      fail(c, "non-zero padding in the image data section");
    else {
      im->data = c->base + off;
      next = off + im->size;
    }
  }
  if (!c->bad && next != data_end)
    fail(c, "image data section holds bytes no image owns");
  return !c->bad;
}

static bool read_images(cursor *c, hg_snapshot_file *f, uint64_t data_start, uint64_t data_end) {
  if (!read_image_records(c, f, data_start, data_end))
    return false;
  uint32_t n;
  if (!(f->samplers = r_records(c, &n, HG_SNAP_MIN_SAMPLER, sizeof *f->samplers)))
    return false;
  f->snap.num_samplers = n;
  f->snap.samplers = f->samplers;
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    hg_snap_sampler *sm = &f->samplers[i];
    sm->id = r_u32(c);
    sm->bits = r_u32(c);
    sm->num_properties = r_u32(c);
    if (!c->bad && sm->num_properties > (c->end - c->at) / 8)
      return fail(c, "sampler property count larger than the section can hold");
    sm->properties = sm->num_properties ? r_bytes(c, 8ull * sm->num_properties) : NULL;
    sm->label = r_string(c);
  }
  if (!c->bad && f->snap.num_images == 0 && n == 0)
    return fail(c, "an images section without images or samplers (such a file has no section)");
  return section_end(c);
}

/* ---- header and section walk --------------------------------------------------------------- */
static const char *const SECTION_NAMES[HG_SNAP_SEC_LAST_ + 1] = {
    "", "meta section", "buffers section", "programs section", "kernels section", "queues section",
    "buffer data section", "kernel state section", "images section", "image data section"};

typedef struct section_span {
  uint64_t start, end; /* payload, absolute */
} section_span;

/* Checks the header and the checksum, walks the sections and finds the known ones. */
static bool read_layout(cursor *h, uint64_t size, section_span *known /* [HG_SNAP_SEC_LAST_ + 1] */) {
  const uint8_t *d = h->base;
  if (size < HG_SNAP_HEADER_SIZE)
    return fail(h, "shorter than the 64-byte header");
  if (memcmp(d, HG_SNAP_MAGIC, sizeof HG_SNAP_MAGIC) != 0)
    return fail(h, "bad magic: not a hetGPU snapshot");
  unsigned major = d[HG_SNAP_OFF_MAJOR] | d[HG_SNAP_OFF_MAJOR + 1] << 8;
  h->minor = (uint16_t)(d[HG_SNAP_OFF_MINOR] | d[HG_SNAP_OFF_MINOR + 1] << 8);
  if (major != HG_SNAP_VERSION) {
    hg_snap_errf(h->err, h->err_size, "snapshot format %u.%u: this reader reads major version %u only", major,
                 h->minor, HG_SNAP_VERSION);
    return h->bad = true, false;
  }
  uint32_t hsize = get_le32(d + HG_SNAP_OFF_HSIZE);
  bool own = h->minor <= HG_SNAP_VERSION_MINOR;
  if (get_le64(d + HG_SNAP_OFF_FSIZE) != size)
    return fail(h, "file size in the header differs from the file's size");
  if (hsize < HG_SNAP_HEADER_SIZE || hsize > size || hsize % HG_SNAP_SECTION_ALIGN ||
      (own && hsize != HG_SNAP_HEADER_SIZE))
    return fail(h, "bad header size");
  uint32_t stored = get_le32(d + HG_SNAP_OFF_CRC), computed = hg_snap_file_crc(d, size);
  if (stored != computed) {
    hg_snap_errf(h->err, h->err_size, "invalid snapshot: checksum mismatch (stored %08x, computed %08x)", stored,
                 computed);
    return h->bad = true, false;
  }
  if (own && !zeros(d + HG_SNAP_OFF_FLAGS, HG_SNAP_HEADER_SIZE - HG_SNAP_OFF_FLAGS))
    return fail(h, "unknown header flags or non-zero reserved bytes");
  uint32_t nsec = get_le32(d + HG_SNAP_OFF_NSECTIONS), last_tag = 0;
  h->at = hsize;
  h->end = size;
  for (uint32_t i = 0; i < nsec && !h->bad; i++) {
    uint32_t tag = r_u32(h), flags = r_u32(h);
    uint64_t len = r_u64(h), start = h->at;
    if (h->bad || !r_bytes(h, len))
      return fail(h, "section beyond the end of the file");
    uint64_t padded = hg_snap_align(h->at, HG_SNAP_SECTION_ALIGN);
    if (padded > size || !zeros(d + h->at, padded - h->at))
      return fail(h, "section padding missing or not zero");
    h->at = padded;
    if (tag <= last_tag)
      return fail(h, "section tags not in increasing order");
    last_tag = tag;
    if (own && (flags & ~HG_SNAP_SECTION_OPTIONAL))
      return fail(h, "unknown section flags");
    if (tag >= 1 && tag <= HG_SNAP_SEC_KNOWN_)
      known[tag] = (section_span){start, start + len};
    else if (tag == HG_SNAP_SEC_KERNEL_STATE) {
      /* a minor-0 file promises every 1.0 reader can restore it, which kernels in flight
       * break; and a reader that skipped them would restore a context short of its work */
      if (h->minor < HG_SNAP_MINOR_KERNEL_STATE)
        return fail(h, "kernels in flight in a file of minor version 0");
      if (flags & HG_SNAP_SECTION_OPTIONAL)
        return fail(h, "the kernel state section marked optional");
      known[tag] = (section_span){start, start + len};
    } else if (tag == HG_SNAP_SEC_IMAGES || tag == HG_SNAP_SEC_IMAGE_DATA) {
      /* as kernel state: a reader that skipped them would restore a context short of objects */
      if (h->minor < HG_SNAP_MINOR_IMAGES)
        return fail(h, "images in a file of minor version 0 or 1");
      if (flags & HG_SNAP_SECTION_OPTIONAL)
        return fail(h, "an image section marked optional");
      known[tag] = (section_span){start, start + len};
    } else if (own || !(flags & HG_SNAP_SECTION_OPTIONAL))
      return fail(h, "unknown section that is not optional");
  }
  if (!h->bad && h->at != size)
    return fail(h, "bytes after the last section");
  for (int t = 1; t <= HG_SNAP_SEC_KNOWN_ && !h->bad; t++)
    if (!known[t].end)
      return fail(h, "a required section is missing");
  if (!h->bad && !known[HG_SNAP_SEC_IMAGES].end != !known[HG_SNAP_SEC_IMAGE_DATA].end)
    return fail(h, "an images section without its image data section, or the reverse");
  return !h->bad;
}

static hg_snapshot_file *parse(const uint8_t *data, size_t size, char *err, size_t err_size) {
  if (!data)
    return hg_snap_errf(err, err_size, "invalid snapshot: no data"), NULL;
  hg_snapshot_file *f = calloc(1, sizeof *f);
  if (!f)
    return hg_snap_errf(err, err_size, "out of memory"), NULL;
  cursor h = {.base = data, .end = size, .err = err, .err_size = err_size, .what = "header"};
  section_span sec[HG_SNAP_SEC_LAST_ + 1] = {{0, 0}};
  bool ok = read_layout(&h, size, sec);
  for (int t = 1; ok && t <= HG_SNAP_SEC_LAST_; t++) {
    if (!sec[t].end)
      continue; /* an optional section the file does not have (a present one ends past the header) */
    cursor c = {data, sec[t].start, sec[t].end, h.minor, false, err, err_size, SECTION_NAMES[t]};
    switch (t) {
    case HG_SNAP_SEC_META: ok = read_meta(&c, f); break;
    case HG_SNAP_SEC_BUFFERS:
      ok = read_buffers(&c, f, sec[HG_SNAP_SEC_BUFFER_DATA].start, sec[HG_SNAP_SEC_BUFFER_DATA].end);
      break;
    case HG_SNAP_SEC_PROGRAMS: ok = read_programs(&c, f); break;
    case HG_SNAP_SEC_KERNELS: ok = read_kernels(&c, f); break;
    case HG_SNAP_SEC_QUEUES: ok = read_queues(&c, f); break;
    case HG_SNAP_SEC_KERNEL_STATE: ok = read_kernel_state(&c, f); break;
    case HG_SNAP_SEC_IMAGES:
      ok = read_images(&c, f, sec[HG_SNAP_SEC_IMAGE_DATA].start, sec[HG_SNAP_SEC_IMAGE_DATA].end);
      break;
    default: break; /* buffer and image data: checked with their records */
    }
  }
  char why[512];
  if (ok && !(ok = hg_snap_validate(&f->snap, why, sizeof why)))
    hg_snap_errf(err, err_size, "invalid snapshot: %s", why);
  if (!ok) {
    hg_snapshot_close(f);
    return NULL;
  }
  return f;
}

/* ---- public ---------------------------------------------------------------------------------- */
hg_snapshot_file *hg_snapshot_open_memory(const uint8_t *data, size_t size, char *err, size_t err_size) {
  return parse(data, size, err, err_size);
}

hg_snapshot_file *hg_snapshot_open(const char *path, char *err, size_t err_size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return hg_snap_errf(err, err_size, "%s: %s", path, strerror(errno)), NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < HG_SNAP_HEADER_SIZE) {
    hg_snap_errf(err, err_size, "%s: not a regular file of at least %d bytes", path, HG_SNAP_HEADER_SIZE);
    close(fd);
    return NULL;
  }
  size_t size = (size_t)st.st_size;
  void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int map_errno = errno;
  close(fd); /* the mapping keeps the file */
  if (map == MAP_FAILED)
    return hg_snap_errf(err, err_size, "%s: mmap: %s", path, strerror(map_errno)), NULL;
  madvise(map, size, MADV_SEQUENTIAL); /* the checksum reads it front to back first */
  char why[512];
  hg_snapshot_file *f = parse(map, size, why, sizeof why);
  if (!f) {
    hg_snap_errf(err, err_size, "%s: %s", path, why);
    munmap(map, size);
    return NULL;
  }
  madvise(map, size, MADV_NORMAL);
  f->map = map;
  f->map_size = size;
  return f;
}

const hg_snapshot *hg_snapshot_get(const hg_snapshot_file *f) { return f ? &f->snap : NULL; }

void hg_snapshot_close(hg_snapshot_file *f) {
  if (!f)
    return;
  for (uint32_t i = 0; f->kernels && i < f->snap.num_kernels; i++)
    free((void *)f->kernels[i].args);
  for (uint32_t i = 0; f->running && i < f->snap.num_running; i++) {
    free((void *)f->running[i].args);
    hg_ir_ndrange_state_free((hg_ir_ndrange_state *)f->running[i].state);
  }
  free(f->running);
  free(f->images);
  free(f->samplers);
  free(f->buffers);
  free(f->programs);
  free(f->kernels);
  free(f->queues);
  if (f->map)
    munmap(f->map, f->map_size);
  free(f);
}
