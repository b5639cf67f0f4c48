//@ kernel math_special_values
//@ global 1024
//@ local 64
//@ compare ulp 16
//@ arg in float 1024 special
//@ arg out float 16384
// Math builtins on special values (+-0, +-inf, NaN, denormals, +-max, +-min, +-1): results
// are defined by the C99 Annex F rules the OpenCL specification adopts.
__kernel void math_special_values(__global const float *in, __global float *o)
{
    int i = get_global_id(0);
    float x = in[i];
    float16 r = (float16)(sqrt(x), exp(x), log(x), sin(x), cos(x), atan(x), tanh(x), cbrt(x),
                          floor(x), ceil(x), rint(x), fabs(x), pow(x, 2.0f), fmod(x, 3.0f),
                          atan2(x, -1.0f), hypot(x, 1.0f));
    vstore16(r, i, o);
}
