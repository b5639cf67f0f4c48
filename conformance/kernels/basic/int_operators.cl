//@ kernel int_operators
//@ global 2048
//@ local 256
//@ arg in int 2048 random -30000 30000
//@ arg in int 2048 random 1 1000
//@ arg in uint 2048 random 0 4294967295
//@ arg out int 32768
// Every integer operator on int and uint: arithmetic, division and remainder of negative
// operands (truncation toward zero), shifts (count masked to the width), bitwise, logical,
// comparisons, unary, pre/post increment and decrement. Ranges keep signed results in range.
__kernel void int_operators(__global const int *a, __global const int *b,
                            __global const uint *c, __global int *o)
{
    int i = get_global_id(0);
    int x = a[i], y = b[i];
    uint u = c[i], v = c[(i + 7) % 2048];
    __global int *r = o + i * 16;
    r[0] = x + y;
    r[1] = x - y * 3;
    r[2] = x * y;
    r[3] = x / y;
    r[4] = x % y;
    r[5] = (x << (y & 7)) ^ (x >> (y & 15));
    r[6] = (int)((u >> (y & 31)) ^ (u << (x & 31)) ^ (u << 33u));   /* 33 masked to 1 */
    r[7] = (x & y) | (x ^ ~y);
    r[8] = (int)(u / (v | 1u)) + (int)(u % (v | 1u));
    r[9] = (x < y) + 2 * (x <= y) + 4 * (x > y) + 8 * (x >= y) + 16 * (x == y) + 32 * (x != y);
    r[10] = (!x) + 2 * (x && y) + 4 * (x || !y) + 8 * (u < v);
    r[11] = -x + +y;
    int p = x, q = y;
    int s = p++ + ++q;
    s += p-- - --q;
    r[12] = s * 10 + p - q;
    r[13] = (int)(u * v);                /* unsigned wraps: defined */
    r[14] = (int)(u - v) >> 3;
    r[15] = (short)x * (char)y + (uchar)u;
}
