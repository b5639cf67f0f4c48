//@ kernel vec_short
//@ global 1024
//@ local 64
//@ arg in short 33792 random -180 180
//@ arg in short 33792 random -180 180
//@ arg out short 236544
//@ arg out short 33792
// short2, short3, short4, short8, short16: every operator component-wise, vector literals, scalar
// widening in mixed vector/scalar operations, comparisons giving -1/0 in the signed integer
// vector of the same size, the component-wise ?: operator. Ranges keep signed results in range.
__kernel void vec_short(__global const short *a, __global const short *b, __global short *o, __global short *m)
{
    const size_t i = get_global_id(0), n = get_global_size(0);
    {
        const short2 x = vload2(i, a + 0 * n), y = vload2(i, b + 0 * n);
        __global short *r = o + 0 * n * 7;
        vstore2(x + y, i, r + 0 * n * 2);
        vstore2(x - y + (short2)(1, 2), i, r + 1 * n * 2);
        vstore2(x * y, i, r + 2 * n * 2);
        vstore2(x / (y | (short2)1) + x % (y | (short2)1), i, r + 3 * n * 2);
        vstore2((x & y) | (~x ^ y), i, r + 4 * n * 2);
        vstore2((x >> (short)1) ^ (y & (short)5) ^ -x, i, r + 5 * n * 2);
        vstore2(x > y ? x : y, i, r + 6 * n * 2);
        vstore2((short2)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 0 * n);
    }
    {
        const short3 x = vload3(i, a + 2 * n), y = vload3(i, b + 2 * n);
        __global short *r = o + 2 * n * 7;
        vstore3(x + y, i, r + 0 * n * 3);
        vstore3(x - y + (short3)(1, 2, 3), i, r + 1 * n * 3);
        vstore3(x * y, i, r + 2 * n * 3);
        vstore3(x / (y | (short3)1) + x % (y | (short3)1), i, r + 3 * n * 3);
        vstore3((x & y) | (~x ^ y), i, r + 4 * n * 3);
        vstore3((x >> (short)1) ^ (y & (short)5) ^ -x, i, r + 5 * n * 3);
        vstore3(x > y ? x : y, i, r + 6 * n * 3);
        vstore3((short3)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 2 * n);
    }
    {
        const short4 x = vload4(i, a + 5 * n), y = vload4(i, b + 5 * n);
        __global short *r = o + 5 * n * 7;
        vstore4(x + y, i, r + 0 * n * 4);
        vstore4(x - y + (short4)(1, 2, 3, 4), i, r + 1 * n * 4);
        vstore4(x * y, i, r + 2 * n * 4);
        vstore4(x / (y | (short4)1) + x % (y | (short4)1), i, r + 3 * n * 4);
        vstore4((x & y) | (~x ^ y), i, r + 4 * n * 4);
        vstore4((x >> (short)1) ^ (y & (short)5) ^ -x, i, r + 5 * n * 4);
        vstore4(x > y ? x : y, i, r + 6 * n * 4);
        vstore4((short4)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 5 * n);
    }
    {
        const short8 x = vload8(i, a + 9 * n), y = vload8(i, b + 9 * n);
        __global short *r = o + 9 * n * 7;
        vstore8(x + y, i, r + 0 * n * 8);
        vstore8(x - y + (short8)(1, 2, 3, 4, 5, 6, 7, 1), i, r + 1 * n * 8);
        vstore8(x * y, i, r + 2 * n * 8);
        vstore8(x / (y | (short8)1) + x % (y | (short8)1), i, r + 3 * n * 8);
        vstore8((x & y) | (~x ^ y), i, r + 4 * n * 8);
        vstore8((x >> (short)1) ^ (y & (short)5) ^ -x, i, r + 5 * n * 8);
        vstore8(x > y ? x : y, i, r + 6 * n * 8);
        vstore8((short8)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 9 * n);
    }
    {
        const short16 x = vload16(i, a + 17 * n), y = vload16(i, b + 17 * n);
        __global short *r = o + 17 * n * 7;
        vstore16(x + y, i, r + 0 * n * 16);
        vstore16(x - y + (short16)(1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 1, 2), i, r + 1 * n * 16);
        vstore16(x * y, i, r + 2 * n * 16);
        vstore16(x / (y | (short16)1) + x % (y | (short16)1), i, r + 3 * n * 16);
        vstore16((x & y) | (~x ^ y), i, r + 4 * n * 16);
        vstore16((x >> (short)1) ^ (y & (short)5) ^ -x, i, r + 5 * n * 16);
        vstore16(x > y ? x : y, i, r + 6 * n * 16);
        vstore16((short16)((x < y) ^ (x == y) ^ (x != y) & (x >= y) | (x <= y) & (x > y) ^ (!x) ^ (x && y) ^ (x || y)), i, m + 17 * n);
    }
}
