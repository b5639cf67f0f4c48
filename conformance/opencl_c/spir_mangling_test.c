/* The SPIR back end names every builtin it calls as clang does (docs/spir-backend.md): a kernel
 * calling builtins of every shape the mangling meets (vectors repeated and substituted,
 * pointers to each address space with their qualifiers, signed and unsigned integers, size_t
 * offsets, mixed vector/scalar forms) goes through hetGPU's front end and the SPIR back end, and
 * every function the bitcode declares must be one clang's own SPIR bitcode of the same source
 * declares (the independent reference: the vendor library defines clang's names). The integer,
 * common, geometric and relational builtins are inline IR, not calls: the math, vector-data,
 * conversion and atomic calls carry the shapes. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conformance/opencl_c/spir_test_lower.h"

static const char k_source[] =
    "kernel void k(global float4 *f4, global double2 *d2, global int *gi, global uint *gu, local int *li,\n"
    "              local float *lf, constant float *cf, global uchar *uc, global short8 *s8, global half *h,\n"
    "              global long *gl, global ulong *gul, float x, uint n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int4 q4_init = vload4(0, gi);\n"
    "  float4 a = f4[i], b = vload4(i, cf), c = vload4(1, lf);\n"
    "  f4[i] = max(a, b) + min(a, 2.0f) + clamp(a, b, c) + clamp(a, 0.0f, 1.0f) + mix(a, b, 0.5f) +\n"
    "          mix(a, b, c) + step(0.5f, a) + smoothstep(0.0f, 1.0f, a) + fma(a, b, c) + pow(a, b) +\n"
    "          native_sin(a) + ldexp(a, (int4)(n)) + rootn(a, (int4)(2)) + pown(a, (int4)(3)) +\n"
    "          select(a, b, (int4)(-1)) + bitselect(a, b, c) + cross(a, b) + normalize(a) + dot(a, b) +\n"
    "          length(a) + shuffle(a, (uint4)(3, 2, 1, 0)) + shuffle2(a, b, (uint4)(0, 5, 2, 7)) +\n"
    "          nan((uint4)(n)) + copysign(a, b) + fmax(a, x) + atan2(a, b) + remainder(a, b) +\n"
    "          convert_float4(convert_int4_rte(a * 3.0f)) + convert_float4(convert_uint4_sat(q4_init)) + vload_half4(i, h) + vloada_half4(0, h) +\n"
    "          sqrt(a) + rsqrt(a) + exp(a) + log2(a);\n"
    "  float4 s4, m4;\n"
    "  int4 q4;\n"
    "  int e1;\n"
    "  f4[i + 1] = sincos(a, &s4) + s4 + modf(a, &m4) + m4 + remquo(a, b, &q4) + convert_float4(q4) +\n"
    "              frexp(x, &e1) + (float)e1;\n"
    "  vstore4(a, i, (global float *)f4);\n"
    "  vstore_half4_rte(a, i, h);\n"
    "  vstore_half(x, i, h);\n"
    "  d2[i] = fmax(d2[i], 1.0) + vload2(i, (global double *)d2) + sqrt(d2[i]) + mad(d2[i], d2[i], d2[i]);\n"
    "  uint u = gu[i];\n"
    "  int s = gi[i];\n"
    "  gu[i] = mad_hi(u, u, n) + rotate(u, n) + clz(u) + popcount(u) + abs(s) + abs_diff(s, s + 1) +\n"
    "          add_sat(u, n) + hadd(u, n) + mul24(u, n) + max(u, n) + upsample((ushort)u, (ushort)n) +\n"
    "          atomic_add(gu, u) + atomic_inc(gu + 1) + atomic_cmpxchg(gu + 2, u, n) + any((int4)(s)) +\n"
    "          all((int2)(s)) + isequal(x, 1.0f) + isnan(x) + signbit(x);\n"
    "  gi[i] = sub_sat(s, 1) + mad24(s, s, s) + atomic_max(gi, s) + atomic_xchg(li, s) + atom_add(li + 1, s) +\n"
    "          atomic_min(li + 2, s) + rhadd(s, 3) + select(s, 4, s > 2);\n"
    "  gl[i] = atom_add(gl, gl[1]) + mul_hi(gl[i], gl[2]) + max(gl[i], 3L);\n"
    "  gul[i] = atom_or(gul, gul[1]) + upsample(u, n);\n"
    "  uchar4 v = vload4(0, uc);\n"
    "  vstore4(v + convert_uchar4_sat(convert_int4(a)), 1, uc);\n"
    "  s8[i] = s8[i] + mad_sat(s8[i], s8[i], s8[i]) + hadd(s8[i], s8[i]) + min(s8[i], (short)2);\n"
    "  /* math and vector data of more shapes (the integer, common, geometric and relational\n"
    "   * builtins are inline IR, not calls) */\n"
    "  float2 fr2;\n"
    "  double dm;\n"
    "  int8 e8;\n"
    "  f4[i + 2] = sincos(a, (local float4 *)lf) + exp2(a) + log10(a) + tanh(a) + hypot(a, b) + fmod(a, b) +\n"
    "              cbrt(a) + erf(a) + nextafter(a, b) + fmin(a, 0.5f) +\n"
    "              remquo(a, b, (global int4 *)gi) + vload4(2, cf);\n"
    "  d2[i + 1] = modf(d2[i], (global double2 *)d2) + sincos(d2[i], &d2[i + 2]) + fmin(d2[i], 2.0) + exp(d2[i]);\n"
    "  float pf;\n"
    "  f4[i + 3].xy = sincos(a.xy, &fr2) + fr2 + frexp(a.xy, (local int2 *)li) + (float2)(modf(x, &pf) + pf);\n"
    "  dm = 0.0; x = modf(x, (global float *)f4);\n"
    "  vstore8(convert_float8(e8 = vload8(0, (local int *)li)), 1, lf);\n"
    "  vstore2(convert_int2_rtz(a.xy), 3, (local int *)li);\n"
    "  gi[i + 2] = atomic_and(gi, s) + atomic_dec((local int *)li) + atomic_cmpxchg((local int *)li, s, 3) +\n"
    "              atom_or(li + 3, s) + convert_int_rtp(dm) + e8.s0;\n"
    "  gul[i + 1] = atom_xor(gul, gul[2]) + atom_max(gul + 1, gul[3]);\n"
    "  s8[i + 1] = convert_short8_rtn(convert_float8(e8)) + vload8(0, (constant short *)cf);\n"
    "  lf[i] = x;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  gi[i + 1] = (int)get_local_size(0) + (int)get_num_groups(0) + (int)get_work_dim() + (int)get_group_id(n) +\n"
    "              (int)lf[get_local_id(0)];\n"
    "}\n";


