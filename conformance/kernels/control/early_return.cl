//@ kernel early_return
//@ global 1024
//@ local 64
//@ arg in float 1024 random -10 10
//@ arg out float 1024
// Early returns from a kernel (work-items leaving early, others continuing) and from helpers
// with several return points; every work-item still writes its output before returning.
static float classify(float x)
{
    if (x < -5.0f) return -1.0f;
    if (x > 5.0f) return 1.0f;
    for (int k = 0; k < 8; ++k)
        if (x < (float)(k - 4)) return (float)k * 0.125f;
    return 0.0f;
}
__kernel void early_return(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float x = in[i];
    if (x < -8.0f) { out[i] = -100.0f; return; }
    float c = classify(x);
    if (c == 0.0f) { out[i] = x; return; }
    out[i] = c * x;
}
