/* Programs on the RISC-V backend: the IR module copied, every kernel made resumable and lowered
 * to an ELF object (codegen.c), linked with the device runtime's object when the library embeds
 * one (link.c): code and read-only data for the code window, writable data in DRAM. The code
 * is loaded into the simulator when a launch needs it (backend_launch.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/cache.h"
#include "devices/riscv/backend_internal.h"
#include "ir/ir.h"
#include "common/log.h"
#include "common/profile_limits.h"

static int alloc_dram(void *ctx, size_t size, uint64_t *base) {
  return hg_sim_dram_alloc((hg_sim_machine *)ctx, size, base) == HG_SIM_OK ? 0 : -1;
}

static char *dup_str(const char *s) {
  char *d = malloc(strlen(s) + 1);
  if (d)
    strcpy(d, s);
  return d;
}

/* The cache key of a module's kernels' work-group sizes: its digest (its encoding's hash) and the
 * tile's L1 (the cache adds the driver build). */
static void wgs_key(hg_sim_machine *sim, const uint8_t digest[16], hg_cache_key *key) {
  uint64_t l1 = hg_sim_get_config(sim)->l1_size;
  hg_cache_key_add_str(key, "riscv-work-group-sizes");
  hg_cache_key_add(key, digest, 16);
  hg_cache_key_add(key, &l1, sizeof l1);
}

/* An entry of the work-group sizes' cache value: "name\0" + 8-byte size. */
static size_t wgs_entry(uint8_t *value, size_t at, const char *name, uint64_t wgs) {
  size_t n = strlen(name) + 1;
  memcpy(value + at, name, n);
  memcpy(value + at + n, &wgs, sizeof wgs);
  return at + n + sizeof wgs;
}

static size_t wgs_capacity(const hg_ir_module *module) {
  size_t cap = 0;
  for (uint32_t i = 0; i < module->num_functions; i++)
    if (module->functions[i].is_kernel)
      cap += strlen(module->functions[i].name) + 1 + sizeof(uint64_t);
  return cap;
}

/* Records the size of every kernel of a built program under the module's key. */
static void wgs_record(hg_rv_backend *rb, hg_sim_machine *sim, const hg_ir_module *module, const uint8_t *given,
                       const hg_dev_program *p) {
  hg_cache_key key = {0};
  size_t cap = wgs_capacity(p->module);
  uint8_t *value = cap ? malloc(cap) : NULL;
  uint8_t digest[16];
  if (value && hg_cache_module_digest(module, given, digest)) { /* the digest the platform keys by */
    wgs_key(sim, digest, &key);
    size_t at = 0;
    for (uint32_t i = 0; i < p->obj.num_kernels; i++) {
      const hg_rv_kernel_code *kc = &p->obj.kernels[i];
      const hg_ir_function *f = &p->module->functions[kc->kernel];
      at = wgs_entry(value, at, f->name, hg_rv_code_work_group_size(rb, f, kc));
    }
    hg_cache_put(&key, value, at);
  }
  hg_cache_key_free(&key);
  free(value);
}

/* The work-group sizes of the module's kernels from the IR alone, recorded under `key` (when
 * given) as a build records them; returns kernel `name`'s (0 when it cannot be made). Each kernel's step function, made on
 * one copy of the module, gives the frame the generated code would have. An application on
 * another backend that asks CL_KERNEL_WORK_GROUP_SIZE, which is the smallest over the backends,
 * gets it without a RISC-V build (hashcat's kernels: 21 s of code generation), and one copy of
 * the module serves every kernel of the program. */
static size_t work_group_sizes_of_ir(hg_rv_backend *rb, const hg_ir_module *module, const char *name,
                                     const hg_cache_key *key) {
  hg_ir_module *copy = hg_ir_module_clone(module);
  size_t cap = wgs_capacity(module), at = 0, found = 0;
  uint8_t *value = cap ? malloc(cap) : NULL;
  bool all = copy && value;
  for (uint32_t kernel = 0; all && kernel < module->num_functions; kernel++) {
    if (!module->functions[kernel].is_kernel)
      continue;
    char err[256];
    uint32_t step = hg_ir_make_resumable(copy, kernel, err, sizeof err);
    if (step == HG_IR_NONE) {
      all = false; /* nothing recorded: a build will say */
      break;
    }
    hg_rv_kernel_code kc = {.kernel = kernel, .step = step};
    hg_rv_frame_layout(&copy->functions[kernel], &copy->functions[step], &kc.frame_size, &kc.frame_align);
    size_t wgs = hg_rv_code_work_group_size(rb, &copy->functions[kernel], &kc);
    if (!strcmp(module->functions[kernel].name, name))
      found = wgs;
    at = wgs_entry(value, at, module->functions[kernel].name, wgs);
  }
  if (all && key)
    hg_cache_put(key, value, at);
  hg_ir_module_free(copy);
  free(value);
  return found;
}