/* The names of the functions a bitcode module declares without defining (intrinsics aside). */
static size_t declared(const void *bytes, size_t size, char names[][96], size_t max) {
  LLVMContextRef C = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bytes, size, "bc");
  LLVMModuleRef M = NULL;
  size_t n = 0;
  if (LLVMParseBitcodeInContext2(C, buf, &M) == 0) {
    for (LLVMValueRef f = LLVMGetFirstFunction(M); f; f = LLVMGetNextFunction(f)) {
      size_t len;
      const char *name = LLVMGetValueName2(f, &len);
      if (LLVMIsDeclaration(f) && strncmp(name, "llvm.", 5) && n < max)
        snprintf(names[n++], sizeof names[0], "%s", name);
    }
    LLVMDisposeModule(M);
  } else {
    fprintf(stderr, "FAIL: unreadable bitcode\n");
    failures++;
  }
  LLVMDisposeMemoryBuffer(buf); /* the parse reads it, it does not take it */
  LLVMContextDispose(C);
  return n;
}

static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  void *d = malloc(n > 0 ? (size_t)n : 1);
  *size = d && fread(d, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
  fclose(f);
  return d;
}

int main(void) {
  size_t ours_size = 0;
  uint8_t *ours = spir_test_lower(k_source, &ours_size);
  if (!ours)
    return 1;
  /* clang's own SPIR bitcode of the same source */
  char dir[] = "/tmp/hg-spir-mangling-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char src[96], bc[96], cmd[512];
  snprintf(src, sizeof src, "%s/k.cl", dir);
  snprintf(bc, sizeof bc, "%s/k.bc", dir);
  FILE *f = fopen(src, "w");
  if (!f) return 1;
  fputs(k_source, f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "%s -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -fdeclare-opencl-builtins -finclude-default-header "
           "-O0 %s -o %s",
           hg_frontend_clang_path(), src, bc);
  int rc = system(cmd);
  size_t ref_size = 0;
  void *ref = rc == 0 ? read_all(bc, &ref_size) : NULL;
  unlink(src);
  unlink(bc);
  rmdir(dir);
  if (!ref || !ref_size) {
    fprintf(stderr, "FAIL: clang (%d): %s\n", rc, cmd);
    return 1;
  }
  static char ours_names[256][96], ref_names[256][96];
  size_t no = declared(ours, ours_size, ours_names, 256), nr = declared(ref, ref_size, ref_names, 256);
  unsigned checked = 0;
  for (size_t i = 0; i < no; i++) {
    bool found = false;
    for (size_t j = 0; j < nr && !found; j++)
      found = !strcmp(ours_names[i], ref_names[j]);
    checked++;
    if (!found) {
      fprintf(stderr, "FAIL: %s is not a name clang gives any call of the source\n", ours_names[i]);
      failures++;
    }
  }
  if (checked < 60) {
    fprintf(stderr, "FAIL: only %u builtins called\n", checked);
    failures++;
  }
  printf("%u builtin names checked against clang's (%zu in clang's bitcode): %s\n", checked, nr,
         failures ? "FAILED" : "all match");
  free(ours);
  free(ref);
  return failures ? 1 : 0;
}
