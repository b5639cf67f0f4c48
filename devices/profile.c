/* The admission rule (a backend is used only if it honours every limit of the virtual device)
 * and the global-memory figures, which depend on the admitted backends. */
#include "devices/profile.h"

#include <stdio.h>
#include <stdlib.h>

#define SHORT_OF(cond, ...)               \
  do {                                    \
    if (cond) {                           \
      snprintf(why, why_size, __VA_ARGS__); \
      return false;                       \
    }                                     \
  } while (0)

bool hg_profile_admits(const hg_backend_limits *raw, char *why, size_t why_size) {
  SHORT_OF(raw->max_work_group_size < HG_PROFILE_MAX_WORK_GROUP_SIZE, "work-group size %zu", raw->max_work_group_size);
  SHORT_OF(raw->max_work_item_sizes[0] < HG_PROFILE_MAX_WORK_ITEM_SIZE_0 ||
               raw->max_work_item_sizes[1] < HG_PROFILE_MAX_WORK_ITEM_SIZE_1 ||
               raw->max_work_item_sizes[2] < HG_PROFILE_MAX_WORK_ITEM_SIZE_2,
           "work-item sizes");
  SHORT_OF(raw->local_mem_size < HG_PROFILE_LOCAL_MEM_SIZE, "local memory %llu", (unsigned long long)raw->local_mem_size);
  SHORT_OF(raw->max_parameter_size < HG_PROFILE_MAX_PARAMETER_SIZE, "parameter size %zu", raw->max_parameter_size);
  SHORT_OF(raw->mem_base_addr_align_bits == 0 || HG_PROFILE_MEM_BASE_ADDR_ALIGN_BITS % raw->mem_base_addr_align_bits,
           "base address alignment %u bits", raw->mem_base_addr_align_bits);
  SHORT_OF(raw->max_constant_buffer_size < HG_PROFILE_MAX_CONSTANT_BUFFER_SIZE, "constant buffer %llu",
           (unsigned long long)raw->max_constant_buffer_size);
  SHORT_OF(raw->max_constant_args < HG_PROFILE_MAX_CONSTANT_ARGS, "constant arguments %u", raw->max_constant_args);
  SHORT_OF(!raw->fp64, "no fp64");
  SHORT_OF(raw->global_mem_size < HG_PROFILE_MIN_GLOBAL_MEM_SIZE, "global memory %llu",
           (unsigned long long)raw->global_mem_size);
  /* The profile's largest allocation is a quarter of its global memory: a backend must be able
   * to allocate a quarter of the profile's minimum in one piece. */
  SHORT_OF(raw->max_mem_alloc_size < HG_PROFILE_MIN_GLOBAL_MEM_SIZE / 4, "largest allocation %llu",
           (unsigned long long)raw->max_mem_alloc_size);
  return true;
}

cl_ulong hg_profile_global_mem_size(void) {
  const char *env = getenv("HETGPU_GLOBAL_MEM_SIZE");
  cl_ulong size = 0;
  for (unsigned i = 0; i < hg_backend_count(); i++) {
    const hg_backend_limits *l = &hg_backend_at(i)->limits;
    cl_ulong usable = l->global_mem_size;
    /* the largest allocation must be able to be a quarter of global memory */
    if (l->max_mem_alloc_size * 4 < usable)
      usable = l->max_mem_alloc_size * 4;
    if (!size || usable < size)
      size = usable;
  }
  if (env) {
    cl_ulong want = strtoull(env, NULL, 0);
    if (want >= HG_PROFILE_MIN_GLOBAL_MEM_SIZE && (!size || want < size))
      size = want;
  }
  return size;
}

cl_ulong hg_profile_max_mem_alloc_size(void) { return hg_profile_global_mem_size() / 4; }
