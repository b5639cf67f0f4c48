/* Private to the RISC-V backend's operations (backend*.c). */
#ifndef HETGPU_DEVICES_RISCV_BACKEND_INTERNAL_H
#define HETGPU_DEVICES_RISCV_BACKEND_INTERNAL_H

#include <pthread.h>

#include "devices/backend.h"
#include "devices/riscv/riscv_internal.h"
#include "devices/riscv/sim/sim.h"
#include "ir/ndrange_state.h"

/* Simulator DRAM: 4 GiB of address space by default, host pages used only where written (the
 * simulator maps it lazily). HETGPU_RISCV_DRAM_SIZE (bytes) models a chip with more or less,
 * from the profile's minimum global memory to the simulator's address map. */
#define HG_RV_DRAM_SIZE (4ull << 30)

typedef struct hg_rv_backend {
  hg_backend base; /* first: hg_backend* and hg_rv_backend* convert both ways */
  pthread_mutex_t lock; /* creating the simulator; code window + launch (one program's code at a time) */
  hg_sim_machine *sim;
  uint64_t next_program_id;
  uint64_t loaded_program; /* whose code is in the code window (0: none) */
  uint64_t dram_size;
} hg_rv_backend;

/* A buffer's allocation is its size rounded up to this: the page GPUs map memory in, so a
 * kernel reading or writing a few bytes past a buffer's end (harmless on hardware, common in
 * real code) stays inside its own allocation, which the launch windows allow; an access past
 * that padding still faults (backend_windows.c). */
#define HG_RV_BUFFER_GRANULE 4096u

struct hg_dev_mem {
  uint64_t addr; /* DRAM address */
  size_t size;   /* as asked; DRAM holds it rounded up to HG_RV_BUFFER_GRANULE */
  bool is_image; /* image_alloc: the packed pixels of `image` (size == image.size) */
  hg_image_layout image;
};

struct hg_dev_program {
  uint64_t id;
  hg_ir_module *module; /* the lowered copy: kernels plus their step functions */
  hg_rv_object obj;     /* kernel table (the ELF bytes are dropped after linking) */
  hg_rv_image image;
};

struct hg_dev_kernel {
  hg_dev_program *prog;
  const hg_ir_function *fn; /* the kernel in prog->module */
  const hg_rv_kernel_code *code;
  uint64_t entry;
  hg_ir_state_layout layout; /* where a stopped work-item's values go (ir/ndrange_state.h) */
};

static inline hg_rv_backend *hg_rv_of(hg_backend *be) { return (hg_rv_backend *)be; }

/* The simulator, created on first use (NULL if that failed). */
hg_sim_machine *hg_rv_machine(hg_rv_backend *rb);

/* Formats the records of a launch's printf buffer (buf: its first byte, cap: bytes of the record
 * area) in work-group order into *out (malloc'd). */
int hg_rv_printf_collect(const hg_dev_program *p, hg_sim_machine *sim, const uint8_t *buf, uint64_t cap, char **out,
                         size_t *out_len);

/* backend_windows.c: the ranges of a launch's buffer and __local arguments and static __local
 * variables, each in its own window, appended to `ranges` (room for num_params +
 * num_local_vars); addr[i] gets the address parameter i's pointer has (0 for a NULL buffer or a
 * value). scratch: num_params words. Returns the number of ranges appended. */
size_t hg_rv_launch_windows(const hg_ir_module *m, const hg_ir_function *f, const hg_launch *launch,
                            const uint64_t *local_at, hg_sim_range *ranges, uint64_t *addr, uint32_t *scratch);

/* backend_image.c: image_alloc, and the image descriptor (devices/riscv/runtime/rt_image.h) of
 * image argument a, its pixels at DRAM address `pixels` as the kernel addresses them. */
cl_int hg_rv_mem_alloc(hg_backend *be, size_t size, hg_dev_mem **out);
cl_int hg_rv_image_alloc(hg_backend *be, const hg_image_layout *layout, hg_dev_mem **out);
void hg_rv_image_descriptor(const hg_launch_arg *a, uint64_t pixels, void *desc);

unsigned hg_riscv_probe(hg_backend **out, unsigned max);
cl_int hg_rv_program_build(hg_backend *be, const struct hg_ir_module *module, const uint8_t *digest, const char *options,
                           hg_dev_program **out, char **log);
void hg_rv_program_free(hg_backend *be, hg_dev_program *prog);
cl_int hg_rv_kernel_create(hg_backend *be, hg_dev_program *prog, const char *name, hg_dev_kernel **out);
void hg_rv_kernel_free(hg_backend *be, hg_dev_kernel *kernel);
cl_int hg_rv_kernel_launch(hg_backend *be, hg_dev_kernel *kernel, const hg_launch *launch, uint64_t *device_ns);
size_t hg_rv_kernel_work_group_size(hg_backend *be, hg_dev_kernel *kernel);
/* The same for a kernel's code before any hg_dev_kernel exists. */
size_t hg_rv_code_work_group_size(hg_rv_backend *rb, const hg_ir_function *f, const hg_rv_kernel_code *code);
/* Work-group sizes of a module's kernels kept in the program cache (backend_code.c): recorded
 * by a build, known to later processes without one (hashcat asks every kernel's
 * CL_KERNEL_WORK_GROUP_SIZE, which needs every backend's answer: without this each process built
 * its kernels for RISC-V, 20 s and 0.7 GB for hashcat's). */
size_t hg_rv_kernel_work_group_size_known(hg_backend *be, const struct hg_ir_module *module, const uint8_t digest[16],
                                          const char *name);
/* kernel_run / kernel_stop (devices/backend.h; backend_launch.c, docs/riscv-backend.md "Stopping
 * and resuming"). */
cl_int hg_rv_kernel_run(hg_backend *be, hg_dev_kernel *kernel, const hg_launch *launch,
                        const struct hg_ir_ndrange_state *resume, struct hg_ir_ndrange_state **stopped,
                        uint64_t *device_ns);
void hg_rv_kernel_stop(hg_backend *be, hg_stop_request *stop);

#endif
