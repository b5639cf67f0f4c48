/* Kernels that stop at safe points and resume there, in the lowered OpenCL C
 * (docs/opencl-c-safe-points.md).
 *
 * hg_lower_opencl_c_stoppable emits, next to each plain kernel and in the same source, up to
 * two more kernels: a STOPPABLE form for fresh launches (the plain code plus stop checks) and a
 * RESUME form (a prologue that finds the work-item's saved state, then the same code, itself
 * stoppable again). Both take the kernel's arguments (and the printf buffer when it prints),
 * then HG_OC_STOP_ARGS arguments of their own, then one `uint` per __local parameter (its size
 * in bytes), then, in the resume form only, HG_OC_RESUME_ARGS more:
 *
 *   __global volatile uint *ctl   control words, HG_OC_CTL_WORDS per launch slot
 *   uint slot                     this launch's slot
 *   uint seq                      this launch's number: ctl[slot].STOP == seq asks it to stop
 *   uint interval                 loop-header crossings between two checks (per work-item)
 *   uint flags                    HG_OC_FLAG_COUNTDOWN: every check also counts ctl[slot].COUNTDOWN down
 *   __global uchar *out           records of what stopped
 *   uint cap                      records `out` holds
 *   __global volatile uint *ns    not-started bits (per work-item: ITEM mode; per group: GROUP mode)
 *   uint local_bytes              the group's local memory as ir-spec §7 lays it out
 *   uint local_size_<i>           per __local parameter
 *   __global const uint *gmap     (resume) per group: 0 not started, 1 done, 2 + r: running record r
 *   __global const uchar *in      (resume) the running groups' records
 *
 * Records. A work-item record (record_size bytes) is {ulong group; uint item; uint safe_point}
 * then the live values (value_stride bytes, hg_ir_state_layout offsets; pointers as 64-bit
 * offsets from their base) then the private frame (private_size bytes). A group record is a
 * 16-byte header {ulong group; uint safe_point; uint 0}, the group's local memory
 * (local_bytes rounded up to 16) and one work-item record per work-item in local linear
 * order: its size is hg_oc_group_record_size. ITEM mode writes work-item records into `out`;
 * GROUP mode and the resume input (`in`, every mode) use group records. */
#ifndef HETGPU_LOWERING_OPENCL_C_STOP_H
#define HETGPU_LOWERING_OPENCL_C_STOP_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ndrange_state.h"
#include "lowering/opencl_c.h"

/* How the stoppable form stops. */
typedef enum hg_oc_stop_mode {
  HG_OC_STOP_NONE = 0, /* never stops inside (no loop, a __local kernel without barriers, ...):
                          fresh launches run the plain kernel; the resume form still exists */
  HG_OC_STOP_ITEM,     /* no barriers: each work-item stops alone at a loop header, or before it starts */
  HG_OC_STOP_GROUP,    /* barriers: a group stops as a unit at a barrier, voted on by local id 0 */
} hg_oc_stop_mode;

#define HG_OC_STOP_ARGS 9   /* ctl .. local_bytes */
#define HG_OC_RESUME_ARGS 2 /* gmap, in */
#define HG_OC_CTL_WORDS 16  /* per slot */
enum {
  HG_OC_CTL_STOP = 0,      /* the host (or the countdown) writes the launch's seq here */
  HG_OC_CTL_RECORDS = 1,   /* records allocated in `out` (may exceed cap: those kept running) */
  HG_OC_CTL_COUNTDOWN = 2, /* HG_OC_FLAG_COUNTDOWN: the check that brings it from 1 to 0 stops */
};
#define HG_OC_FLAG_COUNTDOWN 1u
#define HG_OC_RECORD_HEADER 16u

