/* The hetGPU IR lowered to RISC-V code through the LLVM-15 C API: every kernel's step function
 * (ir/resumable.c) becomes an LLVM function `i32 (ptr wg, ptr wi, ptr frame, i32 resume,
 * params...)`, a work-group driver per kernel calls it (codegen_driver.c), and the module is
 * optimised (default<O2>) and emitted as an ELF relocatable for rv64imafd / lp64d / medany
 * without compressed instructions or linker relaxation. All address spaces are one flat
 * 64-bit space on the simulator: __local variables are L1 addresses, slots are frame offsets. */
#include <llvm-c/Analysis.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/riscv/codegen_internal.h"
#include "devices/riscv/sim/sim.h"
#include "ir/cfg.h"

#define RV_TRIPLE "riscv64-unknown-elf"
#define RV_CPU "generic-rv64"
#define RV_FEATURES "+m,+a,+f,+d,-c,-relax"

void hg_rv_function_attrs(hg_rv_cg *g, LLVMValueRef fn) {
  static const char *const kv[][2] = {{"target-features", RV_FEATURES}, {"target-cpu", RV_CPU}};
  for (size_t i = 0; i < 2; i++)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                               LLVMCreateStringAttribute(g->e.C, kv[i][0], (unsigned)strlen(kv[i][0]), kv[i][1],
                                                         (unsigned)strlen(kv[i][1])));
  unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->e.C, nounwind, 0));
}

/* The kernel's local_vars index of a static __local variable (UINT32_MAX: none). */
static uint32_t local_var(hg_rv_cg *g, uint32_t global) {
  for (uint32_t i = 0; i < g->k->num_local_vars; i++)
    if (g->k->local_vars[i].global == global)
      return i;
  return UINT32_MAX;
}

/* A module global: a __local variable is its window's address in L1 (each its own, so that an
 * access past it faults: riscv_internal.h), the others are the image's symbols. */
static LLVMValueRef global_hook(hg_llvm_emit *e, uint32_t index) {
  hg_rv_cg *g = e->owner;
  if (index < g->m->num_globals && g->m->globals[index].addrspace == HG_AS_LOCAL) {
    uint32_t lv = local_var(g, index);
    if (lv == UINT32_MAX)
      return hg_rv_fail(g, "__local %s has no place in the kernel's layout", g->m->globals[index].name);
    if (lv > HG_RV_MAX_WINDOWED)
      return hg_rv_fail(g, "more than %u static __local variables", HG_RV_MAX_WINDOWED + 1);
    uint64_t at = hg_rv_local_var_addr(lv, g->k->local_vars[lv].offset);
    return LLVMConstIntToPtr(LLVMConstInt(g->e.i64, at, 0), g->ptr);
  }
  if (index >= g->m->num_globals || !g->globals[index])
    return hg_rv_fail(g, "global %u not lowered", index);
  return g->globals[index];
}

/* The lp64d ABI widens integer arguments and results narrower than 64 bits to a full register:
 * 32-bit ones (int and unsigned int alike) are sign-extended, 8- and 16-bit ones by the sign of
 * their C type. The runtime (compiled by clang) relies on it, e.g. ldexp's clamp of the exponent
 * compares whole registers, so the caller must say so: without the attribute LLVM passes
 * whatever the upper bits hold (lane 1 of a vector, for a lane extracted from it). Every
 * narrower integer in the runtime's prototypes is a signed type or uint32_t, so signext (bool,
 * i1, would be zeroext). */
static void abi_ext(hg_rv_cg *g, LLVMValueRef fn_or_call, bool call, unsigned idx, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) >= 64)
    return;
  const char *kind = LLVMGetIntTypeWidth(t) == 1 ? "zeroext" : "signext";
  LLVMAttributeRef a = LLVMCreateEnumAttribute(g->e.C, LLVMGetEnumAttributeKindForName(kind, 7), 0);
  if (call)
    LLVMAddCallSiteAttribute(fn_or_call, idx, a);
  else
    LLVMAddAttributeAtIndex(fn_or_call, idx, a);
}

