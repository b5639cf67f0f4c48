/* Wide-vector kernels as PoCL gets them. Vector constants of loops (lowering/spir_loop_constants.c): through hetGPU's
 * front end and the SPIR back end, an MD5-shaped kernel on uint16 whose message words 4..13 are
 * zeros it stores in a private array reaches PoCL with no vector constant in any addition of its
 * loop (each is a volatile load at the entry of a __constant global holding it, the zeros'
 * sums among them), while a kernel that also has a barrier and one without a vector of 32
 * bytes keep their constants and get no such load. Table lookups (hg_llvm_emit_hooks.global_arrays):
 * a DES-shaped kernel's per-lane s-box lookups address the __constant table as an array,
 * [n x i32] @table, 0, i, as clang writes them, never with a single index that PoCL's SLP
 * vectoriser would gather through. The bitcode verifies. The kernels' results against PoCL's own
 * build are the corpus's (conformance/kernels/vectors/hash_rounds_uint16.cl). */
#include <llvm-c/Analysis.h>

#include "conformance/opencl_c/spir_test_lower.h"

static const char k_source[] =
    "#define STEP(f, a, b, c, d, x, k, s) { a += (uint16)(k); a += x + f(b, c, d); a = rotate(a, (uint16)(s)); a += b; }\n"
    "#define F(x, y, z) (z ^ (x & (y ^ z)))\n"
    "#define H(x, y, z) (x ^ y ^ z)\n"
    "static void rounds(const uint *w, uint16 *s, uint n) {\n"
    "  for (uint i = 0; i < n; i += 16) {\n"
    "    uint16 a = s[0] + (uint16)(i), b = s[1], c = s[2], d = s[3];\n"
    "    STEP(F, a, b, c, d, (uint16)(w[0]) + (uint16)(i), 0xd76aa478u, 7);\n"
    "    STEP(F, d, a, b, c, (uint16)(w[4]), 0xe8c7b756u, 12);\n"
    "    STEP(F, c, d, a, b, (uint16)(w[5]), 0x242070dbu, 17);\n"
    "    STEP(F, b, c, d, a, (uint16)(w[6]), 0xc1bdceeeu, 22);\n"
    "    STEP(H, a, b, c, d, (uint16)(w[7]), 0xf57c0fafu, 4);\n"
    "    STEP(H, d, a, b, c, (uint16)(w[1]), 0x4787c62au, 11);\n"
    "    s[0] ^= a; s[1] ^= b; s[2] ^= c; s[3] ^= d;\n"
    "  }\n"
    "}\n"
    "kernel void md5ish(global const uint *in, global uint16 *out, uint n) {\n"
    "  size_t g = get_global_id(0);\n"
    "  uint w[16];\n"
    "  w[0] = in[g * 4]; w[1] = in[g * 4 + 1]; w[2] = in[g * 4 + 2]; w[3] = in[g * 4 + 3];\n"
    "  for (int k = 4; k < 16; k++) w[k] = 0;\n"
    "  uint16 s[4] = {(uint16)(1), (uint16)(2), (uint16)(3), (uint16)(4)};\n"
    "  rounds(w, s, n);\n"
    "  out[g * 4] = s[0]; out[g * 4 + 1] = s[1]; out[g * 4 + 2] = s[2]; out[g * 4 + 3] = s[3];\n"
    "}\n"
    "kernel void with_barrier(global uint16 *io, local uint16 *t, uint n) {\n"
    "  size_t l = get_local_id(0);\n"
    "  uint16 a = io[get_global_id(0)];\n"
    "  for (uint i = 0; i < n; i++) {\n"
    "    t[l] = a + (uint16)(0x12345678u);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    a = t[(l + 1) % get_local_size(0)] + (uint16)(0x9abcdef0u);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  io[get_global_id(0)] = a;\n"
    "}\n"
    "constant uint sbox[4][64] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};\n"
    "kernel void des_ish(global uint16 *io, uint n) {\n"
    "  uint16 l = io[get_global_id(0)];\n"
    "  for (uint i = 0; i < n; i++) {\n"
    "    uint16 x = (l >> (uint16)(2)) & (uint16)(63);\n"
    "    l ^= (uint16)(sbox[1][x.s0], sbox[1][x.s1], sbox[1][x.s2], sbox[1][x.s3], sbox[1][x.s4], sbox[1][x.s5],\n"
    "                  sbox[1][x.s6], sbox[1][x.s7], sbox[1][x.s8], sbox[1][x.s9], sbox[1][x.sa], sbox[1][x.sb],\n"
    "                  sbox[1][x.sc], sbox[1][x.sd], sbox[1][x.se], sbox[1][x.sf]);\n"
    "  }\n"
    "  io[get_global_id(0)] = l;\n"
    "}\n"
    "kernel void narrow(global uint4 *io, uint n) {\n"
    "  uint4 a = io[get_global_id(0)];\n"
    "  for (uint i = 0; i < n; i++) a = rotate(a + (uint4)(0x12345678u, 1, 2, 3), (uint4)(7));\n"
    "  io[get_global_id(0)] = a;\n"
    "}\n";

