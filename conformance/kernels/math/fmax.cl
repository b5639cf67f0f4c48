//@ kernel math_fmax
//@ global 1024
//@ local 64
//@ compare exact
//@ arg in float 34816 random -100 100
//@ arg in float 34816 random -100 100
//@ arg out float 34816
//@ arg out float 33792
// fmax on float, float2, float3, float4, float8 and float16; OpenCL 1.2 bound 0 ulp (exact).
// Also the vector-with-scalar-second-argument form, written to the second output.
__kernel void math_fmax(__global const float *a0, __global const float *a1, __global float *r, __global float *s)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    r[i] = fmax(a0[i], a1[i]);
    vstore2(fmax(vload2(i, a0 + n), vload2(i, a1 + n)), i, r + n);
    vstore2(fmax(vload2(i, a0 + n), a1[i]), i, s);
    vstore3(fmax(vload3(i, a0 + 3 * n), vload3(i, a1 + 3 * n)), i, r + 3 * n);
    vstore3(fmax(vload3(i, a0 + 3 * n), a1[i]), i, s + 2 * n);
    vstore4(fmax(vload4(i, a0 + 6 * n), vload4(i, a1 + 6 * n)), i, r + 6 * n);
    vstore4(fmax(vload4(i, a0 + 6 * n), a1[i]), i, s + 5 * n);
    vstore8(fmax(vload8(i, a0 + 10 * n), vload8(i, a1 + 10 * n)), i, r + 10 * n);
    vstore8(fmax(vload8(i, a0 + 10 * n), a1[i]), i, s + 9 * n);
    vstore16(fmax(vload16(i, a0 + 18 * n), vload16(i, a1 + 18 * n)), i, r + 18 * n);
    vstore16(fmax(vload16(i, a0 + 18 * n), a1[i]), i, s + 17 * n);
}
