/* Every OpenCL declaration the dispatch table refers to. */
#ifndef HETGPU_ICD_ENTRY_POINTS_H
#define HETGPU_ICD_ENTRY_POINTS_H

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>
#include <CL/cl_egl.h>
#include <CL/cl_icd.h>

#include "platform/object.h"

/* Fills the dispatch slots typed void * on this platform (Windows-only interop). */
cl_int hg_unsupported_entry(void);

#endif
