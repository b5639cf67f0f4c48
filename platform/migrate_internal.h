/* What the files of the migration (platform/migrate*.c, checkpoint*.c) share. */
#ifndef HETGPU_PLATFORM_MIGRATE_INTERNAL_H
#define HETGPU_PLATFORM_MIGRATE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/fault_inject.h"
#include "platform/mem_object.h"
#include "platform/migrate.h"
#include "platform/platform.h"

/* memcpy with several threads for large copies (platform/migrate_memcpy.c). */
void hg_migrate_memcpy(void *dst, const void *src, size_t n);
/* Makes [p, p + n) resident for writing, with several threads for large ranges; its bytes
 * become unspecified. */
void hg_migrate_prefault(void *p, size_t n);
/* One thread's copy with streaming stores (destination not read again soon). */
void hg_migrate_stream_copy(void *dst, const void *src, size_t n);

/* Before a move between a and b whose largest buffer moved without a registration
 * (hg_migrate_pin) has `largest` bytes: makes the pinned chunks and copying threads of a GPU
 * side that will move it through them (once per process; pinning costs about as much as the
 * copies), so that the first move's downtime does not pay for them (platform/migrate_pipeline.c). */
void hg_migrate_pipeline_prepare(hg_backend *a, hg_backend *b, size_t largest);
/* Moves `size` bytes between a GPU's allocation and a host mapping through the GPU's pinned
 * chunks (to_host: from the GPU); *used is false, and nothing moved, when the chunks are not to
 * be had (platform/migrate_pipeline.c). */
cl_int hg_migrate_pipeline(hg_backend *gpu, hg_dev_mem *mem, uint8_t *host, bool to_host, size_t size, bool *used);
/* Before a move of `size` bytes from sm on src to dm on dst: when one side's memory is mapped in
 * host memory and the other can register host memory (a GPU: host_register), registers that
 * mapping with it, so the copy is one DMA at the link's rate; nothing when not (the copy then
 * takes another path). hg_migrate_unpin ends the registration (platform/migrate_transfer.c). */
void hg_migrate_pin(hg_mem_pin *pin, hg_backend *src, hg_dev_mem *sm, hg_backend *dst, hg_dev_mem *dm, size_t size);
void hg_migrate_unpin(hg_mem_pin *pin);
/* Copies `size` bytes of allocation sm on src to dm on dst, through `pin` (NULL: none) when its
 * registration covers this move's host side (platform/migrate_transfer.c). */
cl_int hg_migrate_copy(hg_backend *src, hg_dev_mem *sm, hg_backend *dst, hg_dev_mem *dm, size_t size,
                       const hg_mem_pin *pin);

/* The backend of an id, or NULL (CL_INVALID_BACKEND_HETGPU); CL_BACKEND_DEFAULT_HETGPU is the
 * one HETGPU_BACKEND selects (platform/migrate_api.c). */
hg_backend *hg_backend_of_id(cl_backend_id_hetgpu id);

/* Validates the flags of a migration: CL_INVALID_VALUE for unknown bits. */
cl_int hg_migrate_check_flags(cl_migration_flags_hetgpu flags);

/* Closes the context's gate for a migration or checkpoint (hg_placement_close); with
 * CL_MIGRATE_AT_SAFE_POINT_HETGPU its running kernels are asked to stop at a safe point, and
 * with CL_MIGRATE_AT_KERNEL_BOUNDARY_HETGPU too, the wait goes on past timeout_ns for those
 * that cannot. On an error the gate is open and the request withdrawn. */
cl_int hg_context_quiesce(cl_context ctx, cl_migration_flags_hetgpu flags, unsigned long long timeout_ns);
/* Withdraws the stop request and opens the gate on `backend`: stopped kernels resume there. */
void hg_context_reopen(cl_context ctx, hg_backend *backend);

#endif