LLVMValueRef hg_rv_call_external(hg_rv_cg *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n) {
  LLVMValueRef fn;
  bool declared;
  LLVMValueRef c = hg_llvm_call_named(&g->e, name, ret, args, n, &fn, &declared);
  if (!c)
    return NULL;
  if (declared) {
    hg_rv_function_attrs(g, fn);
    abi_ext(g, fn, false, LLVMAttributeReturnIndex, ret);
    for (unsigned i = 0; i < n; i++)
      abi_ext(g, fn, false, i + 1, LLVMTypeOf(args[i]));
  }
  abi_ext(g, c, true, LLVMAttributeReturnIndex, ret);
  for (unsigned i = 0; i < n; i++)
    abi_ext(g, c, true, i + 1, LLVMTypeOf(args[i]));
  return c;
}

/* RISC-V has no remainder instruction: the runtime's fmod, lane by lane. */
static LLVMValueRef lower_frem(hg_rv_cg *g, const hg_ir_inst *in) {
  LLVMBuilderRef B = g->e.B;
  LLVMValueRef a = hg_rv_value(g, in->operands[0]), b = hg_rv_value(g, in->operands[1]);
  if (!a || !b)
    return NULL;
  LLVMTypeRef T = hg_rv_type(g, in->type);
  const char *fn = in->type.scalar == HG_IR_F64 ? "hg_rt_fmod" : "hg_rt_fmodf";
  LLVMTypeRef st = hg_rv_scalar_type(g, in->type.scalar == HG_IR_F64 ? HG_IR_F64 : HG_IR_F32);
  LLVMValueRef r = LLVMGetUndef(T);
  for (unsigned l = 0; l < in->type.lanes; l++) {
    LLVMValueRef x = a, y = b;
    if (in->type.lanes > 1) {
      x = LLVMBuildExtractElement(B, a, LLVMConstInt(g->e.i32, l, 0), "");
      y = LLVMBuildExtractElement(B, b, LLVMConstInt(g->e.i32, l, 0), "");
    }
    if (in->type.scalar == HG_IR_F16) {
      x = LLVMBuildFPExt(B, x, st, "");
      y = LLVMBuildFPExt(B, y, st, "");
    }
    LLVMValueRef args[2] = {x, y};
    LLVMValueRef q = hg_rv_call_external(g, fn, st, args, 2);
    if (in->type.scalar == HG_IR_F16)
      q = LLVMBuildFPTrunc(B, q, g->e.f16, "");
    if (in->type.lanes == 1)
      return q;
    r = LLVMBuildInsertElement(B, r, q, LLVMConstInt(g->e.i32, l, 0), "");
  }
  return r;
}

/* The dispatch switch of a step function: a case resuming at a loop header goes through a
 * landing block that reloads the transient values from the frame. */
static LLVMValueRef lower_switch(hg_rv_cg *g, const hg_ir_inst *in) {
  LLVMBuilderRef B = g->e.B;
  LLVMBasicBlockRef at = LLVMGetInsertBlock(B);
  LLVMValueRef v = hg_rv_value(g, in->operands[0]);
  if (!v)
    return NULL;
  LLVMValueRef sw = LLVMBuildSwitch(B, v, g->e.bbs[in->imm[0]], in->num_operands - 1);
  for (uint32_t i = 1; i < in->num_operands; i++) {
    LLVMBasicBlockRef to = g->e.bbs[in->imm[i]];
    uint32_t sp = g->slot_alloca && at == g->e.bbs[0] ? hg_rv_loop_resume_point(g, in->operands[i]) : HG_IR_NONE;
    if (sp != HG_IR_NONE) { /* the dispatch resuming at a loop header: transient values from the frame */
      LLVMBasicBlockRef landing = LLVMAppendBasicBlockInContext(g->e.C, g->e.fn, "resume");
      LLVMPositionBuilderAtEnd(B, landing);
      hg_rv_transient_copy(g, sp, false);
      LLVMBuildBr(B, to);
      to = landing;
    }
    LLVMAddCase(sw, hg_rv_value(g, in->operands[i]), to);
  }
  LLVMPositionBuilderAtEnd(B, at);
  return sw;
}

