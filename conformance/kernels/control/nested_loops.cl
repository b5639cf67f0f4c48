//@ kernel nested_loops
//@ global 256
//@ local 32
//@ arg in float 4096 random -2 2
//@ arg in int 256 random 1 16
//@ arg out float 256
//@ arg out int 256
// Triply nested loops with data-dependent inner trip counts (triangular and square), an inner
// while inside a for, loop-carried values across levels, and a labelled-style double break via
// a flag.
__kernel void nested_loops(__global const float *m, __global const int *nn, __global float *out,
                           __global int *it)
{
    int i = get_global_id(0), n = nn[i], iters = 0;
    float acc = 0.0f;
    for (int r = 0; r < n; ++r)
        for (int c = 0; c <= r; ++c) {
            float s = 0.0f;
            for (int k = 0; k < 4; ++k) s += m[(r * 16 + c + k) & 4095] * (float)(k + 1);
            acc += s;
            ++iters;
        }
    int stop = 0;
    for (int r = 0; r < 16 && !stop; ++r) {
        int c = 0;
        while (c < n) {
            if (m[(i * 16 + r * 4 + c) & 4095] > 1.9f) { stop = 1; break; }
            ++c; ++iters;
        }
    }
    out[i] = acc;
    it[i] = iters;
}
