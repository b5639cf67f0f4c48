//@ kernel helper_functions
//@ global 1024
//@ local 64
//@ arg in int 1024 random -1000 1000
//@ arg out int 1024
// Non-kernel helpers calling helpers: static inline, plain, functions with pointer parameters
// in private and global memory, void functions with out-parameters, a helper chain 4 deep.
static inline int sq(int x) { return x * x; }
int cube(int x) { return sq(x) * x / 1000; }
static int poly(int x) { return cube(x) + 3 * sq(x) / 100 - x + 7; }
void add_to(int *acc, int v) { *acc += v; }
void store_pair(__global int *dst, int a, int b) { *dst = a - b; }
int fold(int x)
{
    int acc = 0;
    for (int k = 0; k < 4; ++k)
        add_to(&acc, poly(x + k));
    return acc;
}
__kernel void helper_functions(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int a = fold(in[i]);
    store_pair(out + i, a, sq(in[i] % 100));
}
