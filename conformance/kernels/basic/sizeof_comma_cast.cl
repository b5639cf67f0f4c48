//@ kernel sizeof_comma_cast
//@ global 1024
//@ local 64
//@ arg in float 1024 random -100 100
//@ arg out int 8192
// sizeof of every type (3-vectors are 4 lanes), vec_step, the comma operator, explicit casts
// (truncation toward zero), typedefs, const and enum constants.
typedef struct { char c; int i; } pair_t;
typedef float real;
enum colour { RED = 3, GREEN, BLUE = 10 };
__kernel void sizeof_comma_cast(__global const float *in, __global int *o)
{
    int i = get_global_id(0);
    __global int *r = o + i * 8;
    real x = in[i];
    const int k = (int)x;
    r[0] = (int)(sizeof(char) + sizeof(short) * 10 + sizeof(int) * 100 + sizeof(long) * 1000);
    r[1] = (int)(sizeof(float3) + sizeof(int3) * 100 + sizeof(char16) * 10000 + sizeof(double8));
    r[2] = (int)(sizeof(pair_t) + sizeof(size_t) * 100);
    r[3] = vec_step(float3) * 100 + vec_step(int16) + vec_step(char2) * 1000 + vec_step(x);
    int t = 0;
    r[4] = (t = k, t * 2, t + 1);
    r[5] = k + (int)(-x * 2.0f) + (int)(uchar)(k & 255);
    r[6] = RED + GREEN * 10 + BLUE * 100 + (enum colour)k;
    r[7] = (int)(short)(k * 300) + (char)(k * 3);
}
