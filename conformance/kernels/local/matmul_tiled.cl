//@ kernel matmul_tiled
//@ global 64 64
//@ local 16 16
//@ compare ulp 4
//@ arg in float 4096 random -1 1
//@ arg in float 4096 random -1 1
//@ arg out float 4096
// Tiled matrix multiply C = A * B (64x64) with two 16x16 __local tiles per work-group; the
// summation order is fixed so results are reproducible.
__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C)
{
    __local float As[16][16], Bs[16][16];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1), N = get_global_size(0);
    float acc = 0.0f;
    for (int t = 0; t < N / 16; ++t) {
        As[ty][tx] = A[row * N + t * 16 + tx];
        Bs[ty][tx] = B[(t * 16 + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
