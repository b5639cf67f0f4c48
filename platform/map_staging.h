/* Host memory for mappings that cannot be zero-copy (a GPU's buffers): large blocks are kept
 * after their unmap and handed to the next map of the same size, so that a map's copy lands in
 * pages already resident instead of faulting in fresh ones (clpeak's map for reading through
 * hetGPU on the H100 ran at 1.5 GB/s into fresh pages, against 13.6 GB/s for NVIDIA's own). */
#ifndef HETGPU_PLATFORM_MAP_STAGING_H
#define HETGPU_PLATFORM_MAP_STAGING_H

#include <stddef.h>

/* size bytes aligned for every OpenCL C type (128 bytes), or NULL. */
void *hg_map_staging_alloc(size_t size);
/* Gives back a block from hg_map_staging_alloc of that size. */
void hg_map_staging_free(void *ptr, size_t size);

#endif
