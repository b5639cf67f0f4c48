/* The three symbols the ICD loaders look up, and the table behind
 * clGetExtensionFunctionAddress(ForPlatform). */
#include <string.h>

#include "icd/entry_points.h"
#include "icd/extension_functions.h"
#include "platform/platform.h"

cl_int hg_unsupported_entry(void) { return CL_INVALID_OPERATION; }

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  /* Must not call into libOpenCL: the loader is still inside its own initialisation. */
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
    return CL_INVALID_VALUE;
  if (platforms && num_entries > 0)
    platforms[0] = hg_platform_get();
  if (num_platforms)
    *num_platforms = 1;
  return CL_SUCCESS;
}

static const hg_extension_function builtin_functions[] = {
    {"clIcdGetPlatformIDsKHR", (void *)clIcdGetPlatformIDsKHR},
    {"clGetPlatformInfo", (void *)clGetPlatformInfo},
};

void *hg_extension_function_lookup(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof builtin_functions / sizeof builtin_functions[0]; i++)
    if (!strcmp(builtin_functions[i].name, name))
      return builtin_functions[i].fn;
  for (const hg_extension_function *f = hg_platform_extension_functions; f && f->name; f++)
    if (!strcmp(f->name, name))
      return f->fn;
  return NULL;
}

__attribute__((visibility("default"))) CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name) {
  return hg_extension_function_lookup(func_name);
}

__attribute__((visibility("default"))) CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name) {
  if (!hg_object_is(platform, HG_OBJ_PLATFORM))
    return NULL;
  return hg_extension_function_lookup(func_name);
}
