/* hetGPU IR -> PTX (lowering/ptx.h): the module as LLVM IR for nvptx64-nvidia-nvcl, kernels
 * marked in nvvm.annotations, work-item functions from NVIDIA OpenCL's special registers, then
 * LLVM's NVPTX back end. IR address spaces map to NVPTX's: private and generic to generic (0;
 * allocas become local memory), global 1, constant 4 (.const), local 3 (.shared). */
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_back_edges.h"
#include "lowering/llvm_builtins.h"
#include "lowering/llvm_latch_tests.h"
#include "lowering/llvm_loop_id.h"
#include "lowering/llvm_unit.h"
#include "lowering/ptx.h"

#define PTX_TRIPLE "nvptx64-nvidia-nvcl"
#define PTX_KERNEL_CC 71 /* LLVM's CallingConv::PTX_Kernel */

static const unsigned k_ptx_addrspaces[] = {[HG_AS_PRIVATE] = 0, [HG_AS_GLOBAL] = 1, [HG_AS_CONSTANT] = 4,
                                            [HG_AS_LOCAL] = 3, [HG_AS_GENERIC] = 0};

typedef hg_llvm_unit hg_ptx; /* the module being lowered (lowering/llvm_unit.h) */

/* ---- work-item functions ---- */

static LLVMValueRef sreg(hg_llvm_emit *e, const char *reg, unsigned d) {
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s%s", reg, d < 3 ? (const char *[]){".x", ".y", ".z"}[d] : "");
  LLVMValueRef v = hg_llvm_intrinsic(e, name, NULL, 0, NULL, 0);
  /* PTX's limits on ids and sizes (1024 threads a block, 64 in z; 2^31 - 1 blocks in x, 65535
   * in y and z), as range metadata: LLVM then knows index arithmetic on them does not wrap */
  bool size = !strcmp(reg, "ntid"), in_block = strcmp(reg, "ctaid") != 0;
  uint64_t most = in_block ? (d == 2 ? 64 : 1024) : d == 0 ? 0x7fffffff : 65535;
  uint64_t lo = size ? 1 : 0, hi = size ? most + 1 : most;
  LLVMMetadataRef bounds[2] = {LLVMValueAsMetadata(LLVMConstInt(e->i32, lo, 0)), LLVMValueAsMetadata(LLVMConstInt(e->i32, hi, 0))};
  LLVMSetMetadata(v, LLVMGetMDKindIDInContext(e->C, "range", 5), LLVMMetadataAsValue(e->C, LLVMMDNodeInContext2(e->C, bounds, 2)));
  return LLVMBuildZExt(e->B, v, e->i64, "");
}

/* NVIDIA's OpenCL: %envreg0-2 the first group of this grid (a launch may be split in grids),
 * 3-5 that group's first global id (offset included), 6-8 the launch's group counts, 9 work_dim */
static LLVMValueRef envreg(hg_llvm_emit *e, unsigned n, bool sign) {
  char name[48];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.envreg%u", n);
  LLVMValueRef v = hg_llvm_intrinsic(e, name, NULL, 0, NULL, 0);
  return sign ? LLVMBuildSExt(e->B, v, e->i64, "") : LLVMBuildZExt(e->B, v, e->i64, "");
}

typedef enum { WI_LOCAL_ID, WI_LOCAL_SIZE, WI_GROUP_ID, WI_NUM_GROUPS, WI_GLOBAL_SIZE, WI_GLOBAL_OFFSET, WI_GLOBAL_ID } wi_kind;

/* One work-item function of a constant dimension d < 3, as i64. */
static LLVMValueRef wi_dim(hg_llvm_emit *e, wi_kind k, unsigned d) {
  LLVMBuilderRef B = e->B;
  switch (k) {
  case WI_LOCAL_ID: return sreg(e, "tid", d);
  case WI_LOCAL_SIZE: return sreg(e, "ntid", d);
  case WI_GROUP_ID: return LLVMBuildAdd(B, envreg(e, d, false), sreg(e, "ctaid", d), "");
  case WI_NUM_GROUPS: return envreg(e, 6 + d, false);
  case WI_GLOBAL_SIZE: return LLVMBuildMul(B, envreg(e, 6 + d, false), sreg(e, "ntid", d), "");
  case WI_GLOBAL_OFFSET:
    return LLVMBuildSub(B, envreg(e, 3 + d, true), LLVMBuildMul(B, envreg(e, d, false), sreg(e, "ntid", d), ""), "");
  case WI_GLOBAL_ID:
    return LLVMBuildAdd(B, LLVMBuildAdd(B, LLVMBuildMul(B, sreg(e, "ctaid", d), sreg(e, "ntid", d), ""), sreg(e, "tid", d), ""),
                        envreg(e, 3 + d, true), "");
  }
  return NULL;
}

