/* The admission rule (a backend is used only if it honours every limit of the virtual device)
 * and the memory figures, which follow the backend the process starts on. */
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

/* What one backend can hold: its global memory, no more than four of its largest allocations
 * (the specification's ratio). */
static cl_ulong usable_mem(const hg_backend *be) {
  const hg_backend_limits *l = &be->limits;
  return l->max_mem_alloc_size * 4 < l->global_mem_size ? l->max_mem_alloc_size * 4 : l->global_mem_size;
}

cl_ulong hg_profile_global_mem_size(void) {
  const hg_backend *start = hg_backend_active();
  if (!start)
    return 0;
  cl_ulong size = usable_mem(start);
  const char *env = getenv("HETGPU_GLOBAL_MEM_SIZE");
  if (env) {
    cl_ulong want = strtoull(env, NULL, 0);
    if (want >= HG_PROFILE_MIN_GLOBAL_MEM_SIZE && want < size)
      size = want;
  }
  return size;
}

cl_ulong hg_profile_max_mem_alloc_size(void) {
  const hg_backend *start = hg_backend_active();
  cl_ulong global = hg_profile_global_mem_size();
  if (!start)
    return 0;
  cl_ulong alloc = start->limits.max_mem_alloc_size;
  return alloc > global ? global : alloc < global / 4 ? global / 4 : alloc;
}

cl_ulong hg_profile_backend_mem_budget(const hg_backend *be) {
  cl_ulong own = usable_mem(be), device = hg_profile_global_mem_size();
  return own < device ? own : device;
}

bool hg_profile_images(void) {
  unsigned n = hg_backend_count();
  for (unsigned i = 0; i < n; i++)
    if (!hg_backend_at(i)->limits.images || !hg_backend_at(i)->ops->image_alloc)
      return false;
  return n > 0;
}
