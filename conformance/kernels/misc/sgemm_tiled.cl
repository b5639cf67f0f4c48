//@ kernel sgemm_tiled
//@ global 32 64
//@ local 8 8
//@ compare ulp 8
//@ arg scalar int 64
//@ arg scalar int 32
//@ arg scalar int 48
//@ arg scalar float 1.5
//@ arg scalar float -0.5
//@ arg in float 3072 random -1 1
//@ arg in float 1536 random -1 1
//@ arg inout float 2048 random -1 1
// SGEMM C = alpha * A(MxK) * B(KxN) + beta * C with 8x8 __local tiles, M=64, N=32, K=48
// (non-square), dimensions passed as scalars.
#define TS 8
__kernel void sgemm_tiled(int M, int N, int K, float alpha, float beta,
                          __global const float *A, __global const float *B, __global float *C)
{
    __local float As[TS][TS], Bs[TS][TS];
    int col = get_global_id(0), row = get_global_id(1);
    int tx = get_local_id(0), ty = get_local_id(1);
    float acc = 0.0f;
    for (int t = 0; t < K / TS; ++t) {
        As[ty][tx] = A[row * K + t * TS + tx];
        Bs[ty][tx] = B[(t * TS + ty) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; ++k) acc = fma(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
