//@ kernel float_operators
//@ global 2048
//@ local 64
//@ compare ulp 3
//@ arg in float 2048 random -1000 1000
//@ arg in float 2048 random 0.5 100
//@ arg out float 16384
// Float operators: + - * / (division 2.5 ulp in OpenCL 1.2), unary minus, comparisons
// producing 0/1, compound assignment, mixed int/float promotion, the ternary operator.
__kernel void float_operators(__global const float *a, __global const float *b, __global float *o)
{
    int i = get_global_id(0);
    float x = a[i], y = b[i];
    __global float *r = o + i * 8;
    r[0] = x + y;
    r[1] = x - y;
    r[2] = x * y;
    r[3] = x / y;
    r[4] = -x + (x < y) + 2 * (x >= y) + 4 * (x == x) + 8 * (x != y);
    float acc = x;
    acc += y; acc *= 0.5f; acc -= 1.0f; acc /= y;
    r[5] = acc;
    r[6] = x * i + (i % 7) / y;
    r[7] = x > 0.0f ? x : y;
}