typedef struct hg_oc_stop_kernel {
  char *name;        /* the kernel */
  char *stop_name;   /* its stoppable form; NULL in mode NONE */
  char *resume_name; /* its resume form */
  /* kernels with barriers: the catch-up form, for a state whose groups are not all at one
   * point (another backend's, e.g. the RISC-V one's: some work-items at loop headers or the
   * entry, the others at the barrier ending that region). It runs each running group's
   * work-items up to that barrier (no barrier inside: PoCL needs barriers reached from one
   * point) and writes a group record per running group, at `out` + its index in `gmap` times
   * the group record size, each work-item's safe point the barrier's (0xffffffff: finished,
   * 0xfffffffe: a barrier it cannot be kept at). The result resumes uniformly. */
  char *catchup_name;
  /* the slice form (lowering/slice_form.h): the plain code over part of the range, taking
   * HG_SLICE_FORM_ARGS ulongs after the kernel's arguments; NULL when none */
  char *slice_name;
  uint8_t mode;      /* hg_oc_stop_mode */
  uint32_t record_size; /* one work-item record, a multiple of 16 */
  hg_ir_state_layout layout;
  uint8_t *resumable;   /* per safe point: the resume form can start a work-item there */
  uint8_t *barrier;     /* per safe point: it is a barrier */
  uint32_t local_static_size;
  uint32_t num_params;       /* the application's arguments */
  uint32_t num_local_params;
  uint32_t *local_params;    /* their argument indices */
  uint32_t *local_param_align; /* where each one's buffer starts in the state (hg_ir_local_arg_align) */
  bool printf;               /* takes the printf buffer after the application's arguments */
} hg_oc_stop_kernel;

/* What the vendor's compiler needs of the forms (its backend decides, by device). */
typedef struct hg_oc_forms_target {
  /* kernels with more barrier safe points get no forms (0: no limit): PoCL's work-group
   * compiler duplicates code per way into a barrier region, and with the resume form's many
   * entries that grew without end (a tree reduction unrolled to 9 barriers) */
  uint32_t max_barriers;
  /* strip-mined chunks end exactly and test `iv_next != end` (a trip count LLVM unrolls for
   * spir64, which PoCL needs) rather than `iv_next < end` (NVIDIA's compiler ran bench nbody's
   * stoppable form 1.26x its plain kernel with !=, 1.03x with <; docs/opencl-c-safe-points.md) */
  bool exact_chunks;
  /* the slice forms are the plain program's (a SPIR one, lowering/spir.h): the table names
   * them, the forms do not repeat them */
  bool slice_forms_elsewhere;
} hg_oc_forms_target;

/* The target of a CPU device (PoCL: a barrier limit, exact chunks) or of a GPU (neither). */
static inline hg_oc_forms_target hg_oc_forms_target_of(bool cpu_device) {
  return (hg_oc_forms_target){.max_barriers = cpu_device ? 4 : 0, .exact_chunks = cpu_device};
}

typedef struct hg_oc_stop_table {
  hg_oc_stop_kernel *kernels;
  uint32_t num_kernels;
  hg_oc_forms_target target; /* what the lowering was given */
} hg_oc_stop_table;

/* hg_lower_opencl_c plus, per kernel it can, the forms above (the plain kernels are the same
 * as hg_lower_opencl_c's); stop receives what the host needs to run them. A kernel that calls
 * functions, or whose name is too long for a vendor, gets no forms (not in the table), nor one
 * over the target's barrier limit. */
char *hg_lower_opencl_c_stoppable(const hg_ir_module *m, const hg_oc_forms_target *target,
                                  hg_printf_table *printf_table, hg_oc_stop_table *stop, char *err, size_t err_size);
/* The same forms without the plain kernels and functions, for a vendor program of their own
 * built after the plain one (devices/vendor/vendor_forms.c); the stop table is the same. */
char *hg_lower_opencl_c_forms(const hg_ir_module *m, const hg_oc_forms_target *target,
                              hg_printf_table *printf_table, hg_oc_stop_table *stop, char *err, size_t err_size);
void hg_oc_stop_table_free(hg_oc_stop_table *t);
const hg_oc_stop_kernel *hg_oc_stop_table_find(const hg_oc_stop_table *t, const char *kernel);

/* The group's local memory bytes as ir-spec §7 lays them out, given the __local parameters'
 * sizes (in the order of local_params). */
uint32_t hg_oc_local_bytes(const hg_oc_stop_kernel *k, const uint64_t *local_param_sizes);
/* Bytes of one group record for groups of `items` work-items. */
static inline uint64_t hg_oc_group_record_size(const hg_oc_stop_kernel *k, uint32_t local_bytes, uint32_t items) {
  return HG_OC_RECORD_HEADER + (((uint64_t)local_bytes + 15u) & ~(uint64_t)15u) + (uint64_t)items * k->record_size;
}

#endif
