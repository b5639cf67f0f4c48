/* A vendor build in a child process: what the driver (vendor_forms_child.c) and the child,
 * hetgpu-vendor-build (tools/hetgpu_vendor_build.c), agree on.
 *
 * A vendor's compiler serves one build at a time per process, and NVIDIA's holds it for seconds
 * to minutes over a program's stoppable forms: the application's next clBuildProgram and its
 * launches waited behind them (hashcat -m 0's main program 8.5 s, docs/gpu-runs.md), and exit
 * had to wait for them too. The child builds the forms' OpenCL C with the vendor's own library
 * in a process of its own and hands back the vendor's program binary, which the driver loads
 * (for NVIDIA that is PTX, found again in NVIDIA's compute cache, since the child loaded it
 * once the same way); the child dies with the thread that waits for it.
 *
 *   hetgpu-vendor-build LIBRARY PLATFORM_INDEX DEVICE_INDEX DEVICE_NAME DIR
 *
 * LIBRARY is the vendor ICD library as the driver's loader named it, PLATFORM_INDEX the
 * platform's place among that library's platforms, DEVICE_INDEX the device's among the
 * platform's (CL_DEVICE_TYPE_ALL), DEVICE_NAME its CL_DEVICE_NAME (checked). DIR is a private
 * directory holding the files below; the child writes the binary there. */
#ifndef HETGPU_DEVICES_VENDOR_BUILD_CHILD_H
#define HETGPU_DEVICES_VENDOR_BUILD_CHILD_H

/* the child, beside the driver's library: <directory of libhetgpu.so>/HG_VENDOR_BUILD_TOOL */
#define HG_VENDOR_BUILD_TOOL "hetgpu/hetgpu-vendor-build"

#define HG_VENDOR_BUILD_SOURCE "source.cl" /* OpenCL C */
#define HG_VENDOR_BUILD_OPTIONS "options"  /* clBuildProgram's options */
#define HG_VENDOR_BUILD_BINARY "binary"    /* written: the device's CL_PROGRAM_BINARIES */

/* its exit statuses; any other (a crash, no device) says the child could not build */
#define HG_VENDOR_BUILD_DONE 0
#define HG_VENDOR_BUILD_REFUSED 2 /* the vendor's build failed: its log on stderr */

#endif
