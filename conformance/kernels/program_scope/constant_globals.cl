//@ kernel constant_globals
//@ global 1024
//@ local 64
//@ arg in int 1024 random 0 1000000
//@ arg out int 1024
//@ arg out float 1024
// Program-scope __constant variables of many kinds: scalars, vectors, multi-dimensional arrays,
// structs with nested arrays, a string, pointers between __constant objects, and sizes derived
// from sizeof of the arrays.
__constant int kPrime = 31;
__constant float4 kAxis = (float4)(1.0f, -2.0f, 0.5f, 4.0f);
__constant short kGrid[2][3][2] = { { { 1, 2 }, { 3, 4 }, { 5, 6 } }, { { -1, -2 }, { -3, -4 }, { -5, -6 } } };
typedef struct { char name[8]; int vals[3]; } entry_t;
__constant entry_t kEntries[2] = { { "alpha", { 1, 2, 3 } }, { "beta", { 10, 20, 30 } } };
__constant char kText[] = "The quick brown fox";
__constant int kFib[] = { 0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89 };
__constant int *__constant kFibPtr = kFib + 4;
__kernel void constant_globals(__global const int *in, __global int *out, __global float *f)
{
    int i = get_global_id(0), v = in[i];
    int nfib = (int)(sizeof(kFib) / sizeof(kFib[0]));
    int t = kFib[v % nfib] + kFibPtr[v & 3] * kPrime;
    t += kGrid[v & 1][v % 3][(v >> 1) & 1];
    t += kEntries[v & 1].vals[v % 3] + kEntries[(v >> 2) & 1].name[v % 5];
    t += kText[v % (int)(sizeof(kText) - 1)];
    out[i] = t;
    f[i] = dot(kAxis, (float4)((float)v, 1.0f, -1.0f, 0.25f));
}
