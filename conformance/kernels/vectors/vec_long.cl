//@ kernel vec_long
//@ global 1024
//@ local 64
//@ arg in long 33792 random -3000000000 3000000000
//@ arg in long 33792 random -3000000000 3000000000
//@ arg out long 236544
//@ arg out long 33792
// long2, long3, long4, long8, long16: every operator component-wise, vector literals, scalar
// widening in mixed vector/scalar operations, comparisons giving -1/0 in the signed integer
// vector of the same size, the component-wise ?: operator. Ranges keep signed results in range.
__kernel void vec_long(__global const long *a, __global const long *b, __global long *o, __global long *m)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        const long2 x = vload2(i, a + 0 * n), y = vload2(i, b + 0 * n);
        __global long *r = o + 0 * n * 7;
        vstore2(x + y, i, r + 0 * n * 2);
        vstore2(x - y + (long2)(1, 2), i, r + 1 * n * 2);
        vstore2(x * y, i, r + 2 * n * 2);
        vstore2(x / (y | (long2)1) + x % (y | (long2)1), i, r + 3 * n * 2);
        vstore2((x & y) | (~x ^ y), i, r + 4 * n * 2);
        vstore2((x >> (long)1) ^ (y & (long)5) ^ -x, i, r + 5 * n * 2);
        vstore2(x > y ? x : y, i, r + 6 * n * 2);
        vstore2((long2)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 0 * n);
    }
    {
        const long3 x = vload3(i, a + 2 * n), y = vload3(i, b + 2 * n);
        __global long *r = o + 2 * n * 7;
        vstore3(x + y, i, r + 0 * n * 3);
        vstore3(x - y + (long3)(1, 2, 3), i, r + 1 * n * 3);
        vstore3(x * y, i, r + 2 * n * 3);
        vstore3(x / (y | (long3)1) + x % (y | (long3)1), i, r + 3 * n * 3);
        vstore3((x & y) | (~x ^ y), i, r + 4 * n * 3);
        vstore3((x >> (long)1) ^ (y & (long)5) ^ -x, i, r + 5 * n * 3);
        vstore3(x > y ? x : y, i, r + 6 * n * 3);
        vstore3((long3)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 2 * n);
    }
    {
        const long4 x = vload4(i, a + 5 * n), y = vload4(i, b + 5 * n);
        __global long *r = o + 5 * n * 7;
        vstore4(x + y, i, r + 0 * n * 4);
        vstore4(x - y + (long4)(1, 2, 3, 4), i, r + 1 * n * 4);
        vstore4(x * y, i, r + 2 * n * 4);
        vstore4(x / (y | (long4)1) + x % (y | (long4)1), i, r + 3 * n * 4);
        vstore4((x & y) | (~x ^ y), i, r + 4 * n * 4);
        vstore4((x >> (long)1) ^ (y & (long)5) ^ -x, i, r + 5 * n * 4);
        vstore4(x > y ? x : y, i, r + 6 * n * 4);
        vstore4((long4)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 5 * n);
    }
    {
        const long8 x = vload8(i, a + 9 * n), y = vload8(i, b + 9 * n);
        __global long *r = o + 9 * n * 7;
        vstore8(x + y, i, r + 0 * n * 8);
        vstore8(x - y + (long8)(1, 2, 3, 4, 5, 6, 7, 1), i, r + 1 * n * 8);
        vstore8(x * y, i, r + 2 * n * 8);
        vstore8(x / (y | (long8)1) + x % (y | (long8)1), i, r + 3 * n * 8);
        vstore8((x & y) | (~x ^ y), i, r + 4 * n * 8);
        vstore8((x >> (long)1) ^ (y & (long)5) ^ -x, i, r + 5 * n * 8);
        vstore8(x > y ? x : y, i, r + 6 * n * 8);
        vstore8((long8)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 9 * n);
    }
    {
        const long16 x = vload16(i, a + 17 * n), y = vload16(i, b + 17 * n);
        __global long *r = o + 17 * n * 7;
        vstore16(x + y, i, r + 0 * n * 16);
        vstore16(x - y + (long16)(1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2), i, r + 1 * n * 16);
        vstore16(x * y, i, r + 2 * n * 16);
        vstore16(x / (y | (long16)1) + x % (y | (long16)1), i, r + 3 * n * 16);
        vstore16((x & y) | (~x ^ y), i, r + 4 * n * 16);
        vstore16((x >> (long)1) ^ (y & (long)5) ^ -x, i, r + 5 * n * 16);
        vstore16(x > y ? x : y, i, r + 6 * n * 16);
        vstore16((long16)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 17 * n);
    }
}