/* For a dimension known only at run time: the three, chosen; `outside` for d >= 3. */
static LLVMValueRef wi_any_dim(hg_llvm_emit *e, wi_kind k, LLVMValueRef dim, uint64_t outside) {
  if (LLVMIsAConstantInt(dim)) {
    uint64_t d = LLVMConstIntGetZExtValue(dim);
    return d < 3 ? wi_dim(e, k, (unsigned)d) : LLVMConstInt(e->i64, outside, 0);
  }
  LLVMValueRef r = LLVMConstInt(e->i64, outside, 0);
  for (int d = 2; d >= 0; d--) {
    LLVMValueRef is = LLVMBuildICmp(e->B, LLVMIntEQ, dim, LLVMConstInt(LLVMTypeOf(dim), (unsigned)d, 0), "");
    r = LLVMBuildSelect(e->B, is, wi_dim(e, k, (unsigned)d), r, "");
  }
  return r;
}

static LLVMValueRef work_item(hg_llvm_builtin_call *x) {
  hg_llvm_emit *e = x->e;
  static const struct {
    const char *name;
    wi_kind kind;
    uint64_t outside;
  } k_fns[] = {{"get_local_id", WI_LOCAL_ID, 0},        {"get_local_size", WI_LOCAL_SIZE, 1},
               {"get_enqueued_local_size", WI_LOCAL_SIZE, 1}, {"get_group_id", WI_GROUP_ID, 0},
               {"get_num_groups", WI_NUM_GROUPS, 1},    {"get_global_size", WI_GLOBAL_SIZE, 1},
               {"get_global_offset", WI_GLOBAL_OFFSET, 0}, {"get_global_id", WI_GLOBAL_ID, 0}};
  LLVMValueRef r = NULL;
  if (!strcmp(x->name, "get_work_dim"))
    r = envreg(e, 9, false);
  for (size_t i = 0; !r && i < sizeof k_fns / sizeof *k_fns; i++)
    if (!strcmp(x->name, k_fns[i].name) && x->n == 1)
      r = wi_any_dim(e, k_fns[i].kind, x->a[0], k_fns[i].outside);
  if (!r && !strcmp(x->name, "get_local_linear_id")) {
    r = LLVMConstInt(e->i64, 0, 0);
    for (int d = 2; d >= 0; d--)
      r = LLVMBuildAdd(e->B, LLVMBuildMul(e->B, r, wi_dim(e, WI_LOCAL_SIZE, (unsigned)d), ""), wi_dim(e, WI_LOCAL_ID, (unsigned)d), "");
  } else if (!r && !strcmp(x->name, "get_global_linear_id")) {
    r = LLVMConstInt(e->i64, 0, 0);
    for (int d = 2; d >= 0; d--) {
      LLVMValueRef id = LLVMBuildSub(e->B, wi_dim(e, WI_GLOBAL_ID, (unsigned)d), wi_dim(e, WI_GLOBAL_OFFSET, (unsigned)d), "");
      r = LLVMBuildAdd(e->B, LLVMBuildMul(e->B, r, wi_dim(e, WI_GLOBAL_SIZE, (unsigned)d), ""), id, "");
    }
  }
  if (!r)
    return NULL;
  return LLVMGetIntTypeWidth(x->T) < 64 ? LLVMBuildTrunc(e->B, r, x->T, "") : r;
}

/* A fence: LLVM 15's NVPTX back end selects no `fence` instruction (it aborts), so membar,
 * a full fence, at the work-group's scope or the device's */
static LLVMValueRef membar(hg_llvm_emit *e, bool device) {
  return hg_llvm_intrinsic(e, device ? "llvm.nvvm.membar.gl" : "llvm.nvvm.membar.cta", NULL, 0, NULL, 0);
}

