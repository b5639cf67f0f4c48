//@ kernel constant_lut_math
//@ global 2048
//@ local 128
//@ compare ulp 4
//@ arg in float 2048 random 0 1
//@ arg out float 2048
// A __constant sine lookup table (65 entries) with linear interpolation, a coefficient table
// for a Horner polynomial, both read with data-dependent indices.
__constant float kSin[65] = {
 0.000000f, 0.024541f, 0.049068f, 0.073565f, 0.098017f, 0.122411f, 0.146730f, 0.170962f,
 0.195090f, 0.219101f, 0.242980f, 0.266713f, 0.290285f, 0.313682f, 0.336890f, 0.359895f,
 0.382683f, 0.405241f, 0.427555f, 0.449611f, 0.471397f, 0.492898f, 0.514103f, 0.534998f,
 0.555570f, 0.575808f, 0.595699f, 0.615232f, 0.634393f, 0.653173f, 0.671559f, 0.689541f,
 0.707107f, 0.724247f, 0.740951f, 0.757209f, 0.773010f, 0.788346f, 0.803208f, 0.817585f,
 0.831470f, 0.844854f, 0.857729f, 0.870087f, 0.881921f, 0.893224f, 0.903989f, 0.914210f,
 0.923880f, 0.932993f, 0.941544f, 0.949528f, 0.956940f, 0.963776f, 0.970031f, 0.975702f,
 0.980785f, 0.985278f, 0.989177f, 0.992480f, 0.995185f, 0.997290f, 0.998795f, 0.999699f, 1.000000f };
__constant float kPoly[5] = { 1.0f, -0.5f, 0.25f, -0.125f, 0.0625f };
__kernel void constant_lut_math(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float x = in[i] * 64.0f;
    int k = min((int)x, 63);
    float fr = x - (float)k;
    float s = kSin[k] + (kSin[k + 1] - kSin[k]) * fr;
    float p = kPoly[4];
    for (int j = 3; j >= 0; --j) p = p * in[i] + kPoly[j];
    out[i] = s + p;
}
