/* The OpenCL C of the bench kernels (vadd, sgemm, reduce, stencil, nbody, triad, xaxpy, hashint,
 * empty): one text for
 * bench-kernels (hetGPU against a vendor) and bench-stop (stoppable against plain forms). */
#ifndef HETGPU_BENCH_KERNELS_SRC_H
#define HETGPU_BENCH_KERNELS_SRC_H

static const char *const hg_bench_kernels_src =
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {\n"
    "  size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n"
    "__kernel void sgemm(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "  __local float ta[16][16], tb[16][16];\n"
    "  int row = get_global_id(1), col = get_global_id(0), lr = get_local_id(1), lc = get_local_id(0);\n"
    "  float sum = 0.0f;\n"
    "  for (int t = 0; t < n; t += 16) {\n"
    "    ta[lr][lc] = a[row * n + t + lc]; tb[lr][lc] = b[(t + lr) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < 16; k++) sum += ta[lr][k] * tb[k][lc];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = sum; }\n"
    "__kernel void reduce(__global const float *in, __global float *out, __local float *tmp) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (size_t s = n / 2; s > 0; s >>= 1) { if (l < s) tmp[l] += tmp[l + s]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0]; }\n"
    "__kernel void stencil(__global const float *in, __global float *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x > 0 && y > 0 && x < w - 1 && y < h - 1)\n"
    "    out[y * w + x] = 0.2f * (in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);\n"
    "  else out[y * w + x] = in[y * w + x]; }\n"
    "__kernel void nbody(__global const float4 *pos, __global const float4 *vel, __global float4 *npos,\n"
    "                    __global float4 *nvel, int n, float dt) {\n"
    "  int i = get_global_id(0); float4 p = pos[i]; float3 acc = (float3)(0.0f);\n"
    "  for (int j = 0; j < n; j++) { float4 q = pos[j]; float3 d = q.xyz - p.xyz;\n"
    "    float inv = rsqrt(dot(d, d) + 0.01f); acc += q.w * inv * inv * inv * d; }\n"
    "  float4 v = vel[i]; v.xyz += acc * dt; nvel[i] = v; npos[i] = (float4)(p.xyz + v.xyz * dt, p.w); }\n"
    /* STREAM's triad: memory bandwidth */
    "__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s) {\n"
    "  size_t i = get_global_id(0); a[i] = b[i] + s * c[i]; }\n"
    /* axpy as BLAS libraries write it for GPUs: float4 loads, several per work-item, strided */
    "__kernel void xaxpy(__global const float4 *x, __global float4 *y, float alpha, int n4) {\n"
    "  int stride = get_global_size(0);\n"
    "  #pragma unroll\n"
    "  for (int w = 0; w < 4; w++) { int i = get_global_id(0) + w * stride;\n"
    "    if (i < n4) y[i] = alpha * x[i] + y[i]; } }\n"
    /* a hash round function of the kind password crackers run: integer adds, rotates and
     * boolean functions on registers, 64 rounds per candidate */
    "__kernel void hashint(__global const uint *in, __global float *out) {\n"
    "  size_t i = get_global_id(0); uint a = in[i], b = a ^ 0xefcdab89u, c = a + 0x98badcfeu, d = ~a;\n"
    "  for (uint r = 0; r < 64; r++) {\n"
    "    uint f = r < 16 ? (b & c) | (~b & d) : r < 32 ? (d & b) | (~d & c) : r < 48 ? b ^ c ^ d : c ^ (b | ~d);\n"
    "    uint t = d; d = c; c = b; b = b + rotate(a + f + r * 0x5a827999u + in[(i + r) & 1023], (r & 7) + 5u); a = t; }\n"
    "  out[i] = (float)((a ^ b ^ c ^ d) & 0xffffffu); }\n"
    "__kernel void empty(void) {}\n";

#endif
