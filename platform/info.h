/* The one helper behind every clGet*Info: copies a value out with the specification's size
 * rules (CL_INVALID_VALUE when param_value is given and too small). */
#ifndef HETGPU_PLATFORM_INFO_H
#define HETGPU_PLATFORM_INFO_H

#include <CL/cl.h>
#include <string.h>

static inline cl_int hg_info_return(void *param_value, size_t param_value_size, size_t *param_value_size_ret,
                                    const void *src, size_t src_size) {
  if (param_value) {
    if (param_value_size < src_size)
      return CL_INVALID_VALUE;
    if (src_size)
      memcpy(param_value, src, src_size);
  }
  if (param_value_size_ret)
    *param_value_size_ret = src_size;
  return CL_SUCCESS;
}

/* Helpers for the common shapes of info values. */
#define HG_INFO_VALUE(type, v)                                                              \
  do {                                                                                      \
    type hg_info_tmp_ = (v);                                                                \
    return hg_info_return(param_value, param_value_size, param_value_size_ret, &hg_info_tmp_, \
                          sizeof hg_info_tmp_);                                             \
  } while (0)
#define HG_INFO_STRING(s)                                                            \
  do {                                                                               \
    const char *hg_info_s_ = (s);                                                    \
    return hg_info_return(param_value, param_value_size, param_value_size_ret, hg_info_s_, \
                          strlen(hg_info_s_) + 1);                                   \
  } while (0)
#define HG_INFO_ARRAY(ptr, bytes) \
  return hg_info_return(param_value, param_value_size, param_value_size_ret, (ptr), (bytes))

#endif