/* What a step function lowers its own way (the rest: lowering/llvm_emit.c). */
static LLVMValueRef inst_hook(hg_llvm_emit *e, const hg_ir_inst *in, bool *handled) {
  hg_rv_cg *g = e->owner;
  *handled = true;
  switch (in->op) {
  case HG_OP_FREM: return lower_frem(g, in);
  case HG_OP_SLOT: {
    if (!in->num_imm || in->imm[0] >= g->e.f->num_slots)
      return hg_rv_fail(g, "bad slot");
    if (g->slot_alloca && g->slot_alloca[in->imm[0]])
      return g->slot_alloca[in->imm[0]]; /* transient: in the frame only at a loop-header stop */
    LLVMValueRef off = LLVMConstInt(g->e.i64, g->e.f->slots[in->imm[0]].offset, 0);
    return LLVMBuildGEP2(g->e.B, g->e.i8, g->frame, &off, 1, "");
  }
  case HG_OP_SWITCH: return lower_switch(g, in);
  case HG_OP_RET: {
    LLVMValueRef a = in->num_operands ? hg_rv_value(g, in->operands[0]) : NULL;
    if (g->e.failed)
      return NULL;
    uint32_t sp = a && g->slot_alloca ? hg_rv_loop_resume_point(g, in->operands[0]) : HG_IR_NONE;
    if (sp != HG_IR_NONE) /* stopping at a loop header: transient values to the frame */
      hg_rv_transient_copy(g, sp, true);
    return a ? LLVMBuildRet(g->e.B, a) : LLVMBuildRetVoid(g->e.B);
  }
  case HG_OP_BARRIER: return hg_rv_fail(g, "a barrier is left in a step function");
  case HG_OP_CALL: return hg_rv_fail(g, "call to a function not inlined");
  case HG_OP_CALL_BUILTIN: return hg_rv_builtin(g, in);
  default: *handled = false; return NULL;
  }
}

static const hg_llvm_emit_hooks k_hooks = {global_hook, inst_hook};

/* The step function of kernel k (IR function e.f) as LLVM function e.fn: the transient slots'
 * allocas in an entry block of their own, then the IR's blocks. */
static bool lower_function(hg_rv_cg *g) {
  const hg_ir_function *f = g->e.f;
  g->wg = LLVMGetParam(g->e.fn, 0);
  g->wi = LLVMGetParam(g->e.fn, 1);
  g->frame = LLVMGetParam(g->e.fn, 2 + f->num_params - 2);
  LLVMPositionBuilderAtEnd(g->e.B, LLVMAppendBasicBlockInContext(g->e.C, g->e.fn, "entry"));
  bool ok = (!g->plan_in || hg_rv_transient_setup(g, g->plan_in)) && hg_llvm_emit_body(&g->e);
  free(g->slot_alloca);
  g->slot_alloca = NULL;
  g->plan = NULL;
  return ok;
}

/* Module globals other than __local: LLVM globals (__constant in read-only sections), defined
 * symbols of the image (hidden): a stopped kernel's pointers into them are kept as offsets from
 * their addresses (backend_state.c). */
static bool lower_globals(hg_rv_cg *g) {
  g->globals = calloc(g->m->num_globals ? g->m->num_globals : 1, sizeof *g->globals);
  if (!g->globals)
    return !hg_rv_fail(g, "out of memory");
  if (!hg_llvm_emit_globals(&g->e, g->globals, LLVMExternalLinkage))
    return false;
  for (uint32_t i = 0; i < g->m->num_globals; i++)
    if (g->globals[i])
      LLVMSetVisibility(g->globals[i], LLVMHiddenVisibility);
  return true;
}

