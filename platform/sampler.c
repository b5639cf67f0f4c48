/* Samplers: clCreateSampler, clCreateSamplerWithProperties, clRetainSampler, clReleaseSampler,
 * clGetSamplerInfo. A sampler is its three properties and the bits a kernel receives for them
 * (docs/images.md, "Samplers"); it holds nothing on any backend. */
#include "platform/sampler.h"

#include <stdlib.h>
#include <string.h>

#include "common/image_format.h"
#include "common/log.h"
#include "devices/profile.h"
#include "platform/context_objects.h"
#include "platform/info.h"
#include "platform/platform.h"

/* The properties of a list (OpenCL 3.0 defaults for those it leaves out); CL_INVALID_VALUE for
 * an unknown or repeated name or a value out of range. *count: entries with the terminating 0. */
static cl_int properties_parse(const cl_sampler_properties *props, cl_bool *normalized, cl_addressing_mode *addressing,
                               cl_filter_mode *filter, size_t *count) {
  *normalized = CL_TRUE;
  *addressing = CL_ADDRESS_CLAMP;
  *filter = CL_FILTER_NEAREST;
  *count = 0;
  if (!props)
    return CL_SUCCESS;
  bool seen[3] = {false, false, false};
  size_t i = 0;
  for (; props[i]; i += 2) {
    unsigned which;
    switch (props[i]) {
    case CL_SAMPLER_NORMALIZED_COORDS: which = 0, *normalized = (cl_bool)props[i + 1]; break;
    case CL_SAMPLER_ADDRESSING_MODE: which = 1, *addressing = (cl_addressing_mode)props[i + 1]; break;
    case CL_SAMPLER_FILTER_MODE: which = 2, *filter = (cl_filter_mode)props[i + 1]; break;
    default: return CL_INVALID_VALUE;
    }
    if (seen[which])
      return CL_INVALID_VALUE;
    seen[which] = true;
    if (which == 0 && props[i + 1] != CL_TRUE && props[i + 1] != CL_FALSE)
      return CL_INVALID_VALUE;
  }
  *count = i + 1;
  return CL_SUCCESS;
}

static cl_sampler sampler_create(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                                 cl_filter_mode filter, const cl_sampler_properties *props, size_t num_props,
                                 cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_sampler s = NULL;
  uint32_t bits;
  if (!hg_sampler_bits(normalized, addressing, filter, &bits)) {
    err = CL_INVALID_VALUE;
    goto fail;
  }
  if (!(s = calloc(1, sizeof *s)) || (num_props && !(s->properties = malloc(num_props * sizeof *props)))) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  if (num_props)
    memcpy(s->properties, props, num_props * sizeof *props);
  s->num_properties = num_props;
  s->context = context;
  s->normalized_coords = normalized;
  s->addressing_mode = addressing;
  s->filter_mode = filter;
  s->bits = bits;
  /* listed and labelled with the context's objects, saved in its checkpoints */
  if ((err = hg_context_track(context, s, CL_OBJECT_SAMPLER_HETGPU)) != CL_SUCCESS)
    goto fail;
  hg_context_retain(context);
  hg_object_init(&s->obj, HG_OBJ_SAMPLER);
  HG_SET_ERR(errcode_ret, CL_SUCCESS);
  return s;

fail:
  if (s)
    free(s->properties);
  free(s);
  HG_LOG(HG_LOG_API, "clCreateSampler: error %d", err);
  HG_SET_ERR(errcode_ret, err);
  return NULL;
}

/* The checks both constructors start with. */
static cl_int context_check(cl_context context) {
  if (!hg_object_is(context, HG_OBJ_CONTEXT))
    return CL_INVALID_CONTEXT;
  return hg_profile_images() ? CL_SUCCESS : CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int *errcode_ret) {
  cl_int err = context_check(context);
  if (err != CL_SUCCESS) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  return sampler_create(context, normalized_coords, addressing_mode, filter_mode, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties *sampler_properties,
                                                                  cl_int *errcode_ret) {
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
  size_t count;
  cl_int err = context_check(context);
  if (err == CL_SUCCESS)
    err = properties_parse(sampler_properties, &normalized, &addressing, &filter, &count);
  if (err != CL_SUCCESS) {
    HG_SET_ERR(errcode_ret, err);
    return NULL;
  }
  return sampler_create(context, normalized, addressing, filter, sampler_properties, count, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  HG_CHECK_SAMPLER(sampler, CL_INVALID_SAMPLER);
  hg_object_retain(&sampler->obj);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  HG_CHECK_SAMPLER(sampler, CL_INVALID_SAMPLER);
  if (!hg_object_release(&sampler->obj))
    return CL_SUCCESS;
  cl_context context = sampler->context;
  hg_context_untrack(context, sampler);
  hg_object_retire(&sampler->obj);
  free(sampler->properties);
  hg_object_free(&sampler->obj);
  hg_context_release(context);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret) {
  HG_CHECK_SAMPLER(sampler, CL_INVALID_SAMPLER);
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT:
    HG_INFO_VALUE(cl_uint, hg_object_refcount(&sampler->obj));
  case CL_SAMPLER_CONTEXT:
    HG_INFO_VALUE(cl_context, sampler->context);
  case CL_SAMPLER_NORMALIZED_COORDS:
    HG_INFO_VALUE(cl_bool, sampler->normalized_coords);
  case CL_SAMPLER_ADDRESSING_MODE:
    HG_INFO_VALUE(cl_addressing_mode, sampler->addressing_mode);
  case CL_SAMPLER_FILTER_MODE:
    HG_INFO_VALUE(cl_filter_mode, sampler->filter_mode);
  case CL_SAMPLER_PROPERTIES:
    HG_INFO_ARRAY(sampler->properties, sampler->num_properties * sizeof(cl_sampler_properties));
  default:
    return CL_INVALID_VALUE;
  }
}
