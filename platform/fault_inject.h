/* Fault injection for tests: HETGPU_FAULT_INJECT=point,point... makes those points fail every
 * time they are reached. It is read each time, so a test may set and unset it as it goes, but
 * only in a process that has it (empty will do) when the driver first checks a point: a test
 * sets it before its first OpenCL call. The points:
 *   alloc     a migration's allocation on its target
 *   build     a migration's program build on its target
 *   transfer  a migration's copy of buffer contents
 *   map_source, map_target  a migration finds that side's host mapping missing (the staged paths)
 *   pin       a migration registers no host memory with the GPU (the pinned pipeline instead)
 *   lose      a kernel launch reports the device lost (as NVIDIA's OpenCL does with -9999 after
 *             a faulting kernel): the backend is marked lost for the rest of the process */
#ifndef HETGPU_PLATFORM_FAULT_INJECT_H
#define HETGPU_PLATFORM_FAULT_INJECT_H

#include <stdbool.h>

bool hg_fault_injected(const char *point);

#endif
