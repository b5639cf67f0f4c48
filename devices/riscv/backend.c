/* The RISC-V backend: hetGPU kernels on our many-core simulator (devices/riscv/sim). One
 * backend, "riscv:hetGPU many-core (8x10 RV64IMAFD)". Buffers are DRAM ranges of the simulator
 * (hg_sim_dram_alloc), memory operations are host copies into its DRAM; programs are lowered
 * in backend_code.c and run in backend_launch.c. The simulator is created on first use, so a
 * process that never selects this backend pays only for the probe. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/backend_internal.h"
#include "common/log.h"
#include "common/profile_limits.h"

/* HETGPU_SIM_GUARD: simulated seconds (at the model's 1 GHz) one work-group may run before it
 * fails its launch as hung; fractions allowed, 0 turns the guard off. Default (unset or not such
 * a number): the simulator's, 10 s. */
static uint64_t guard_cycles(void) {
  const char *s = getenv("HETGPU_SIM_GUARD");
  char *end;
  double v = s && *s ? strtod(s, &end) : -1;
  if (!s || !*s || *end || v < 0 || v > 1e9) {
    if (s && *s)
      HG_LOG(HG_LOG_SIM, "riscv: HETGPU_SIM_GUARD=%s is not a number of seconds; the default guard", s);
    return HG_SIM_DEFAULT_GUARD_CYCLES;
  }
  return v == 0 ? UINT64_MAX : v * 1e9 < 1 ? 1 : (uint64_t)(v * 1e9);
}

/* HETGPU_RISCV_DRAM_SIZE: the simulated chip's DRAM in bytes (default HG_RV_DRAM_SIZE). */
static uint64_t dram_size(void) {
  const char *s = getenv("HETGPU_RISCV_DRAM_SIZE");
  char *end = NULL;
  unsigned long long v = s && *s ? strtoull(s, &end, 0) : 0;
  if (!s || !*s)
    return HG_RV_DRAM_SIZE;
  if (*end || v < HG_PROFILE_MIN_GLOBAL_MEM_SIZE || v > HG_SIM_DRAM_MAX) {
    HG_LOG(HG_LOG_BACKEND, "riscv: HETGPU_RISCV_DRAM_SIZE=%s is not a size from %llu to %llu bytes; %llu", s,
           (unsigned long long)HG_PROFILE_MIN_GLOBAL_MEM_SIZE, (unsigned long long)HG_SIM_DRAM_MAX,
           (unsigned long long)HG_RV_DRAM_SIZE);
    return HG_RV_DRAM_SIZE;
  }
  return v;
}

hg_sim_machine *hg_rv_machine(hg_rv_backend *rb) {
  pthread_mutex_lock(&rb->lock);
  if (!rb->sim) {
    hg_sim_config cfg;
    hg_sim_default_config(&cfg);
    cfg.dram_size = rb->dram_size;
    cfg.max_cycles_per_job = guard_cycles();
    int rc = hg_sim_create(&cfg, &rb->sim);
    if (rc)
      HG_LOG(HG_LOG_BACKEND, "riscv: creating the simulator failed (%d)", rc);
    else
      HG_LOG(HG_LOG_SIM, "riscv: simulator with %u cores, %u host threads", hg_sim_core_count(rb->sim),
             hg_sim_host_threads(rb->sim));
  }
  pthread_mutex_unlock(&rb->lock);
  return rb->sim;
}

static void *mem_at(hg_backend *be, hg_dev_mem *m, size_t offset, size_t size) {
  hg_rv_backend *rb = hg_rv_of(be);
  if (offset > m->size || size > m->size - offset)
    return NULL;
  return hg_sim_dram_ptr(rb->sim, m->addr + offset, size ? size : 1);
}

cl_int hg_rv_mem_alloc(hg_backend *be, size_t size, hg_dev_mem **out) {
  hg_rv_backend *rb = hg_rv_of(be);
  *out = NULL;
  hg_sim_machine *sim = hg_rv_machine(rb);
  if (!sim)
    return CL_OUT_OF_RESOURCES;
  hg_dev_mem *m = calloc(1, sizeof *m);
  if (!m)
    return CL_OUT_OF_HOST_MEMORY;
  size_t padded = (size + HG_RV_BUFFER_GRANULE - 1) & ~(size_t)(HG_RV_BUFFER_GRANULE - 1);
  if (padded < size || hg_sim_dram_alloc(sim, padded ? padded : 1, &m->addr) != HG_SIM_OK) {
    free(m);
    HG_LOG(HG_LOG_MEM, "riscv: no DRAM for %zu bytes", size);
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  }
  m->size = size; /* zeros: hg_sim_dram_free gives freed pages back */
  *out = m;
  return CL_SUCCESS;
}

static void rv_mem_free(hg_backend *be, hg_dev_mem *m) {
  if (!m)
    return;
  hg_sim_dram_free(hg_rv_of(be)->sim, m->addr);
  free(m);
}

