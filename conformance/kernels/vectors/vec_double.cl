//@ kernel vec_double
//@ global 1024
//@ local 64
//@ compare ulp 0
//@ arg in double 33792 random -1000 1000
//@ arg in double 33792 random -1000 1000
//@ arg out double 236544
//@ arg out long 33792
// double2, double3, double4, double8, double16: every operator component-wise, vector literals, scalar
// widening in mixed vector/scalar operations, comparisons giving -1/0 in the signed integer
// vector of the same size, the component-wise ?: operator. Ranges keep signed results in range.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void vec_double(__global const double *a, __global const double *b, __global double *o, __global long *m)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        const double2 x = vload2(i, a + 0 * n), y = vload2(i, b + 0 * n);
        __global double *r = o + 0 * n * 7;
        vstore2(x + y, i, r + 0 * n * 2);
        vstore2(x - y * (double)2, i, r + 1 * n * 2);
        vstore2(x * y, i, r + 2 * n * 2);
        vstore2(x / (fabs(y) + (double2)1), i, r + 3 * n * 2);
        vstore2(-x + (double2)(0.5, 1.5), i, r + 4 * n * 2);
        vstore2(x > y ? x : y, i, r + 5 * n * 2);
        vstore2(x * 0.5 + (double)1, i, r + 6 * n * 2);
        vstore2((long2)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 0 * n);
    }
    {
        const double3 x = vload3(i, a + 2 * n), y = vload3(i, b + 2 * n);
        __global double *r = o + 2 * n * 7;
        vstore3(x + y, i, r + 0 * n * 3);
        vstore3(x - y * (double)2, i, r + 1 * n * 3);
        vstore3(x * y, i, r + 2 * n * 3);
        vstore3(x / (fabs(y) + (double3)1), i, r + 3 * n * 3);
        vstore3(-x + (double3)(0.5, 1.5, 2.5), i, r + 4 * n * 3);
        vstore3(x > y ? x : y, i, r + 5 * n * 3);
        vstore3(x * 0.5 + (double)1, i, r + 6 * n * 3);
        vstore3((long3)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 2 * n);
    }
    {
        const double4 x = vload4(i, a + 5 * n), y = vload4(i, b + 5 * n);
        __global double *r = o + 5 * n * 7;
        vstore4(x + y, i, r + 0 * n * 4);
        vstore4(x - y * (double)2, i, r + 1 * n * 4);
        vstore4(x * y, i, r + 2 * n * 4);
        vstore4(x / (fabs(y) + (double4)1), i, r + 3 * n * 4);
        vstore4(-x + (double4)(0.5, 1.5, 2.5, 3.5), i, r + 4 * n * 4);
        vstore4(x > y ? x : y, i, r + 5 * n * 4);
        vstore4(x * 0.5 + (double)1, i, r + 6 * n * 4);
        vstore4((long4)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 5 * n);
    }
    {
        const double8 x = vload8(i, a + 9 * n), y = vload8(i, b + 9 * n);
        __global double *r = o + 9 * n * 7;
        vstore8(x + y, i, r + 0 * n * 8);
        vstore8(x - y * (double)2, i, r + 1 * n * 8);
        vstore8(x * y, i, r + 2 * n * 8);
        vstore8(x / (fabs(y) + (double8)1), i, r + 3 * n * 8);
        vstore8(-x + (double8)(0.5, 1.5, 2.5, 3.5, 4.5, 0.5, 1.5, 2.5), i, r + 4 * n * 8);
        vstore8(x > y ? x : y, i, r + 5 * n * 8);
        vstore8(x * 0.5 + (double)1, i, r + 6 * n * 8);
        vstore8((long8)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 9 * n);
    }
    {
        const double16 x = vload16(i, a + 17 * n), y = vload16(i, b + 17 * n);
        __global double *r = o + 17 * n * 7;
        vstore16(x + y, i, r + 0 * n * 16);
        vstore16(x - y * (double)2, i, r + 1 * n * 16);
        vstore16(x * y, i, r + 2 * n * 16);
        vstore16(x / (fabs(y) + (double16)1), i, r + 3 * n * 16);
        vstore16(-x + (double16)(0.5, 1.5, 2.5, 3.5, 4.5, 0.5, 1.5, 2.5, 3.5, 4.5, 0.5, 1.5, 2.5, 3.5, 4.5, 0.5), i, r + 4 * n * 16);
        vstore16(x > y ? x : y, i, r + 5 * n * 16);
        vstore16(x * 0.5 + (double)1, i, r + 6 * n * 16);
        vstore16((long16)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 17 * n);
    }
}
