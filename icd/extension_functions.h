/* Functions reachable through clGetExtensionFunctionAddress(ForPlatform). */
#ifndef HETGPU_ICD_EXTENSION_FUNCTIONS_H
#define HETGPU_ICD_EXTENSION_FUNCTIONS_H

typedef struct hg_extension_function {
  const char *name;
  void *fn;
} hg_extension_function;

/* NULL-terminated table of the extension functions hetGPU provides (cl_hetgpu_migrate ...),
 * defined by the platform layer. */
extern const hg_extension_function hg_platform_extension_functions[];

void *hg_extension_function_lookup(const char *name);

#endif