/* Function fn of type ft (scalar: two operands at most) applied lane by lane to a[0..n-1], the
 * lanes put together as a value of type T with `lanes` lanes. */
static LLVMValueRef call_lanes(hg_llvm_emit *e, LLVMTypeRef ft, LLVMValueRef fn, LLVMValueRef *a, unsigned n,
                               unsigned lanes, LLVMTypeRef T) {
  LLVMValueRef r = lanes > 1 ? LLVMGetUndef(T) : NULL;
  for (unsigned l = 0; l < (lanes > 1 ? lanes : 1); l++) {
    LLVMValueRef args[2];
    for (unsigned i = 0; i < n && i < 2; i++)
      args[i] = hg_llvm_lane(e, a[i], l);
    LLVMValueRef v = LLVMBuildCall2(e->B, ft, fn, args, n, "");
    if (lanes <= 1)
      return v;
    r = LLVMBuildInsertElement(e->B, r, v, LLVMConstInt(e->i32, l, 0), "");
  }
  return r;
}

/* PTX text as a function of type ret(params) for call_lanes (LLVM 15 has no intrinsic for it). */
static LLVMValueRef inline_ptx(const char *text, const char *constraints, LLVMTypeRef ret, LLVMTypeRef *params,
                               unsigned n, LLVMTypeRef *ft) {
  *ft = LLVMFunctionType(ret, params, n, 0);
  return LLVMGetInlineAsm(*ft, (char *)text, strlen(text), (char *)constraints, strlen(constraints), 0, 0,
                          LLVMInlineAsmDialectATT, 0);
}

/* A 64-bit rotate by amounts known here (each lane's): shifts by constants, masked to 0-63,
 * which LLVM and ptxas turn into funnel shifts as NVIDIA's compiler does (SHA-512's rounds are
 * nearly all rotates: hashcat -m 1800 ran at 0.84x NVIDIA's speed through the general rotate
 * below, whose shifts by a register ptxas cannot fold). NULL when an amount is not constant. */
static LLVMValueRef constant_rotate64(hg_llvm_emit *e, LLVMValueRef value, LLVMValueRef amount, unsigned lanes) {
  LLVMValueRef left[16], right[16];
  if (lanes > 16)
    return NULL;
  for (unsigned i = 0; i < lanes; i++) {
    LLVMValueRef lane = lanes > 1 ? (LLVMIsConstant(amount) ? LLVMGetAggregateElement(amount, i) : NULL) : amount;
    if (!lane || !LLVMIsAConstantInt(lane))
      return NULL;
    unsigned n = (unsigned)(LLVMConstIntGetZExtValue(lane) & 63);
    left[i] = LLVMConstInt(e->i64, n, 0);
    /* a rotate by 0 shifts by 0 both ways: a shift by 64 would be poison */
    right[i] = LLVMConstInt(e->i64, (64 - n) & 63, 0);
  }
  LLVMValueRef l = lanes > 1 ? LLVMConstVector(left, lanes) : left[0];
  LLVMValueRef r = lanes > 1 ? LLVMConstVector(right, lanes) : right[0];
  return LLVMBuildOr(e->B, LLVMBuildShl(e->B, value, l, ""), LLVMBuildLShr(e->B, value, r, ""), "");
}

/* rotate of 64-bit integers: LLVM 15's NVPTX back end rotates by the amount unmasked (a rotate
 * by 98 gave 0; the suite's integer_ops/rotate_long on NVIDIA), and drops a mask the IR puts
 * before it as redundant for a rotate, so the PTX itself, lane by lane */
static LLVMValueRef rotate64(hg_llvm_builtin_call *x) {
  hg_llvm_emit *e = x->e;
  LLVMValueRef by_constant = constant_rotate64(e, x->a[0], x->a[1], x->rt.lanes);
  if (by_constant)
    return by_constant;
  static const char k_asm[] = "{\n\t.reg .b64 %hgl, %hgr;\n\t.reg .u32 %hga, %hgb;\n\tand.b32 %hga, $2, 63;\n"
                              "\tsub.u32 %hgb, 64, %hga;\n\tshl.b64 %hgl, $1, %hga;\n\tshr.b64 %hgr, $1, %hgb;\n"
                              "\tor.b64 $0, %hgl, %hgr;\n\t}";
  LLVMTypeRef params[2] = {e->i64, e->i32}, ft;
  LLVMValueRef fn = inline_ptx(k_asm, "=l,l,r", e->i64, params, 2, &ft);
  unsigned lanes = x->rt.lanes;
  LLVMValueRef a[2] = {x->a[0], LLVMBuildTrunc(e->B, x->a[1], lanes > 1 ? LLVMVectorType(e->i32, lanes) : e->i32, "")};
  return call_lanes(e, ft, fn, a, 2, lanes, x->T);
}

