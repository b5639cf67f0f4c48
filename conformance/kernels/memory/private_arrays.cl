//@ kernel private_arrays
//@ global 1024
//@ local 64
//@ arg in int 16384 random -1000 1000
//@ arg out int 1024
//@ arg out int 16384
// Private arrays: 1-D and 2-D, initialised with initializer lists, indexed with data-dependent
// indices, sorted in place (insertion sort), passed to helpers by pointer.
static void isort(int *a, int n)
{
    for (int k = 1; k < n; ++k) {
        int v = a[k], j = k - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; --j; }
        a[j + 1] = v;
    }
}
__kernel void private_arrays(__global const int *in, __global int *med, __global int *sorted)
{
    int i = get_global_id(0);
    int a[16];
    int m[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
    for (int k = 0; k < 16; ++k) a[k] = in[i * 16 + k];
    isort(a, 16);
    for (int k = 0; k < 16; ++k) sorted[i * 16 + k] = a[k];
    int idx = (a[0] & 0x7fffffff) % 6;
    med[i] = (a[7] + a[8]) / 2 + m[idx / 3][idx % 3];
}
