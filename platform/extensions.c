/* The extensions hetGPU advertises, and the extension functions it provides. */
#include "icd/extension_functions.h"
#include "platform/version.h"

const cl_name_version hg_platform_extensions_with_version[] = {
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"},
};
const size_t hg_platform_num_extensions = sizeof hg_platform_extensions_with_version / sizeof(cl_name_version);

const hg_extension_function hg_platform_extension_functions[] = {
    {NULL, NULL},
};