/* An NVVM intrinsic of one scalar type applied lane by lane. */
static LLVMValueRef nvvm_lanes(hg_llvm_emit *e, const char *intrinsic, LLVMValueRef *a, unsigned n, hg_ir_type t,
                               LLVMTypeRef T) {
  unsigned id = LLVMLookupIntrinsicID(intrinsic, strlen(intrinsic));
  if (!id)
    return hg_llvm_fail(e, "no intrinsic %s", intrinsic);
  return call_lanes(e, LLVMIntrinsicGetType(e->C, id, NULL, 0), LLVMGetIntrinsicDeclaration(e->M, id, NULL, 0), a, n,
                    t.lanes, T);
}

/* The math functions PTX has as instructions, with the precision NVIDIA's own OpenCL gives them
 * (within OpenCL's limits): float sqrt and division approximate (sqrt.approx, div.full: 3 and
 * 2.5 ulp allowed) unless -cl-fp32-correctly-rounded-divide-sqrt, rsqrt from rsqrt.approx,
 * native_ and half_ sqrt, rsqrt, divide and recip from the approximate instructions. The others
 * are the OpenCL C back end's, where NVIDIA's library computes them. */
static LLVMValueRef nvidia_math(hg_llvm_builtin_call *x) {
  hg_llvm_emit *e = x->e;
  const char *n = x->name;
  if (!x->n || (x->rt.scalar != HG_IR_F32 && x->rt.scalar != HG_IR_F64))
    return NULL;
  if (!strncmp(n, "native_", 7))
    n += 7;
  else if (!strncmp(n, "half_", 5))
    n += 5;
  bool exact = n == x->name, dbl = x->rt.scalar == HG_IR_F64;
  bool approx = !dbl && (!exact || !hg_ir_built_with(e->m, "-cl-fp32-correctly-rounded-divide-sqrt"));
  LLVMTypeRef t = x->T;
  LLVMValueRef one = hg_llvm_splat_const(LLVMConstReal(dbl ? e->f64 : e->f32, 1.0), x->rt.lanes);
  if (!strcmp(n, "sqrt") && x->n == 1)
    return approx ? nvvm_lanes(e, "llvm.nvvm.sqrt.approx.f", x->a, 1, x->rt, t)
                  : hg_llvm_intrinsic(e, "llvm.sqrt", &t, 1, x->a, 1);
  if (!strcmp(n, "rsqrt") && x->n == 1) {
    if (!dbl || exact)
      return nvvm_lanes(e, dbl ? "llvm.nvvm.rsqrt.approx.d" : "llvm.nvvm.rsqrt.approx.f", x->a, 1, x->rt, t);
    return LLVMBuildFDiv(e->B, one, hg_llvm_intrinsic(e, "llvm.sqrt", &t, 1, x->a, 1), "");
  }
  bool divide = !strcmp(n, "divide") && x->n == 2, recip = !strcmp(n, "recip") && x->n == 1;
  if (!exact && (divide || recip)) {
    LLVMValueRef a[2] = {divide ? x->a[0] : one, divide ? x->a[1] : x->a[0]};
    return dbl ? LLVMBuildFDiv(e->B, a[0], a[1], "") : nvvm_lanes(e, "llvm.nvvm.div.approx.f", a, 2, x->rt, t);
  }
  return NULL;
}

/* What is left after the inline lowering: the math functions NVIDIA's library computes */
static LLVMValueRef ptx_math(hg_llvm_builtin_call *x) {
  return hg_llvm_fail(x->e, "builtin %s (NVIDIA's library: the OpenCL C back end)", x->name);
}

/* Float division: div.full.f32 (2 ulp; NVIDIA's OpenCL's own) unless the program asked for
 * correctly rounded division; PTX only through inline assembly in LLVM 15. */
