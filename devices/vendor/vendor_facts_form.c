/* The vendors' facts as bytes (the cache entry's value, vendor_facts.c): fixed-width fields,
 * strings with their length. Decoding checks every field's form and range, so that any bytes
 * give well-formed facts or a refusal (fuzzed: tools/fuzz/fuzz_vendor_facts.c). */
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_facts.h"

#define FACTS_MAGIC 0x46564748u /* "HGVF" */
#define FACTS_VERSION 1u

typedef struct {
  uint8_t *bytes;
  size_t size, cap;
  bool failed;
} writer;

static void put(writer *w, const void *p, size_t n) {
  if (w->failed)
    return;
  if (w->size + n > w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 1024;
    while (cap < w->size + n)
      cap *= 2;
    uint8_t *grown = realloc(w->bytes, cap);
    if (!grown) {
      w->failed = true;
      return;
    }
    w->bytes = grown;
    w->cap = cap;
  }
  memcpy(w->bytes + w->size, p, n);
  w->size += n;
}

static void put_u64(writer *w, uint64_t v) { put(w, &v, sizeof v); }

static void put_str(writer *w, const char *s) {
  uint64_t n = strlen(s);
  put_u64(w, n);
  put(w, s, n);
}

typedef struct {
  const uint8_t *p;
  size_t left;
  bool bad;
} reader;

static void get(reader *r, void *out, size_t n) {
  if (r->bad || n > r->left) {
    r->bad = true;
    memset(out, 0, n);
    return;
  }
  memcpy(out, r->p, n);
  r->p += n;
  r->left -= n;
}

static uint64_t get_u64(reader *r) {
  uint64_t v;
  get(r, &v, sizeof v);
  return v;
}

/* A string of at most size - 1 bytes without NUL in it. */
static void get_str(reader *r, char *out, size_t size) {
  uint64_t n = get_u64(r);
  if (r->bad || n >= size || n > r->left) {
    r->bad = true;
    out[0] = '\0';
    return;
  }
  get(r, out, (size_t)n);
  out[n] = '\0';
  if (strlen(out) != n)
    r->bad = true;
}

static uint64_t get_bounded(reader *r, uint64_t max) {
  uint64_t v = get_u64(r);
  if (v > max)
    r->bad = true;
  return v;
}

static void put_identity(writer *w, const hg_vendor_file_identity *id) {
  put_u64(w, id->size);
  put_u64(w, id->mtime_sec);
  put_u64(w, id->mtime_nsec);
  put_u64(w, id->inode);
}

static void get_identity(reader *r, hg_vendor_file_identity *id) {
  id->size = get_u64(r);
  id->mtime_sec = get_u64(r);
  id->mtime_nsec = get_u64(r);
  id->inode = get_u64(r);
}

static void put_limits(writer *w, const hg_backend_limits *l) {
  uint64_t v[] = {l->global_mem_size,          l->max_mem_alloc_size,       l->local_mem_size,
                  l->max_work_group_size,      l->max_work_item_sizes[0],   l->max_work_item_sizes[1],
                  l->max_work_item_sizes[2],   l->mem_base_addr_align_bits, l->max_parameter_size,
                  l->max_constant_buffer_size, l->max_constant_args,        l->fp64,
                  l->images};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    put_u64(w, v[i]);
}

static void get_limits(reader *r, hg_backend_limits *l) {
  memset(l, 0, sizeof *l);
  l->global_mem_size = get_u64(r);
  l->max_mem_alloc_size = get_u64(r);
  l->local_mem_size = get_u64(r);
  l->max_work_group_size = get_bounded(r, SIZE_MAX);
  for (int i = 0; i < 3; i++)
    l->max_work_item_sizes[i] = get_bounded(r, SIZE_MAX);
  l->mem_base_addr_align_bits = (cl_uint)get_bounded(r, UINT32_MAX);
  l->max_parameter_size = get_bounded(r, SIZE_MAX);
  l->max_constant_buffer_size = get_u64(r);
  l->max_constant_args = (cl_uint)get_bounded(r, UINT32_MAX);
  l->fp64 = get_bounded(r, 1) != 0;
  l->images = get_bounded(r, 1) != 0;
}

static const cl_device_type known_types =
    CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;

bool hg_vendor_facts_encode(const hg_vendor_facts *f, uint8_t **bytes, size_t *size) {
  writer w = {0};
  put_u64(&w, FACTS_MAGIC);
  put_u64(&w, FACTS_VERSION);
  put_identity(&w, &f->ld_cache);
  put_u64(&w, f->num_libs);
  for (unsigned i = 0; i < f->num_libs; i++) {
    put_str(&w, f->libs[i].file);
    put_identity(&w, &f->libs[i].identity);
  }
  put_u64(&w, f->num_devices);
  for (unsigned i = 0; i < f->num_devices; i++) {
    const hg_vendor_device_facts *d = &f->devices[i];
    put_u64(&w, d->library);
    put_u64(&w, d->platform_index);
    put_u64(&w, d->device_index);
    put_str(&w, d->platform_name);
    put_str(&w, d->device_name);
    put_str(&w, d->driver_version);
    put_u64(&w, d->type);
    put_limits(&w, &d->limits);
  }
  if (w.failed) {
    free(w.bytes);
    return false;
  }
  *bytes = w.bytes;
  *size = w.size;
  return true;
}

bool hg_vendor_facts_decode(const uint8_t *bytes, size_t size, hg_vendor_facts *f) {
  memset(f, 0, sizeof *f);
  reader r = {bytes, size, false};
  if (get_u64(&r) != FACTS_MAGIC || get_u64(&r) != FACTS_VERSION)
    return false;
  get_identity(&r, &f->ld_cache);
  f->num_libs = (unsigned)get_bounded(&r, HG_VENDOR_MAX_LIBS);
  for (unsigned i = 0; i < f->num_libs && !r.bad; i++) {
    get_str(&r, f->libs[i].file, sizeof f->libs[i].file);
    get_identity(&r, &f->libs[i].identity);
    if (f->libs[i].file[0] != '/') /* a file the linker loaded, so a path */
      r.bad = true;
  }
  f->num_devices = (unsigned)get_bounded(&r, HG_VENDOR_MAX_DEVICE_FACTS);
  for (unsigned i = 0; i < f->num_devices && !r.bad; i++) {
    hg_vendor_device_facts *d = &f->devices[i];
    d->library = (unsigned)get_bounded(&r, f->num_libs ? f->num_libs - 1 : 0);
    d->platform_index = (unsigned)get_bounded(&r, 1023);
    d->device_index = (unsigned)get_bounded(&r, 1023);
    get_str(&r, d->platform_name, sizeof d->platform_name);
    get_str(&r, d->device_name, sizeof d->device_name);
    get_str(&r, d->driver_version, sizeof d->driver_version);
    d->type = get_u64(&r);
    if (!d->type || (d->type & ~known_types))
      r.bad = true;
    get_limits(&r, &d->limits);
  }
  return !r.bad && r.left == 0 && f->num_libs > 0;
}
