//@ kernel scan
//@ global 2048
//@ local 256
//@ arg in int 2048 random -1000 1000
//@ arg out int 2048
//@ arg out int 2048
// Work-group inclusive scan (Hillis-Steele, double-buffered) and exclusive scan (Blelloch
// up-sweep/down-sweep) in __local memory.
__kernel void scan(__global const int *in, __global int *incl, __global int *excl)
{
    __local int buf[2][256];
    __local int b[256];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int cur = 0;
    buf[0][l] = in[g];
    b[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < n; off <<= 1) {
        buf[cur ^ 1][l] = buf[cur][l] + (l >= off ? buf[cur][l - off] : 0);
        barrier(CLK_LOCAL_MEM_FENCE);
        cur ^= 1;
    }
    incl[g] = buf[cur][l];
    for (int d = 1; d < n; d <<= 1) {
        int idx = (l + 1) * 2 * d - 1;
        if (idx < n) b[idx] += b[idx - d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) b[n - 1] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = n / 2; d >= 1; d >>= 1) {
        int idx = (l + 1) * 2 * d - 1;
        if (idx < n) { int t = b[idx - d]; b[idx - d] = b[idx]; b[idx] += t; }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    excl[g] = b[l];
}
