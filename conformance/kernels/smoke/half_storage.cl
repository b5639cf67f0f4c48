//@ kernel half_storage
//@ global 1024
//@ local 64
//@ arg in float 7168 random -100 100
//@ arg out half 6144
//@ arg out float 7168
// half as storage only: vstore_half (round to nearest even), vstore_half4_rtz, vload_half,
// vload_half4, vloada_half4.
__kernel void half_storage(__global const float *in, __global half *h, __global float *out)
{
    size_t i = get_global_id(0);
    vstore_half(in[i], i, h);
    vstore_half4_rtz(vload4(i, in + 1024) * 3.0f, i, h + 1024);
    vstore_half(in[i + 5120] * in[i + 6144], i, h + 5120);
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = vload_half(i, h) + 1.0f;
    vstore4(vload_half4(i, h + 1024) * 0.5f, i, out + 1024);
    out[i + 5120] = vload_half(i, h + 5120);
    out[i + 6144] = vloada_half4(i, h + 1024).y;
}