static void init_llvm(void) {
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
  LLVMInitializeRISCVAsmPrinter();
  LLVMInitializeRISCVAsmParser(); /* the STOP_POLL ecall is inline asm (codegen_stop.c) */
}

static LLVMTargetMachineRef target_machine(char *err, size_t err_size) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_llvm);
  LLVMTargetRef t;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(RV_TRIPLE, &t, &msg)) {
    snprintf(err, err_size, "no RISC-V target in this LLVM: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  return LLVMCreateTargetMachine(t, RV_TRIPLE, RV_CPU, RV_FEATURES, LLVMCodeGenLevelDefault, LLVMRelocStatic,
                                 LLVMCodeModelMedium);
}

static bool lower_kernel(hg_rv_cg *g, hg_rv_kernel_code *kc) {
  g->k = &g->m->functions[kc->kernel];
  g->e.f = &g->m->functions[kc->step];
  g->plan_in = &kc->plan;
  const hg_ir_function *f = g->e.f;
  /* (ptr wg, ptr wi, params of the step function: kernel params..., frame, resume) */
  uint32_t np = f->num_params + 2;
  LLVMTypeRef *pt = malloc(np * sizeof *pt);
  if (!pt)
    return !hg_rv_fail(g, "out of memory");
  pt[0] = pt[1] = g->ptr;
  for (uint32_t i = 0; i < f->num_params; i++)
    pt[i + 2] = hg_rv_type(g, f->param_types[i]);
  char name[48];
  snprintf(name, sizeof name, "hg_step_k%u", kc->kernel);
  g->e.fn = LLVMAddFunction(g->e.M, name, LLVMFunctionType(g->e.i32, pt, np, 0));
  free(pt);
  LLVMSetLinkage(g->e.fn, LLVMInternalLinkage);
  hg_rv_function_attrs(g, g->e.fn);
  /* the work-group record, the work-item record and the frame are disjoint L1 areas that no
   * kernel pointer reaches except through them (private pointers are frame + offset): the
   * optimiser may keep the poll counter and demoted values in registers across the kernel's
   * own loads and stores */
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  unsigned restricted[3] = {0, 1, np - 2};
  for (unsigned i = 0; i < 3; i++)
    LLVMAddAttributeAtIndex(g->e.fn, restricted[i] + 1, LLVMCreateEnumAttribute(g->e.C, noalias, 0));
  if (!lower_function(g))
    return false;
  hg_rv_frame_layout(g->k, f, &kc->frame_size, &kc->frame_align);
  snprintf(kc->entry, sizeof kc->entry, "hg_wg_k%u", kc->kernel);
  return hg_rv_emit_driver(g, g->k, g->e.fn, kc);
}

void hg_rv_frame_layout(const hg_ir_function *kernel, const hg_ir_function *step, uint32_t *size, uint32_t *align) {
  /* the step function's slots, then each work-item's own copy of every struct passed by value
   * (the kernel may write to its copy) */
  uint32_t n = (step->private_size + 15) & ~15u;
  for (uint32_t i = 0; i < kernel->num_params; i++)
    if (kernel->args[i].kind == HG_KARG_VALUE && kernel->param_types[i].scalar == HG_IR_PTR)
      n += (kernel->args[i].size + 15) & ~15u;
  /* slot offsets are aligned within the frame: every frame starts at the largest alignment a
   * slot declares (a private array aligned to 128 bytes is, in each work-item) */
  uint32_t a = 16;
  for (uint32_t s = 0; s < step->num_slots; s++)
    if (step->slots[s].align > a)
      a = step->slots[s].align;
  *size = (n + a - 1) / a * a;
  *align = a;
}

/* memcpy and memset for the calls LLVM itself emits; "no-builtins" keeps the optimiser from
 * turning their loops back into calls to themselves. The runtime's, if any, lose to these. */
