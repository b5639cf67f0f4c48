/* Helpers shared by the cl_hetgpu_migrate tests: the extension's functions, the two backends
 * (the vendor one, PoCL here, and the RISC-V simulator), and kernels with their host references. */
#ifndef HETGPU_CONFORMANCE_MIGRATE_UTIL_H
#define HETGPU_CONFORMANCE_MIGRATE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"
#include <CL/cl_hetgpu.h>

/* A test that sets HETGPU_FAULT_INJECT as it runs has it in its environment from the start
 * (empty), before the driver first looks (platform/fault_inject.h). */
#define MG_FAULT_INJECTION_ARMED                                                               \
  __attribute__((constructor)) static void mg_arm_fault_injection(void) {                     \
    setenv("HETGPU_FAULT_INJECT", "", 0);                                                      \
  }

typedef struct mg_ext {
  clGetBackendIDsHETGPU_fn get_backend_ids;
  clGetBackendInfoHETGPU_fn get_backend_info;
  clMigrateContextHETGPU_fn migrate;
  clEnqueueMigrateContextHETGPU_fn enqueue_migrate;
  clCheckpointContextHETGPU_fn checkpoint;
  clRestoreContextHETGPU_fn restore;
  clGetContextObjectsHETGPU_fn get_objects;
  clSetObjectLabelHETGPU_fn set_label;
  clGetObjectByLabelHETGPU_fn get_by_label;
} mg_ext;

extern mg_ext mg;
/* Backend ids of the vendor backend (the first, or the one whose name contains
 * HG_MIGRATE_VENDOR) and of the RISC-V one (valid after mg_init). */
extern cl_backend_id_hetgpu mg_vendor, mg_riscv;

/* Loads the functions and finds both backends; false when the platform is not hetGPU or either
 * backend is missing (the caller skips). */
bool mg_init(void);
#define MG_REQUIRE()                                                         \
  do {                                                                       \
    if (!mg_init()) {                                                        \
      hg_test_skip("needs hetGPU with cl_hetgpu_migrate, PoCL and RISC-V");  \
      return;                                                                \
    }                                                                        \
  } while (0)

/* The backend id whose CL_BACKEND_KIND_HETGPU / CL_BACKEND_NAME_HETGPU is `want`, or -1. */
long mg_backend_by_kind(const char *want);
long mg_backend_by_name(const char *want);

/* CL_CONTEXT_BACKEND_HETGPU and CL_CONTEXT_MIGRATION_COUNT_HETGPU (0xFFFFFFFF on error). */
cl_backend_id_hetgpu mg_backend_of(cl_context ctx);
cl_uint mg_migrations(cl_context ctx);
/* Releases a restored context and the one reference the application holds to each object. */
void mg_release_restored(cl_context ctx);
/* CL_EVENT_COMMAND_EXECUTION_STATUS */
cl_int mg_status(cl_event e);
/* Waits until `e` runs or has ended (at most 20 s), looking every 50 us. */
void mg_wait_running(cl_event e);
void mg_sleep_us(unsigned us);
/* How long after a launch on the vendor backend begins a test asks for its stop: cpu_ms on a
 * CPU device, none on a GPU, which ends the tests' launches sooner (the H200 runs
 * test_safepoint's grid_lcg, 3000 rounds, in 2 ms). The device reports the type of the backend
 * the process started on (docs/virtual-device.md). */
unsigned mg_stop_delay_us(unsigned cpu_ms);

/* Kernels (uint arithmetic, wraps the same on host and device):
 *  wgmix(buf, tile, add): in place, per work-group: buf[g] = tile[l]*3 + (tile[ls-1-l] ^ add)
 *  stencil(in, out, tile, n, add): out[g] = ((in[g-1] + 2 in[g] + in[g+1]) >> 2) + add, the
 *    ends clamped; the halo is loaded into local memory.
 *  spin(buf, iters): a long loop per work-item (for timeouts). */
extern const char *mg_kernels_src;
void mg_ref_mix(uint32_t *buf, size_t n, size_t ls, uint32_t add);
void mg_ref_stencil(const uint32_t *in, uint32_t *out, size_t n, uint32_t add);

/* Whether the checkpoint file at `path` holds a KERNEL_STATE section (tag 7,
 * docs/snapshot-format.md): a launch was written stopped in flight, not waited for. */
bool mg_snapshot_has_kernel_state(const char *path);
/* A vendor backend builds a program's stoppable forms in the background
 * (docs/opencl-c-safe-points.md); until then its launches run plain and no migration can stop
 * them. CL_KERNEL_STOPPABLE_HETGPU waits for them (builds them if need be); an error when the
 * kernel's launches cannot stop where the context runs. */
cl_int mg_wait_for_forms(cl_kernel k);
/* Builds the context's programs on `to` too, by a round trip before any launch: a migration
 * builds them on its target before it stops anything (the report's prepare phase, 50-70 ms for
 * RISC-V here), longer than a PoCL launch the RISC-V simulator can finish quickly. */
cl_int mg_build_both(cl_context ctx, cl_backend_id_hetgpu from, cl_backend_id_hetgpu to);

/* Index of the first differing uint, or (size_t)-1. */
size_t mg_first_diff(const uint32_t *a, const uint32_t *b, size_t n);
uint32_t *mg_random_u32(size_t n);
#define CHECK_U32(got, want, n, ...)                                                              \
  do {                                                                                            \
    size_t mg_d_ = mg_first_diff((got), (want), (n));                                             \
    if (mg_d_ != (size_t)-1) {                                                                    \
      hg_test_fail(__FILE__, __LINE__, "element %zu of %zu: got %08x, want %08x", mg_d_, (size_t)(n), \
                   (got)[mg_d_], (want)[mg_d_]);                                                  \
      hg_test_fail(__FILE__, __LINE__, __VA_ARGS__);                                              \
      return;                                                                                     \
    }                                                                                             \
  } while (0)

#endif
