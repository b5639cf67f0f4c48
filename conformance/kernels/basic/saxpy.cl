//@ kernel saxpy
//@ global 4096
//@ local 128
//@ compare ulp 1
//@ arg scalar float 2.5
//@ arg in float 4096 random -1000 1000
//@ arg in float 4096 random -1000 1000
//@ arg out float 4096
// y = a*x + y with a by-value float scalar (contraction off by default keeps it a mul + add).
__kernel void saxpy(const float a, __global const float *x, __global const float *y,
                    __global float *out)
{
    int i = get_global_id(0);
    out[i] = a * x[i] + y[i];
}
