//@ kernel black_scholes
//@ global 4096
//@ local 128
//@ compare rel 0.00001
//@ arg in float 4096 random 5 30
//@ arg in float 4096 random 1 100
//@ arg in float 4096 random 0.25 10
//@ arg out float 4096
//@ arg out float 4096
// Black-Scholes call and put prices (exp, log, sqrt, erf-based normal CDF); realistic mix of
// math builtins.
static float cnd(float d) { return 0.5f * (1.0f + erf(d * M_SQRT1_2_F)); }
__kernel void black_scholes(__global const float *S, __global const float *X, __global const float *T,
                            __global float *call, __global float *put)
{
    int i = get_global_id(0);
    const float r = 0.02f, v = 0.30f;
    float s = S[i], x = X[i], t = T[i];
    float sq = sqrt(t);
    float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float e = exp(-r * t);
    call[i] = s * cnd(d1) - x * e * cnd(d2);
    put[i] = x * e * cnd(-d2) - s * cnd(-d1);
}
