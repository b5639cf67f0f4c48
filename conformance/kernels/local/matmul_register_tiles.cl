//@ kernel matmul_register_tiles
//@ global 32 32
//@ local 8 8
//@ compare ulp 8
//@ arg scalar int 64
//@ arg scalar int 3
//@ arg in float 4096 random -1 1
//@ arg in float 4096 random -1 1
//@ arg out float 4096
// C = A^T * B (64x64) the way CLBlast's XgemmDirectTN computes it: each work-item holds a 2x2
// block of C in private registers, the work-group stages 16x16 tiles of A and B in padded
// __local arrays (leading dimension 17) that each work-item fills, in unrolled loops, at local
// indices computed only from its local ids, and the tile loop reads them back between two
// barriers. Those indices are the same in every iteration, so an optimiser moves them out of
// the loop, across the barriers: hetGPU's SPIR lowering computes them again after the barrier
// (lowering/spir_recompute.c), and the results must not change. `skew` rotates which tile
// column a work-item loads first (a select on the local id), and odd work-items take the
// other path of a branch on the local id, so the moved arithmetic also holds compares and
// selects.
#define TILE 16
#define PAD 17
__kernel void matmul_register_tiles(int n, int skew, __global const float *restrict A,
                                    __global const float *restrict B, __global float *C)
{
    __local float As[TILE * PAD], Bs[TILE * PAD];
    int lx = get_local_id(0), ly = get_local_id(1);
    int col0 = get_group_id(0) * TILE + lx * 2, row0 = get_group_id(1) * TILE + ly * 2;
    float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        #pragma unroll
        for (int i = 0; i < 2; i++)
            #pragma unroll
            for (int j = 0; j < 2; j++) {
                int kk = ly * 2 + i, jj = (lx & 1) ? lx * 2 + j : lx * 2 + (1 - j);
                int first = (lx + skew) % 2 == 0 ? jj : lx * 4 + 1 - jj;
                As[kk * PAD + first] = A[(t + kk) * n + get_group_id(1) * TILE + first];
                Bs[kk * PAD + first] = B[(t + kk) * n + get_group_id(0) * TILE + first];
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++) {
            float a0 = As[k * PAD + ly * 2], a1 = As[k * PAD + ly * 2 + 1];
            float b0 = Bs[k * PAD + lx * 2], b1 = Bs[k * PAD + lx * 2 + 1];
            c00 = fma(a0, b0, c00);
            c01 = fma(a0, b1, c01);
            c10 = fma(a1, b0, c10);
            c11 = fma(a1, b1, c11);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row0 * n + col0] = c00;
    C[row0 * n + col0 + 1] = c01;
    C[(row0 + 1) * n + col0] = c10;
    C[(row0 + 1) * n + col0 + 1] = c11;
}