static LLVMValueRef fdiv(hg_llvm_emit *e, const hg_ir_inst *in) {
  LLVMValueRef a[2] = {hg_llvm_value(e, in->operands[0]), hg_llvm_value(e, in->operands[1])};
  if (e->failed)
    return NULL;
  LLVMTypeRef T = hg_llvm_type(e, in->type);
  if (in->type.scalar != HG_IR_F32 || hg_ir_built_with(e->m, "-cl-fp32-correctly-rounded-divide-sqrt"))
    return LLVMBuildFDiv(e->B, a[0], a[1], "");
  LLVMTypeRef params[2] = {e->f32, e->f32}, ft;
  LLVMValueRef fn = inline_ptx("div.full.f32 $0, $1, $2;", "=f,f,f", e->f32, params, 2, &ft);
  return call_lanes(e, ft, fn, a, 2, in->type.lanes, T);
}

static LLVMValueRef ptx_first(hg_llvm_builtin_call *x) {
  if (!strncmp(x->name, "get_", 4))
    return work_item(x);
  if (!strcmp(x->name, "rotate") && x->n == 2 && x->rt.scalar == HG_IR_I64)
    return rotate64(x);
  LLVMValueRef r = nvidia_math(x);
  if (r)
    return r;
  if (!strcmp(x->name, "printf"))
    return hg_llvm_fail(x->e, "printf (hetGPU's own buffer: the OpenCL C back end)");
  if (!strcmp(x->name, "mem_fence") || !strcmp(x->name, "read_mem_fence") || !strcmp(x->name, "write_mem_fence"))
    return membar(x->e, false);
  if (!strcmp(x->name, "atomic_work_item_fence"))
    return membar(x->e, true);
  return NULL;
}

static const hg_llvm_builtin_hooks k_ptx_builtins = {"PTX", ptx_first, ptx_math};

static LLVMValueRef inst_hook(hg_llvm_emit *e, const hg_ir_inst *in, bool *handled) {
  hg_ptx *s = e->owner;
  *handled = true;
  switch (in->op) {
  case HG_OP_SLOT: return hg_llvm_unit_slot(s, in);
  case HG_OP_FDIV:
    if (in->num_operands != 2)
      return hg_llvm_fail(e, "fdiv with %u operands", in->num_operands);
    return fdiv(e, in);
  case HG_OP_FENCE:
    if (((in->flags >> 8) & 0xF) == HG_ORDER_RELAXED)
      return LLVMGetUndef(e->i32); /* a relaxed fence orders nothing */
    return membar(e, ((in->flags >> 12) & 0xF) > HG_SCOPE_WORK_GROUP);
  case HG_OP_BARRIER: /* bar.sync orders the group's memory accesses, global and shared */
    return hg_llvm_intrinsic(e, "llvm.nvvm.barrier0", NULL, 0, NULL, 0);
  case HG_OP_CALL: return hg_llvm_unit_call(s, in);
  case HG_OP_CALL_BUILTIN: return hg_llvm_builtin(e, in, &k_ptx_builtins);
  default: *handled = false; return NULL;
  }
}

static const hg_llvm_emit_hooks k_hooks = {hg_llvm_unit_global, inst_hook, true};

/* ---- what this back end leaves to the OpenCL C one ---- */

static bool ptx_check(const hg_ir_module *m, char *err, size_t err_size) {
  if (!hg_llvm_unit_check(m, err, err_size))
    return false;
  for (uint32_t i = 0; i < m->num_functions; i++) {
    const hg_ir_function *f = &m->functions[i];
    /* LLVM 15's NVPTX back end emits atomics without their ordering and would call fmod for frem */
    for (uint32_t b = 0; b < f->num_blocks; b++)
      for (uint32_t k = 0; k < f->blocks[b].num_insts; k++) {
        const hg_ir_inst *in = &f->blocks[b].insts[k];
        bool ordered =
            (in->op == HG_OP_ATOMIC_RMW || in->op == HG_OP_CMPXCHG) && ((in->flags >> 8) & 0xF) != HG_ORDER_RELAXED;
        if (ordered || in->op == HG_OP_FREM) {
          snprintf(err, err_size, "%s: %s", f->name, ordered ? "atomics with a memory order" : "frem");
          return false;
        }
      }
  }
  return true;
}

/* ---- functions ---- */

