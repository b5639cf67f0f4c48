/* Private to the RISC-V backend (devices/riscv, not sim/ or runtime/): how a kernel becomes
 * code for the simulator and how the host and the generated code agree on memory layouts.
 *
 * Pipeline (program_build): for every kernel, hg_ir_make_resumable adds "<kernel>.step";
 * codegen*.c lowers the step functions to LLVM IR for riscv64 (rv64imafd, lp64d, medany, no
 * compressed instructions, no relaxation) and adds one work-group driver per kernel,
 * `hg_wg_k<kernel index>(desc, group)`; link.c links that object with the device runtime's
 * object (when the library embeds one) at fixed addresses; the launch runs one simulator job
 * per work-group with a0 = the launch descriptor and a1 = the group's linear index. */
#ifndef HETGPU_DEVICES_RISCV_RISCV_INTERNAL_H
#define HETGPU_DEVICES_RISCV_RISCV_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "devices/riscv/sim/sim.h"
#include "ir/ir.h"

/* ---- the launch descriptor (DRAM, read-only; 64-bit words) ------------------------------- */
enum {
  HG_RV_D_WORK_DIM = 0,
  HG_RV_D_OFFSET = 1,     /* 3 words: global offset */
  HG_RV_D_GLOBAL = 4,     /* 3 words: global size */
  HG_RV_D_LOCAL = 7,      /* 3 words: enqueued local size */
  HG_RV_D_GROUPS = 10,    /* 3 words: number of groups */
  HG_RV_D_ARGS = 13,      /* address of the argument block */
  HG_RV_D_WG = 14,        /* L1 address of the work-group record */
  HG_RV_D_WI = 15,        /* L1 address of the work-item records */
  HG_RV_D_FRAMES = 16,    /* L1 address of the private frames */
  HG_RV_D_FRAME_STRIDE = 17,
  HG_RV_D_PRINTF = 18,    /* DRAM address of the printf buffer (0: none) */
  HG_RV_D_PRINTF_SIZE = 19,
  HG_RV_D_POLL_INTERVAL = 20, /* safe-point checks between two STOP_POLLs (UINT64_MAX: never poll) */
  HG_RV_D_REC_FRAMES = 21,    /* a group's save record: byte offset of the frames */
  HG_RV_D_REC_LOCAL = 22,     /* ... of the local memory */
  HG_RV_D_LOCAL_BYTES = 23,   /* ... bytes of local memory (16-aligned) */
  HG_RV_D_WORDS = 24,
};

/* A stopped or resumed group's record in DRAM (the job's a2 = where to save, a3 = what to
 * resume from, 0 for none): the work-item records (HG_RV_WI_BYTES each, enqueued local size
 * of them: local ids and state words), then the frames (frame stride each) at
 * HG_RV_D_REC_FRAMES, then the local memory at HG_RV_D_REC_LOCAL. A state word's low 32 bits
 * are the resume point; bit 32 (HG_RV_STATE_HOLD, resume records only) keeps a work-item
 * that arrived at a barrier from crossing it in the first round, while the group's other
 * work-items run up to that barrier. A job returns HG_RV_JOB_STOPPED after saving. */
#define HG_RV_STATE_HOLD (1ull << 32)
#define HG_RV_JOB_DONE 0
#define HG_RV_JOB_STOPPED 1

/* ---- the work-group record (L1, written by the driver per job; 64-bit words) -------------- */
enum {
  HG_RV_WG_GROUP_ID = 0,    /* 3 words */
  HG_RV_WG_LOCAL = 3,       /* 3 words: this group's local size (smaller at a ragged edge) */
  HG_RV_WG_ENQ_LOCAL = 6,   /* 3 words */
  HG_RV_WG_GLOBAL = 9,      /* 3 words */
  HG_RV_WG_OFFSET = 12,     /* 3 words */
  HG_RV_WG_GROUPS = 15,     /* 3 words */
  HG_RV_WG_WORK_DIM = 18,
  HG_RV_WG_PRINTF = 19,
  HG_RV_WG_PRINTF_SIZE = 20,
  HG_RV_WG_POLL_COUNT = 21,    /* safe-point checks left before the next STOP_POLL */
  HG_RV_WG_POLL_INTERVAL = 22, /* HG_RV_D_POLL_INTERVAL */
  HG_RV_WG_STOPPING = 23,      /* 1 once a STOP_POLL said stop: the group saves itself after this round */
  HG_RV_WG_WORDS = 24,
};

/* ---- where a kernel sees its memory (simulator windows, sim.h) ---------------------------
 * Each buffer argument (buffers passed twice or overlapping sub-buffers of one buffer share
 * one, so equal bytes keep equal addresses), each __local argument and each static __local
 * variable is a range of its own in a window of its own: an access past one faults instead of
 * reaching the next (docs/riscv-backend.md, Memory). The launch descriptor, printf buffer,
 * records and program-scope globals stay at their DRAM addresses (window 0). */