size_t hg_rv_kernel_work_group_size_known(hg_backend *be, const struct hg_ir_module *module, const uint8_t digest[16],
                                          const char *name) {
  hg_sim_machine *sim = hg_rv_machine(hg_rv_of(be));
  hg_cache_key key = {0};
  uint8_t *value = NULL;
  size_t size = 0, found = 0;
  bool keyed = sim != NULL;
  if (keyed)
    wgs_key(sim, digest, &key);
  if (keyed && hg_cache_get(&key, &value, &size)) {
    /* checked as it is read: an entry comes from disk */
    for (size_t at = 0; at < size && !found;) {
      const char *entry = (const char *)value + at;
      size_t n = strnlen(entry, size - at);
      if (n == size - at || size - at - n - 1 < sizeof(uint64_t))
        break;
      uint64_t wgs;
      memcpy(&wgs, value + at + n + 1, sizeof wgs);
      if (!strcmp(entry, name) && wgs >= 1 && wgs <= HG_PROFILE_MAX_WORK_GROUP_SIZE)
        found = (size_t)wgs;
      at += n + 1 + sizeof wgs;
    }
  }
  if (!found) /* on a miss the key computed above serves the entry made */
    found = work_group_sizes_of_ir(hg_rv_of(be), module, name, keyed ? &key : NULL);
  hg_cache_key_free(&key);
  free(value);
  return found;
}

cl_int hg_rv_program_build(hg_backend *be, const struct hg_ir_module *module, const uint8_t *digest,
                           const char *options, hg_dev_program **out, char **log) {
  hg_rv_backend *rb = hg_rv_of(be);
  *out = NULL;
  if (log)
    *log = NULL;
  char err[1024] = "";
  hg_sim_machine *sim = hg_rv_machine(rb);
  if (!sim) {
    if (log)
      *log = dup_str("riscv: the simulator could not be created");
    return CL_OUT_OF_RESOURCES;
  }
  hg_dev_program *p = calloc(1, sizeof *p);
  if (!p)
    return CL_OUT_OF_HOST_MEMORY;
  cl_int rc = CL_BUILD_PROGRAM_FAILURE;
  p->module = hg_ir_module_clone(module);
  if (!p->module) {
    rc = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  if (hg_rv_codegen(p->module, &p->obj, err, sizeof err))
    goto fail;
  const void *objs[2] = {p->obj.bytes, NULL};
  size_t sizes[2] = {p->obj.size, 0};
  size_t nobj = 1;
  if (&hg_riscv_runtime_object_size && hg_riscv_runtime_object && hg_riscv_runtime_object_size) {
    objs[1] = hg_riscv_runtime_object;
    sizes[1] = hg_riscv_runtime_object_size;
    nobj = 2;
  }
  if (hg_rv_link(objs, sizes, nobj, HG_SIM_CODE_BASE, alloc_dram, sim, &p->image, err, sizeof err))
    goto fail;
  if (p->image.data_size) {
    void *d = hg_sim_dram_ptr(sim, p->image.data_base, p->image.data_size);
    memcpy(d, p->image.data, p->image.data_size);
  }
  free(p->obj.bytes); /* linked: only the kernel table is kept */
  p->obj.bytes = NULL;
  p->obj.size = 0;
  pthread_mutex_lock(&rb->lock);
  p->id = ++rb->next_program_id;
  pthread_mutex_unlock(&rb->lock);
  HG_LOG(HG_LOG_COMPILE, "riscv: built %u kernels, %zu bytes of code, %zu bytes of data", p->obj.num_kernels,
         p->image.code_size, p->image.data_size);
  wgs_record(rb, sim, module, digest, p);
  if (log)
    *log = dup_str("");
  *out = p;
  return CL_SUCCESS;
fail:
  HG_LOG(HG_LOG_COMPILE, "riscv: build failed: %s", err);
  if (log) {
    size_t n = strlen(err) + 32;
    *log = malloc(n);
    if (*log)
      snprintf(*log, n, "riscv backend: %s\n", err);
  }
  hg_rv_program_free(be, p);
  return rc;
}

void hg_rv_program_free(hg_backend *be, hg_dev_program *p) {
  if (!p)
    return;
  hg_rv_backend *rb = hg_rv_of(be);
  if (p->image.data_size && rb->sim)
    hg_sim_dram_free(rb->sim, p->image.data_base);
  pthread_mutex_lock(&rb->lock);
  if (rb->loaded_program == p->id)
    rb->loaded_program = 0;
  pthread_mutex_unlock(&rb->lock);
  hg_rv_image_free(&p->image);
  hg_rv_object_free(&p->obj);
  if (p->module)
    hg_ir_module_free(p->module);
  free(p);
}

cl_int hg_rv_kernel_create(hg_backend *be, hg_dev_program *prog, const char *name, hg_dev_kernel **out) {
  *out = NULL;
  for (uint32_t i = 0; i < prog->obj.num_kernels; i++) {
    const hg_rv_kernel_code *kc = &prog->obj.kernels[i];
    const hg_ir_function *f = &prog->module->functions[kc->kernel];
    if (strcmp(f->name, name))
      continue;
    uint64_t entry = hg_rv_image_symbol(&prog->image, kc->entry);
    if (!entry)
      return CL_INVALID_KERNEL_NAME;
    hg_dev_kernel *k = calloc(1, sizeof *k);
    if (!k)
      return CL_OUT_OF_HOST_MEMORY;
    k->prog = prog;
    k->fn = f;
    k->code = kc;
    k->entry = entry;
    if (!hg_ir_state_layout_of(prog->module, f, &k->layout)) {
      free(k);
      return CL_OUT_OF_HOST_MEMORY;
    }
    *out = k;
    return CL_SUCCESS;
  }
  return CL_INVALID_KERNEL_NAME;
}

void hg_rv_kernel_free(hg_backend *be, hg_dev_kernel *k) {
  if (k)
    hg_ir_state_layout_free(&k->layout);
  free(k);
}