static void *rv_mem_host_map(hg_backend *be, hg_dev_mem *mem, bool write) { return mem_at(be, mem, 0, mem->size); }
/* operations are synchronous: nothing to wait for around the application's access */
static void *rv_mem_host_address(hg_backend *be, hg_dev_mem *mem) { return mem_at(be, mem, 0, mem->size); }
static void rv_mem_host_unmap(hg_backend *be, hg_dev_mem *mem, void *ptr) {} /* DRAM is host memory */

static cl_int rv_mem_read(hg_backend *be, hg_dev_mem *src, size_t offset, size_t size, void *dst) {
  void *p = mem_at(be, src, offset, size);
  if (!p)
    return CL_INVALID_VALUE;
  memcpy(dst, p, size);
  return CL_SUCCESS;
}

static cl_int rv_mem_write(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *src) {
  void *p = mem_at(be, dst, offset, size);
  if (!p)
    return CL_INVALID_VALUE;
  memcpy(p, src, size);
  return CL_SUCCESS;
}

static cl_int rv_mem_copy(hg_backend *be, hg_dev_mem *src, size_t so, hg_dev_mem *dst, size_t doff, size_t size) {
  void *s = mem_at(be, src, so, size), *d = mem_at(be, dst, doff, size);
  if (!s || !d)
    return CL_INVALID_VALUE;
  memmove(d, s, size);
  return CL_SUCCESS;
}

static cl_int rv_mem_fill(hg_backend *be, hg_dev_mem *dst, size_t offset, size_t size, const void *pattern,
                          size_t pattern_size) {
  uint8_t *d = mem_at(be, dst, offset, size);
  if (!d || !pattern_size)
    return CL_INVALID_VALUE;
  for (size_t i = 0; i + pattern_size <= size; i += pattern_size)
    memcpy(d + i, pattern, pattern_size);
  return CL_SUCCESS;
}

/* Copies a rectangle between two byte spaces (bounds checked by the callers' sizes). */
static bool rect_bytes(const hg_rect *r, const size_t *origin, size_t row, size_t slice, size_t *first, size_t *end) {
  if (!r->region[0] || !r->region[1] || !r->region[2]) {
    *first = *end = 0;
    return true;
  }
  *first = origin[0] + origin[1] * row + origin[2] * slice;
  *end = *first + (r->region[2] - 1) * slice + (r->region[1] - 1) * row + r->region[0];
  return true;
}

static void rect_copy(uint8_t *dst, const size_t *dorg, size_t drow, size_t dslice, const uint8_t *src,
                      const size_t *sorg, size_t srow, size_t sslice, const size_t *region) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memmove(dst + dorg[0] + (dorg[1] + y) * drow + (dorg[2] + z) * dslice,
              src + sorg[0] + (sorg[1] + y) * srow + (sorg[2] + z) * sslice, region[0]);
}

static uint8_t *rect_buffer(hg_backend *be, hg_dev_mem *m, const hg_rect *r, const size_t *origin, size_t row,
                            size_t slice) {
  size_t first, end;
  rect_bytes(r, origin, row, slice, &first, &end);
  if (end > m->size)
    return NULL;
  return hg_sim_dram_ptr(hg_rv_of(be)->sim, m->addr, m->size ? m->size : 1);
}

/* An image side of a rect operation is addressed with its layout's pitches (the hg_rect's are
 * ignored there): x in bytes, y rows (a 1D array's layers), z slices (a 2D array's layers). */
static hg_rect image_pitches(const hg_rect *in, const hg_dev_mem *src, const hg_dev_mem *dst) {
  hg_rect r = *in;
  if (src && src->is_image)
    r.src_row_pitch = src->image.row_pitch, r.src_slice_pitch = src->image.slice_pitch;
  if (dst && dst->is_image)
    r.dst_row_pitch = dst->image.row_pitch, r.dst_slice_pitch = dst->image.slice_pitch;
  return r;
}

static cl_int rv_mem_read_rect(hg_backend *be, hg_dev_mem *src, const hg_rect *rin, void *dst) {
  hg_rect rr = image_pitches(rin, src, NULL), *r = &rr;
  uint8_t *s = rect_buffer(be, src, r, r->src_origin, r->src_row_pitch, r->src_slice_pitch);
  if (!s)
    return CL_INVALID_VALUE;
  rect_copy(dst, r->dst_origin, r->dst_row_pitch, r->dst_slice_pitch, s, r->src_origin, r->src_row_pitch,
            r->src_slice_pitch, r->region);
  return CL_SUCCESS;
}

static cl_int rv_mem_write_rect(hg_backend *be, hg_dev_mem *dst, const hg_rect *rin, const void *src) {
  hg_rect rr = image_pitches(rin, NULL, dst), *r = &rr;
  uint8_t *d = rect_buffer(be, dst, r, r->dst_origin, r->dst_row_pitch, r->dst_slice_pitch);
  if (!d)
    return CL_INVALID_VALUE;
  rect_copy(d, r->dst_origin, r->dst_row_pitch, r->dst_slice_pitch, src, r->src_origin, r->src_row_pitch,
            r->src_slice_pitch, r->region);
  return CL_SUCCESS;
}

