//@ kernel common_special
//@ global 1024
//@ local 64
//@ compare exact
//@ arg in float 1024 special
//@ arg in float 1024 random -2 2
//@ arg out float 7168
// Common functions on special values (+-0, +-inf, NaN, denormals, +-max, +-min): sign, clamp,
// max, min and step must treat them as the specification says. max/min with a NaN operand are
// undefined, so they get y in place of a NaN; NaN goes to fmax/fmin, which define it (the other
// operand is returned).
__kernel void common_special(__global const float *x, __global const float *y, __global float *o)
{
    int i = get_global_id(0);
    float v = x[i], w = y[i];
    float m = isnan(v) ? w : v;
    __global float *r = o + 7 * i;
    r[0] = sign(v);
    r[1] = clamp(v, -1.0f, 1.0f);
    r[2] = max(m, w);
    r[3] = min(w, m);
    r[4] = fmax(v, w);
    r[5] = fmin(w, v);
    r[6] = step(v, w);
}