/* A private array of 16 bytes or more is aligned to 16, as NVVM aligns them: LLVM's load-store
 * vectorizer then pairs its 8-byte accesses into the 16-byte local loads and stores NVIDIA's
 * PTX has (hashcat -m 1800's loop kernel ran 1.02x NVIDIA's time with them 8-byte aligned and
 * accessed one word at a time, 0.999x aligned; docs/ptx-backend.md). */
static LLVMValueRef slot(hg_ptx *s, uint32_t size, uint32_t align) {
  LLVMValueRef a = LLVMBuildAlloca(s->e.B, LLVMArrayType(s->e.i8, size), "");
  LLVMSetAlignment(a, size >= 16 && align < 16 ? 16 : align);
  return a;
}

/* A kernel: PTX_Kernel's convention and its mark in nvvm.annotations. */
static void declared(hg_ptx *s, uint32_t i, LLVMValueRef fn) {
  hg_llvm_emit *e = &s->e;
  if (!e->m->functions[i].is_kernel)
    return;
  LLVMSetFunctionCallConv(fn, PTX_KERNEL_CC);
  LLVMMetadataRef md[3] = {LLVMValueAsMetadata(fn), LLVMMDStringInContext2(e->C, "kernel", 6),
                           LLVMValueAsMetadata(LLVMConstInt(e->i32, 1, 0))};
  LLVMAddNamedMetadataOperand(e->M, "nvvm.annotations", LLVMMetadataAsValue(e->C, LLVMMDNodeInContext2(e->C, md, 3)));
}

/* ---- LLVM's NVPTX back end ---- */

static pthread_once_t g_nvptx_once = PTHREAD_ONCE_INIT;
static void init_nvptx(void) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
}

/* NVIDIA's compiler unrolls small innermost loops by 4, for the instruction-level parallelism a
 * GPU's warps need (its PTX of the bench kernels: nbody's and the hash rounds' loops), which
 * LLVM's thresholds for NVPTX do not. The same here: a loop whose blocks hold no other loop and
 * at most k_unroll_max_insts instructions gets llvm.loop.unroll.count 4 on its back edge. A loop
 * is a branch back to a block placed earlier, as the IR's blocks (and these) are in source order. */
enum { k_unroll_max_insts = 160 };

static void unroll_hints(LLVMContextRef C, LLVMModuleRef M) {
  unsigned kind = LLVMGetMDKindIDInContext(C, "llvm.loop", 9);
  for (LLVMValueRef fn = LLVMGetFirstFunction(M); fn; fn = LLVMGetNextFunction(fn)) {
    unsigned n = LLVMCountBasicBlocks(fn);
    if (n < 2)
      continue;
    LLVMBasicBlockRef *bbs = malloc(n * sizeof *bbs);
    unsigned *insts = malloc(n * sizeof *insts), *back = malloc(n * sizeof *back); /* back[i]: header of i's back edge */
    if (!bbs || !insts || !back) {
      free(bbs), free(insts), free(back);
      return;
    }
    LLVMGetBasicBlocks(fn, bbs);
    for (unsigned i = 0; i < n; i++) {
      insts[i] = 0;
      for (LLVMValueRef in = LLVMGetFirstInstruction(bbs[i]); in; in = LLVMGetNextInstruction(in))
        insts[i]++;
      back[i] = i + 1; /* none */
      LLVMValueRef term = LLVMGetBasicBlockTerminator(bbs[i]);
      for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term); k++)
        for (unsigned j = 0; j <= i; j++)
          if (LLVMGetSuccessor(term, k) == bbs[j] && j < back[i])
            back[i] = j;
    }
    for (unsigned i = 0; i < n; i++) {
      if (back[i] > i)
        continue;
      unsigned size = 0;
      bool inner = true;
      for (unsigned b = back[i]; b <= i; b++) {
        size += insts[b];
        inner &= b == i || back[b] > b;
      }
      if (!inner || size > k_unroll_max_insts)
        continue;
      LLVMMetadataRef count[2] = {LLVMMDStringInContext2(C, "llvm.loop.unroll.count", 22),
                                  LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(C), 4, 0))};
      LLVMMetadataRef ops[2] = {NULL, LLVMMDNodeInContext2(C, count, 2)};
      LLVMSetMetadata(LLVMGetBasicBlockTerminator(bbs[i]), kind, LLVMMetadataAsValue(C, hg_llvm_loop_id(C, ops, 2)));
    }
    free(bbs), free(insts), free(back);
  }
}