static cl_int rv_mem_copy_rect(hg_backend *be, hg_dev_mem *src, hg_dev_mem *dst, const hg_rect *rin) {
  hg_rect rr = image_pitches(rin, src, dst), *r = &rr;
  uint8_t *s = rect_buffer(be, src, r, r->src_origin, r->src_row_pitch, r->src_slice_pitch);
  uint8_t *d = rect_buffer(be, dst, r, r->dst_origin, r->dst_row_pitch, r->dst_slice_pitch);
  if (!s || !d)
    return CL_INVALID_VALUE;
  rect_copy(d, r->dst_origin, r->dst_row_pitch, r->dst_slice_pitch, s, r->src_origin, r->src_row_pitch,
            r->src_slice_pitch, r->region);
  return CL_SUCCESS;
}

static void rv_destroy(hg_backend *be) {
  hg_rv_backend *rb = hg_rv_of(be);
  if (rb->sim)
    hg_sim_destroy(rb->sim);
  pthread_mutex_destroy(&rb->lock);
  free(rb);
}

static const hg_backend_ops riscv_ops = {
    .kind = "riscv",
    .destroy = rv_destroy,
    .mem_alloc = hg_rv_mem_alloc,
    .image_alloc = hg_rv_image_alloc,
    .mem_free = rv_mem_free,
    .mem_read = rv_mem_read,
    .mem_write = rv_mem_write,
    .mem_copy = rv_mem_copy,
    .mem_fill = rv_mem_fill,
    .mem_read_rect = rv_mem_read_rect,
    .mem_write_rect = rv_mem_write_rect,
    .mem_copy_rect = rv_mem_copy_rect,
    .mem_host_map = rv_mem_host_map,
    .mem_host_address = rv_mem_host_address,
    .mem_host_unmap = rv_mem_host_unmap,
    .program_build = hg_rv_program_build,
    .program_free = hg_rv_program_free,
    .kernel_create = hg_rv_kernel_create,
    .kernel_free = hg_rv_kernel_free,
    .kernel_work_group_size = hg_rv_kernel_work_group_size,
    .kernel_work_group_size_known = hg_rv_kernel_work_group_size_known,
    .kernel_launch = hg_rv_kernel_launch,
    .kernel_time_limit = true, /* the simulator ends its cores past hg_launch.time_limit_ns */
    .kernel_run = hg_rv_kernel_run,
    .kernel_stop = hg_rv_kernel_stop,
};

unsigned hg_riscv_probe(hg_backend **out, unsigned max) {
  if (!max)
    return 0;
  hg_rv_backend *rb = calloc(1, sizeof *rb);
  if (!rb)
    return 0;
  pthread_mutex_init(&rb->lock, NULL);
  hg_backend *be = &rb->base;
  hg_sim_config cfg;
  hg_sim_default_config(&cfg);
  be->ops = &riscv_ops;
  snprintf(be->platform_name, sizeof be->platform_name, "hetGPU RISC-V simulator");
  snprintf(be->device_name, sizeof be->device_name, "hetGPU many-core (%ux%u RV64IMAFD)", cfg.grid_w, cfg.grid_h);
  snprintf(be->name, sizeof be->name, "riscv:%.120s", be->device_name);
  /* keys the program cache: bump when the code generator changes what it emits */
  snprintf(be->driver_version, sizeof be->driver_version, "hetgpu-riscv 0.4 LLVM-15 %.80s", be->device_name);
  be->type = CL_DEVICE_TYPE_ACCELERATOR;
  rb->dram_size = dram_size();
  hg_backend_limits *l = &be->limits;
  l->global_mem_size = rb->dram_size;
  l->max_mem_alloc_size = rb->dram_size / 4;
  /* local memory lives in one tile's L1 beside the frames and the stack */
  l->local_mem_size = cfg.l1_size / 2;
  l->max_work_group_size = 1024;
  l->max_work_item_sizes[0] = l->max_work_item_sizes[1] = l->max_work_item_sizes[2] = 1024;
  l->mem_base_addr_align_bits = 8; /* a kernel argument may start at any byte of an allocation */
  l->max_parameter_size = 4096;
  l->max_constant_buffer_size = rb->dram_size / 4;
  l->max_constant_args = 64;
  l->fp64 = true;
  /* every format and image type of the profile: images are DRAM in the packed layout, the
   * runtime reads and writes them (backend_image.c, runtime/rt_image.rvc) */
  l->images = true;
  /* Each tile runs whole work-groups one work-item after another on a scalar core (no vector
   * unit) at the model's nominal 1 GHz; its L1 is a scratchpad, DRAM has no cache. */
  hg_backend_hints *h = &be->hints;
  h->compute_units = cfg.grid_w * cfg.grid_h;
  h->clock_mhz = 1000;
  h->work_group_size_multiple = 1;
  for (int t = 0; t < HG_VECTOR_TYPES; t++)
    h->preferred_vector_width[t] = h->native_vector_width[t] = 1;
  h->cache_type = CL_NONE;
  h->host_unified_memory = CL_FALSE; /* the chip's DRAM, not the host's */
  h->local_mem_type = CL_LOCAL;        /* each tile's L1 scratchpad */
  out[0] = be;
  HG_LOG(HG_LOG_BACKEND, "probed %s", be->name);
  return 1;
}