static void add_mem_functions(hg_rv_cg *g) {
  LLVMTypeRef cpy_t = LLVMFunctionType(g->ptr, (LLVMTypeRef[]){g->ptr, g->ptr, g->e.i64}, 3, 0);
  LLVMTypeRef set_t = LLVMFunctionType(g->ptr, (LLVMTypeRef[]){g->ptr, g->e.i32, g->e.i64}, 3, 0);
  const char *names[3] = {"memcpy", "memmove", "memset"};
  for (int w = 0; w < 3; w++) {
    LLVMValueRef fn = LLVMAddFunction(g->e.M, names[w], w == 2 ? set_t : cpy_t);
    hg_rv_function_attrs(g, fn);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                               LLVMCreateStringAttribute(g->e.C, "no-builtins", 11, "", 0));
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->e.C, fn, "");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->e.C, fn, "");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->e.C, fn, "");
    LLVMValueRef d = LLVMGetParam(fn, 0), s = LLVMGetParam(fn, 1), n = LLVMGetParam(fn, 2);
    LLVMPositionBuilderAtEnd(g->e.B, entry);
    /* memmove copies backwards when the destination is above the source */
    LLVMValueRef back = w == 1 ? LLVMBuildICmp(g->e.B, LLVMIntUGT, LLVMBuildPtrToInt(g->e.B, d, g->e.i64, ""),
                                               LLVMBuildPtrToInt(g->e.B, s, g->e.i64, ""), "")
                               : LLVMConstInt(g->e.i1, 0, 0);
    LLVMBuildCondBr(g->e.B, LLVMBuildICmp(g->e.B, LLVMIntEQ, n, LLVMConstInt(g->e.i64, 0, 0), ""), done, loop);
    LLVMPositionBuilderAtEnd(g->e.B, loop);
    LLVMValueRef i = LLVMBuildPhi(g->e.B, g->e.i64, "");
    LLVMValueRef idx = LLVMBuildSelect(g->e.B, back, LLVMBuildSub(g->e.B, LLVMBuildSub(g->e.B, n, i, ""),
                                                                 LLVMConstInt(g->e.i64, 1, 0), ""), i, "");
    LLVMValueRef byte = w == 2 ? LLVMBuildTrunc(g->e.B, s, g->e.i8, "")
                               : LLVMBuildLoad2(g->e.B, g->e.i8, LLVMBuildGEP2(g->e.B, g->e.i8, s, &idx, 1, ""), "");
    LLVMBuildStore(g->e.B, byte, LLVMBuildGEP2(g->e.B, g->e.i8, d, &idx, 1, ""));
    LLVMValueRef next = LLVMBuildAdd(g->e.B, i, LLVMConstInt(g->e.i64, 1, 0), "");
    LLVMValueRef zero = LLVMConstInt(g->e.i64, 0, 0);
    LLVMAddIncoming(i, &zero, &entry, 1);
    LLVMAddIncoming(i, &next, &loop, 1);
    LLVMBuildCondBr(g->e.B, LLVMBuildICmp(g->e.B, LLVMIntEQ, next, n, ""), done, loop);
    LLVMPositionBuilderAtEnd(g->e.B, done);
    LLVMBuildRet(g->e.B, d);
  }
}

void hg_rv_object_free(hg_rv_object *o) {
  free(o->bytes);
  for (uint32_t i = 0; o->kernels && i < o->num_kernels; i++)
    hg_ir_resumable_plan_free(&o->kernels[i].plan);
  free(o->kernels);
  for (uint32_t i = 0; i < o->num_formats; i++)
    free(o->formats[i]);
  free(o->formats);
  memset(o, 0, sizeof *o);
}

