//@ kernel implicit_conversions
//@ global 1024
//@ local 64
//@ arg in int 1024 random -100000 100000
//@ arg in float 1024 random -1000 1000
//@ arg in uchar 1024 random 0 255
//@ arg out float 1024
//@ arg out int 4096
//@ arg out double 1024
// Implicit conversions: integer promotion of char/short, usual arithmetic conversions
// (int + float, uint vs int comparison, long vs uint), assignment narrowing, float to int
// truncation in assignment (in range), scalar-to-vector widening, bool results, double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void implicit_conversions(__global const int *n, __global const float *f,
                                   __global const uchar *c, __global float *of,
                                   __global int *oi, __global double *od)
{
    int i = get_global_id(0);
    int k = n[i];
    float x = f[i];
    uchar u = c[i];
    char s = (char)(u - 128);
    of[i] = k + x + u;
    short h = s * s;
    int t = x;
    oi[4 * i] = s + u + h;
    oi[4 * i + 1] = t;
    oi[4 * i + 2] = (k < 0u) + 2 * ((long)k < 4000000000u) + 4 * (s < u);
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f) * k + 0.5f;
    oi[4 * i + 3] = (int)v.w + (u > 200) + (x > 0.0f);
    od[i] = x * 2.0 + k + (float)u;
}