static int placed_before(LLVMValueRef fn, LLVMBasicBlockRef to, LLVMBasicBlockRef from) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    if (b == to) return 1;
    if (b == from) return 0;
  }
  return 0;
}

/* whether every lane of vector constant v is defined (an addition whose other lanes nobody
 * reads keeps a constant with undefined ones) */
static int defined(LLVMValueRef v) {
  for (unsigned k = 0; k < LLVMGetVectorSize(LLVMTypeOf(v)); k++)
    if (!LLVMGetAggregateElement(v, k) || LLVMIsUndef(LLVMGetAggregateElement(v, k))) return 0;
  return 1;
}

/* Kernel `name`: additions with a defined vector constant operand in blocks of a loop, volatile loads
 * of __constant globals in its entry block. */
static void count(LLVMModuleRef M, const char *name, unsigned *constant_adds, unsigned *entry_loads) {
  *constant_adds = *entry_loads = 0;
  LLVMValueRef fn = LLVMGetNamedFunction(M, name);
  CHECK(fn, "no kernel %s in the bitcode", name);
  if (!fn) return;
  LLVMBasicBlockRef entry = LLVMGetFirstBasicBlock(fn);
  for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i))
    if (LLVMIsALoadInst(i) && LLVMGetVolatile(i) && LLVMIsAGlobalVariable(LLVMGetOperand(i, 0)) &&
        LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(i, 0))) == 2)
      (*entry_loads)++;
  for (LLVMBasicBlockRef latch = entry; latch; latch = LLVMGetNextBasicBlock(latch)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(latch);
    for (unsigned k = 0; term && k < LLVMGetNumSuccessors(term); k++) {
      LLVMBasicBlockRef header = LLVMGetSuccessor(term, k);
      if (!placed_before(fn, header, latch)) continue;
      for (LLVMBasicBlockRef bb = header;; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
          for (unsigned o = 0; LLVMGetInstructionOpcode(i) == LLVMAdd && o < 2; o++) {
            LLVMValueRef v = LLVMGetOperand(i, o);
            *constant_adds += LLVMIsAConstant(v) && LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind && defined(v);
          }
        if (bb == latch) break;
      }
    }
  }
}

/* getelementptrs in kernel `name` straight on a global: *total, and *single of them with one index */
static void table_geps(LLVMModuleRef M, const char *name, unsigned *total, unsigned *single) {
  *total = *single = 0;
  LLVMValueRef fn = LLVMGetNamedFunction(M, name);
  CHECK(fn, "no kernel %s in the bitcode", name);
  for (LLVMBasicBlockRef bb = fn ? LLVMGetFirstBasicBlock(fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMGetInstructionOpcode(i) == LLVMGetElementPtr && LLVMIsAGlobalVariable(LLVMGetOperand(i, 0))) {
        (*total)++;
        *single += LLVMGetNumOperands(i) == 2;
      }
}

int main(void) {
  size_t size = 0;
  uint8_t *bc = spir_test_lower(k_source, &size);
  if (!bc)
    return 1;
  LLVMContextRef C = LLVMContextCreate();
  LLVMModuleRef M = spir_test_parse(C, bc, size);
  if (!M)
    return 1;
  char *verify = NULL;
  CHECK(!LLVMVerifyModule(M, LLVMReturnStatusAction, &verify), "the bitcode does not verify: %s", verify);
  LLVMDisposeMessage(verify);
  unsigned adds, loads;
  count(M, "md5ish", &adds, &loads);
  CHECK(adds == 0, "md5ish: %u additions in its loop still take a vector constant", adds);
  /* the step constants, w[4..7] + K among them (the first step's K only in lane 0) */
  CHECK(loads >= 5, "md5ish: %u constants loaded at its entry, want at least 5", loads);
  count(M, "with_barrier", &adds, &loads);
  CHECK(adds >= 2 && loads == 0, "with_barrier: %u constant additions in its loop (want 2 or more), %u loaded (want 0)",
        adds, loads);
  count(M, "narrow", &adds, &loads);
  CHECK(adds >= 1 && loads == 0, "narrow: %u constant additions in its loop (want 1 or more), %u loaded (want 0)", adds,
        loads);
  unsigned total, single;
  table_geps(M, "des_ish", &total, &single);
  CHECK(total >= 16 && single == 0, "des_ish: %u of its %u s-box addresses have a single index (want 0 of 16 or more)",
        single, total);
  LLVMDisposeModule(M);
  LLVMContextDispose(C);
  free(bc);
  printf("%s\n", failures ? "FAILED" : "passed");
  return failures != 0;
}
