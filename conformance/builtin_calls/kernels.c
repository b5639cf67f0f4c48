/* Real kernels whose builtin calls the mutants start from: every family the front end emits
 * as call_builtin (work-item, math, integer, common, geometric, relational, vector data with
 * half storage and shuffles, conversions, pointer outputs, printf, doubles). */
#include "mutants.h"

const char *const bc_kernel_sources[] = {
    "__kernel void work_items_math(__global float *out, __global const int *in, __global ulong *sz) {\n"
    "  size_t g = get_global_id(0), l = get_local_id(1);\n"
    "  sz[g] = get_global_size(0) + get_local_size(2) * 3 + get_group_id(0) + get_num_groups(1) +\n"
    "          get_global_offset(0) + get_work_dim() + l;\n"
    "  float x = (float)in[g];\n"
    "  out[g] = sin(x) + pow(x, 1.5f) + fma(x, x, 2.0f) + ldexp(x, in[g] & 7) + fmax(x, 0.5f) +\n"
    "           sqrt(fabs(x)) + native_exp(x) + half_log(x) + atan2(x, 2.0f) + rsqrt(x);\n"
    "}\n",

    "__kernel void integers(__global int4 *a, __global uint4 *b, __global short8 *c, __global long2 *d) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int4 x = a[i];\n"
    "  uint4 y = b[i];\n"
    "  a[i] = clamp(x, -5, 5) + max(x, 3) + mul_hi(x, x) + rotate(x, (int4)(3)) + popcount(x) + clz(x) +\n"
    "         mad_sat(x, x, x) + add_sat(x, x) + hadd(x, x) + mad_hi(x, x, x);\n"
    "  b[i] = y + abs(x) + abs_diff(x, x + 1) + mad24(y, y, y) + mul24(y, y) + min(y, 9u);\n"
    "  c[i] = sub_sat(c[i], (short8)(7)) + rhadd(c[i], c[i]) + clamp(c[i], c[i], c[i]);\n"
    "  d[i] = upsample((int2)(1), (uint2)(2)) + min(d[i], (long2)(9)) + (long2)upsample((char)1, (uchar)2);\n"
    "}\n",

    "__kernel void geometry(__global float4 *v, __global float *s, __global int4 *r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 a = v[i], b = v[i + 1];\n"
    "  s[i] = dot(a, b) + length(a) + distance(a, b) + fast_length(a) + dot(a.x, b.x);\n"
    "  v[i] = normalize(a) + cross(a, b) + mix(a, b, 0.25f) + step(0.5f, a) + smoothstep(0.0f, 1.0f, a) +\n"
    "         clamp(a, 0.0f, 1.0f) + sign(a) + degrees(a) + radians(a) + fmin(a, b);\n"
    "  r[i] = isequal(a, b) + isless(a, b) + isnan(a) + isinf(a) + signbit(a) +\n"
    "         select((int4)(1), (int4)(2), isgreater(a, b)) + (int4)(any(isnan(a)), all(a > b), isfinite(a.x), 0);\n"
    "  v[i + 2] = bitselect(a, b, as_float4(isnan(a))) + select(a, b, isless(a, b));\n"
    "}\n",

    "__kernel void vector_data(__global float *f, __global half *h, __global int *n, __local float *loc) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 x = vload4(i, f);\n"
    "  vstore4(x * 2.0f, i + 1, f);\n"
    "  vstore3(vload3(i, f), i + 4, f);\n"
    "  vstore_half4(x, i, h);\n"
    "  vstore_half4_rtz(x, i + 1, h);\n"
    "  vstore_half(x.x, i, h);\n"
    "  float4 z = vload_half4(i, h) + vloada_half4(i, h);\n"
    "  vstorea_half4_rte(z, i + 2, h);\n"
    "  loc[get_local_id(0)] = vload_half(i, h);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  vstore8(convert_int8(vload8(i, f)), i, n);\n"
    "  f[i] = loc[0] + z.w;\n"
    "}\n",

    /* alone in their modules: the RISC-V backend does not lower them (a build error), and a
     * bad call elsewhere in the module must be what the code generator reports */
    "__kernel void shuffles(__global int4 *n) { n[1] = shuffle(n[0], (uint4)(3, 2, 1, 0)); }\n",
    "__kernel void shuffles2(__global int4 *n, __global int8 *m) {\n"
    "  m[0] = shuffle2(n[0], n[1], (uint8)(0, 1, 2, 3, 4, 5, 6, 7));\n"
    "}\n",

    "__kernel void conversions(__global float4 *f, __global int4 *i4, __global uchar4 *u, __global float *o) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 x = f[i];\n"
    "  i4[i] = convert_int4_sat_rte(x) + convert_int4(x) + convert_int4_rtn(x);\n"
    "  u[i] = convert_uchar4_sat(x) + convert_uchar4(i4[i]);\n"
    "  f[i] = convert_float4(i4[i]) + convert_float4_rtz(convert_ulong4(i4[i]));\n"
    "  int e, q;\n"
    "  float ip, c, fl;\n"
    "  float m = frexp(x.x, &e), fr = modf(x.y, &ip), sn = sincos(x.z, &c), rq = remquo(x.x, x.y, &q);\n"
    "  float fc = fract(x.w, &fl);\n"
    "  o[i] = m + e + fr + ip + sn + c + rq + q + fc + fl + ilogb(x.x) + nan(1u) + lgamma_r(x.x, &e) + e;\n"
    "}\n",

    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void doubles_printf(__global double *d, __global int *n) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (i == 0)\n"
    "    printf(\"%d %f %v4d %s\\n\", n[0], d[0], (int4)(1, 2, 3, 4), \"x\");\n"
    "  d[i] = exp(d[i]) + hypot(d[i], 2.0) + fmin(d[i], 1.0) + rootn(d[i], 3) + pown(d[i], 2) + isnan(d[i]);\n"
    "}\n",
};

const unsigned bc_num_kernel_sources = sizeof bc_kernel_sources / sizeof bc_kernel_sources[0];
