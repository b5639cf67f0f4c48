//@ kernel common_special
//@ global 1024
//@ local 64
//@ compare exact
//@ arg in float 1024 special
//@ arg in float 1024 random -2 2
//@ arg out float 4096
// Common functions on special values (+-0, +-inf, NaN, denormals, +-max, +-min): sign, clamp,
// max, min and step must treat them as the specification says.
__kernel void common_special(__global const float *x, __global const float *y, __global float *o)
{
    int i = get_global_id(0);
    float v = x[i];
    o[4 * i] = sign(v);
    o[4 * i + 1] = clamp(v, -1.0f, 1.0f);
    o[4 * i + 2] = max(v, y[i]) + min(y[i], v);
    o[4 * i + 3] = step(v, y[i]);
}
