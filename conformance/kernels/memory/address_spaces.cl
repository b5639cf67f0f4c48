//@ kernel address_spaces
//@ global 1024
//@ local 64
//@ arg in float 1024 random -100 100
//@ arg in float 64 random -1 1
//@ arg local float 64
//@ arg out float 1024
// All four address spaces in one kernel: __global input and output, a __constant kernel
// argument, a __local argument buffer, __private arrays, with helpers taking pointers to each.
static float sum_const(__constant float *c, int n) { float s = 0; for (int k = 0; k < n; ++k) s += c[k]; return s; }
static float from_local(__local const float *l, int k) { return l[k]; }
static void to_private(__private float *p, float v) { p[0] = v; p[1] = v * 2.0f; }
static void to_global(__global float *g, float v) { *g = v; }
__kernel void address_spaces(__global const float *in, __constant float *coef,
                             __local float *scratch, __global float *out)
{
    int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    scratch[l] = in[g] * coef[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    __private float p[2];
    to_private(p, from_local(scratch, (l + 3) % n));
    to_global(out + g, p[0] + p[1] + sum_const(coef, 8));
}