/* Loop metadata after the unrolling: LLVM marks the loops it unrolled "nounroll", which NVPTX
 * passes on to NVIDIA's assembler as `.pragma "nounroll"`; NVIDIA's own PTX leaves ptxas free. */
static void drop_loop_metadata(LLVMModuleRef M) {
  unsigned kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(M), "llvm.loop", 9);
  for (LLVMValueRef fn = LLVMGetFirstFunction(M); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
      if (term && LLVMGetMetadata(term, kind))
        LLVMSetMetadata(term, kind, NULL);
    }
}

/* The module's PTX (malloc'd, NUL-terminated), after a light clean-up of the lowered IR (private
 * slots into registers, address spaces inferred for generic pointers, the unrolling asked for). */
static void *emit(hg_ptx *s, size_t *size) {
  LLVMModuleRef M = s->e.M;
  pthread_once(&g_nvptx_once, init_nvptx);
  LLVMTargetRef target;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(PTX_TRIPLE, &target, &msg)) {
    hg_llvm_fail(&s->e, "no NVPTX target in this LLVM: %.200s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  char cpu[16];
  snprintf(cpu, sizeof cpu, "sm_%d", HG_PTX_MIN_SM);
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, PTX_TRIPLE, cpu, "+ptx64", LLVMCodeGenLevelDefault,
                                                    LLVMRelocDefault, LLVMCodeModelDefault);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  char *layout = LLVMCopyStringRepOfTargetData(td);
  LLVMSetDataLayout(M, layout);
  LLVMDisposeMessage(layout);
  LLVMDisposeTargetData(td);
  unroll_hints(LLVMGetModuleContext(M), M);
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  /* indvars rewrites a counted loop's exit test to compare its counter for equality with the
   * final count, as NVVM's PTX does: ptxas unrolls such loops further and resolves tests on the
   * counter (the bench's hashint, a 64-round loop with a four-way choice on the round: 1.94x
   * NVIDIA's device time with a less-than exit test, 1.00 with it). licm: the IR inlines its
   * calls after LLVM's -O2, so what a callee computed in a loop from its caller's private array
   * (hashcat's m01400s from the password words) becomes loop-invariant only once sroa has
   * made that array registers here, and ptxas does not hoist it (-m 1400 at 0.944x NVIDIA's own
   * build without it, docs/performance.md) */
  LLVMErrorRef perr = LLVMRunPasses(M, "function(sroa,early-cse,instcombine,infer-address-spaces,simplifycfg,"
                                            "loop-mssa(licm),loop(loop-rotate,indvars),loop-unroll<O3>,"
                                            "instcombine,simplifycfg)",
                                    tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  drop_loop_metadata(M);
  hg_llvm_latch_tests_on_next(M);
  hg_llvm_back_edges_on_true(M);
  char *out = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (perr) {
    char *m = LLVMGetErrorMessage(perr);
    hg_llvm_fail(&s->e, "internal error: LLVM passes: %.300s", m);
    LLVMDisposeErrorMessage(m);
  } else if (LLVMTargetMachineEmitToMemoryBuffer(tm, M, LLVMAssemblyFile, &msg, &buf)) {
    hg_llvm_fail(&s->e, "NVPTX code generation: %.300s", msg ? msg : "");
    LLVMDisposeMessage(msg);
  } else {
    size_t n = LLVMGetBufferSize(buf);
    out = malloc(n + 1);
    if (out) {
      memcpy(out, LLVMGetBufferStart(buf), n);
      out[n] = 0;
      *size = n + 1;
    } else {
      hg_llvm_fail(&s->e, "out of memory");
    }
    LLVMDisposeMemoryBuffer(buf);
  }
  LLVMDisposeTargetMachine(tm);
  return out;
}

static const hg_llvm_unit_target k_ptx = {PTX_TRIPLE, &k_hooks, k_ptx_addrspaces, ptx_check, NULL, declared, slot, emit};

char *hg_lower_ptx(const hg_ir_module *m, size_t *size, char *err, size_t err_size) {
  return hg_llvm_unit_lower(m, &k_ptx, false, size, err, err_size);
}
