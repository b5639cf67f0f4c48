/* Sampler objects: what a cl_sampler is, for kernels' sampler arguments (platform/sampler.c). */
#ifndef HETGPU_PLATFORM_SAMPLER_H
#define HETGPU_PLATFORM_SAMPLER_H

#include <stdint.h>

#include "platform/object.h"

struct _cl_sampler {
  hg_object obj;
  cl_context context; /* retained */
  cl_bool normalized_coords;
  cl_addressing_mode addressing_mode;
  cl_filter_mode filter_mode;
  uint32_t bits; /* HG_SAMPLER_* (common/image_format.h): what a kernel receives */
  cl_sampler_properties *properties; /* as given, with the terminating 0; NULL when none */
  size_t num_properties;
};

#endif
