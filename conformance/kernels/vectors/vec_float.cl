//@ kernel vec_float
//@ global 1024
//@ local 64
//@ compare ulp 3
//@ arg in float 33792 random -1000 1000
//@ arg in float 33792 random -1000 1000
//@ arg out float 236544
//@ arg out int 33792
// float2, float3, float4, float8, float16: every operator component-wise, vector literals, scalar
// widening in mixed vector/scalar operations, comparisons giving -1/0 in the signed integer
// vector of the same size, the component-wise ?: operator. Ranges keep signed results in range.
__kernel void vec_float(__global const float *a, __global const float *b, __global float *o, __global int *m)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        const float2 x = vload2(i, a + 0 * n), y = vload2(i, b + 0 * n);
        __global float *r = o + 0 * n * 7;
        vstore2(x + y, i, r + 0 * n * 2);
        vstore2(x - y * (float)2, i, r + 1 * n * 2);
        vstore2(x * y, i, r + 2 * n * 2);
        vstore2(x / (fabs(y) + (float2)1), i, r + 3 * n * 2);
        vstore2(-x + (float2)(0.5, 1.5), i, r + 4 * n * 2);
        vstore2(x > y ? x : y, i, r + 5 * n * 2);
        vstore2(x * 0.5f + (float)1, i, r + 6 * n * 2);
        vstore2((int2)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 0 * n);
    }
    {
        const float3 x = vload3(i, a + 2 * n), y = vload3(i, b + 2 * n);
        __global float *r = o + 2 * n * 7;
        vstore3(x + y, i, r + 0 * n * 3);
        vstore3(x - y * (float)2, i, r + 1 * n * 3);
        vstore3(x * y, i, r + 2 * n * 3);
        vstore3(x / (fabs(y) + (float3)1), i, r + 3 * n * 3);
        vstore3(-x + (float3)(0.5, 1.5, 2.5), i, r + 4 * n * 3);
        vstore3(x > y ? x : y, i, r + 5 * n * 3);
        vstore3(x * 0.5f + (float)1, i, r + 6 * n * 3);
        vstore3((int3)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 2 * n);
    }
    {
        const float4 x = vload4(i, a + 5 * n), y = vload4(i, b + 5 * n);
        __global float *r = o + 5 * n * 7;
        vstore4(x + y, i, r + 0 * n * 4);
        vstore4(x - y * (float)2, i, r + 1 * n * 4);
        vstore4(x * y, i, r + 2 * n * 4);
        vstore4(x / (fabs(y) + (float4)1), i, r + 3 * n * 4);
        vstore4(-x + (float4)(0.5, 1.5, 2.5, 3.5), i, r + 4 * n * 4);
        vstore4(x > y ? x : y, i, r + 5 * n * 4);
        vstore4(x * 0.5f + (float)1, i, r + 6 * n * 4);
        vstore4((int4)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 5 * n);
    }
    {
        const float8 x = vload8(i, a + 9 * n), y = vload8(i, b + 9 * n);
        __global float *r = o + 9 * n * 7;
        vstore8(x + y, i, r + 0 * n * 8);
        vstore8(x - y * (float)2, i, r + 1 * n * 8);
        vstore8(x * y, i, r + 2 * n * 8);
        vstore8(x / (fabs(y) + (float8)1), i, r + 3 * n * 8);
        vstore8(-x + (float8)(0.5, 1.5, 2.5, 3.5, 4.5, 0.5, 1.5, 2.5), i, r + 4 * n * 8);
        vstore8(x > y ? x : y, i, r + 5 * n * 8);
        vstore8(x * 0.5f + (float)1, i, r + 6 * n * 8);
        vstore8((int8)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 9 * n);
    }
    {
        const float16 x = vload16(i, a + 17 * n), y = vload16(i, b + 17 * n);
        __global float *r = o + 17 * n * 7;
        vstore16(x + y, i, r + 0 * n * 16);
        vstore16(x - y * (float)2, i, r + 1 * n * 16);
        vstore16(x * y, i, r + 2 * n * 16);
        vstore16(x / (fabs(y) + (float16)1), i, r + 3 * n * 16);
        vstore16(-x + (float16)(0.5, 1.5, 2.5, 3.5, 4.5, 0.5, 1.5, 2.5, 3.5, 4.5, 0.5, 1.5, 2.5, 3.5, 4.5, 0.5), i, r + 4 * n * 16);
        vstore16(x > y ? x : y, i, r + 5 * n * 16);
        vstore16(x * 0.5f + (float)1, i, r + 6 * n * 16);
        vstore16((int16)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y)), i, m + 17 * n);
    }
}