#define HG_RV_PARAM_WINDOW(i) (1u + (uint32_t)(i))                  /* parameter i (buffer or __local) */
#define HG_RV_LOCAL_VAR_WINDOW(v) ((1u << 19) + (uint32_t)(v))     /* the kernel's local_vars[v] */
#define HG_RV_MAX_WINDOWED ((1u << 19) - 1)                          /* parameters, local variables */
/* The address of the kernel's static __local variable v at L1 offset `offset`. */
static inline uint64_t hg_rv_local_var_addr(uint32_t v, uint64_t offset) {
  return HG_SIM_WINDOW_ADDR(HG_RV_LOCAL_VAR_WINDOW(v)) + offset;
}

/* A work-item record (L1): local id (3 words), resume state (word 3). */
#define HG_RV_WI_BYTES 32u
/* Stack reserved at the top of L1 for the driver, the step function and runtime calls. */
#define HG_RV_STACK_BYTES (64u * 1024u)

/* ---- printf records (DRAM buffer, HG_RV_D_PRINTF) ------------------------------------------
 * The layout every backend shares (devices/printf_buffer.h, docs/printf.md): the generated code
 * adds to the 64-bit count of bytes used; %s slots hold the address of a constant string in the
 * code image (backend_printf.c resolves them). */

/* Where argument i lives in the argument block: offsets are the same on host and device. */
typedef struct hg_rv_arg_layout {
  uint32_t offset, size;
} hg_rv_arg_layout;
/* Fills lay (num_params entries); returns the block's size. */
uint32_t hg_rv_arg_layout_of(const hg_ir_function *kernel, hg_rv_arg_layout *lay);

/* ---- codegen ------------------------------------------------------------------------------- */
typedef struct hg_rv_kernel_code {
  uint32_t kernel;      /* function index in the module */
  uint32_t step;        /* index of "<kernel>.step" */
  uint32_t frame_size;  /* private frame bytes per work-item, a multiple of frame_align */
  uint32_t frame_align; /* where frames start: 16, or the largest slot alignment (64, 128...) */
  char entry[32];       /* driver symbol: hg_wg_k<kernel> */
  hg_ir_resumable_plan plan; /* where the frame keeps each kernel value; where it can stop */
} hg_rv_kernel_code;

typedef struct hg_rv_printf_format {
  char *text;
} hg_rv_printf_format;

typedef struct hg_rv_object {
  uint8_t *bytes; /* ELF relocatable, malloc'd */
  size_t size;
  hg_rv_kernel_code *kernels;
  uint32_t num_kernels;
  char **formats; /* printf format strings, by id */
  uint32_t num_formats;
} hg_rv_object;

/* A kernel's private frame per work-item: its step function's slots and its structs passed by
 * value, at the largest slot alignment (at least 16). IR facts alone: the work-group size a
 * kernel gets follows from them without generating code (backend_code.c). */
void hg_rv_frame_layout(const hg_ir_function *kernel, const hg_ir_function *step, uint32_t *size, uint32_t *align);
/* Lowers every kernel of m (a verified executable module: calls inlined, state computed; the
 * step functions are added to m). 0 on success, else -1 with a message in err. */
int hg_rv_codegen(hg_ir_module *m, hg_rv_object *out, char *err, size_t err_size);
void hg_rv_object_free(hg_rv_object *o);

/* ---- the linker ----------------------------------------------------------------------------- */
typedef struct hg_rv_image {
  uint8_t *code; /* executable and read-only sections, placed at code_base */
  size_t code_size;
  uint64_t code_base;
  uint8_t *data; /* writable sections (.data, .sdata, .bss...), placed at data_base */
  size_t data_size;
  uint64_t data_base;
  struct hg_rv_symbol {
    char *name;
    uint64_t addr;
  } *symbols; /* defined global symbols */
  size_t num_symbols;
} hg_rv_image;

/* Links ELF relocatable objects (an earlier object's definition of a name wins over a later
 * one's) for code and read-only data at code_base; the writable sections go to data_base, which
 * alloc_data chooses once it knows their size (not called when there are none). Unknown
 * relocations, undefined symbols and out-of-range values fail: -1 and a message. */
typedef int (*hg_rv_alloc_fn)(void *ctx, size_t size, uint64_t *base);
int hg_rv_link(const void *const *objs, const size_t *sizes, size_t n, uint64_t code_base, hg_rv_alloc_fn alloc_data,
               void *alloc_ctx, hg_rv_image *out, char *err, size_t err_size);
void hg_rv_image_free(hg_rv_image *img);
uint64_t hg_rv_image_symbol(const hg_rv_image *img, const char *name); /* 0 when absent */

/* ---- the device runtime object (devices/riscv/runtime, when the library embeds it) --------- */
/* By convention the runtime build embeds one ELF relocatable object and exports these two
 * (hidden) symbols; weak here so the backend works without it (math builtins then fail to
 * link, reported as a build failure). */
extern const unsigned char hg_riscv_runtime_object[] __attribute__((weak));
extern const size_t hg_riscv_runtime_object_size __attribute__((weak));

#endif
