//@ kernel printf_mixed
//@ global 4
//@ local 2
//@ arg in int 4 iota
//@ arg out int 4
// printf in a loop and in a helper function, with a return value check (0 on success), mixed
// with ordinary output. Only work-item 0 prints; everyone writes the output buffer.
static void report(int k, float v) { printf("step %d value %.3f\n", k, v); }
__kernel void printf_mixed(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int rc = 0;
    if (i == 0)
        for (int k = 0; k < 3; ++k) {
            report(k, (float)k * 1.5f);
            rc |= printf("rc check %d\n", k);
        }
    out[i] = in[i] * 2 + (i == 0 ? rc : 0);
}