int hg_rv_codegen(hg_ir_module *m, hg_rv_object *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  uint32_t nk = 0;
  for (uint32_t i = 0; i < m->num_functions; i++)
    nk += m->functions[i].is_kernel && m->functions[i].num_blocks;
  out->kernels = calloc(nk ? nk : 1, sizeof *out->kernels);
  if (!out->kernels) {
    snprintf(err, err_size, "out of memory");
    return -1;
  }
  uint32_t nfun = m->num_functions;
  for (uint32_t i = 0; i < nfun; i++) {
    if (!m->functions[i].is_kernel || !m->functions[i].num_blocks)
      continue;
    uint32_t s = hg_ir_make_resumable(m, i, err, err_size);
    if (s == HG_IR_NONE) {
      hg_rv_object_free(out);
      return -1;
    }
    hg_rv_kernel_code *kc = &out->kernels[out->num_kernels++];
    *kc = (hg_rv_kernel_code){.kernel = i, .step = s};
    if (!hg_ir_resumable_plan_of(m, i, &kc->plan)) {
      snprintf(err, err_size, "out of memory");
      hg_rv_object_free(out);
      return -1;
    }
  }
  LLVMTargetMachineRef tm = target_machine(err, err_size);
  if (!tm) {
    hg_rv_object_free(out);
    return -1;
  }
  hg_rv_cg g = {.m = m, .obj = out};
  LLVMContextRef C = LLVMContextCreate();
  hg_llvm_emit_init(&g.e, C, LLVMModuleCreateWithNameInContext("hetgpu-riscv", C), LLVMCreateBuilderInContext(C));
  g.e.m = m;
  g.e.hooks = &k_hooks;
  g.e.owner = &g;
  g.e.err = err;
  g.e.err_size = err_size;
  g.e.flat = true;
  g.e.param_base = 2; /* the work-group and work-item records first */
  g.ptr = LLVMPointerTypeInContext(C, 0);
  LLVMSetTarget(g.e.M, RV_TRIPLE);
  LLVMTargetDataRef data_layout = LLVMCreateTargetDataLayout(tm);
  char *layout = LLVMCopyStringRepOfTargetData(data_layout);
  LLVMDisposeTargetData(data_layout);
  LLVMSetDataLayout(g.e.M, layout);
  LLVMDisposeMessage(layout);
  LLVMAddModuleFlag(g.e.M, LLVMModuleFlagBehaviorError, "target-abi", 10, LLVMMDStringInContext2(g.e.C, "lp64d", 5));
  int rc = -1;
  LLVMMemoryBufferRef buf = NULL;
  if (!lower_globals(&g))
    goto done;
  add_mem_functions(&g);
  for (uint32_t i = 0; i < out->num_kernels; i++)
    if (!lower_kernel(&g, &out->kernels[i]))
      goto done;
  char *msg = NULL;
  if (LLVMVerifyModule(g.e.M, LLVMReturnStatusAction, &msg)) {
    snprintf(err, err_size, "internal error: invalid LLVM IR: %.400s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    goto done;
  }
  LLVMDisposeMessage(msg);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(g.e.M, "default<O2>", tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *em = LLVMGetErrorMessage(e);
    snprintf(err, err_size, "LLVM passes failed: %s", em);
    LLVMDisposeErrorMessage(em);
    goto done;
  }
  if (getenv("HETGPU_RISCV_DUMP_LLVM"))
    LLVMDumpModule(g.e.M);
  msg = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, g.e.M, LLVMObjectFile, &msg, &buf)) {
    snprintf(err, err_size, "RISC-V code emission failed: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    goto done;
  }
  out->size = LLVMGetBufferSize(buf);
  out->bytes = malloc(out->size ? out->size : 1);
  if (!out->bytes) {
    snprintf(err, err_size, "out of memory");
    goto done;
  }
  memcpy(out->bytes, LLVMGetBufferStart(buf), out->size);
  rc = 0;
done:
  if (buf)
    LLVMDisposeMemoryBuffer(buf);
  free(g.globals);
  LLVMDisposeBuilder(g.e.B);
  LLVMDisposeModule(g.e.M);
  LLVMContextDispose(g.e.C);
  LLVMDisposeTargetMachine(tm);
  if (rc)
    hg_rv_object_free(out);
  return rc;
}
