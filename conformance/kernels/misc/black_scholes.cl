//@ kernel black_scholes
//@ global 4096
//@ local 128
//@ compare abs 0.001
//@ arg in float 4096 random 5 30
//@ arg in float 4096 random 1 100
//@ arg in float 4096 random 0.25 10
//@ arg out float 4096
//@ arg out float 4096
// Black-Scholes call and put prices (exp, log, sqrt, erf-based normal CDF); realistic mix of
// math builtins.
// Tolerance: call = s*N(d1) - x*e*N(d2) cancels (deep out of the money both terms are close), so
// a relative bound is ill-conditioned; the absolute error is what the OpenCL 1.2 bounds control.
// d1's numerator log(s/x) + 0.065t (|.| <= 4.1) carries about 1e-6 absolute error (log 3 ulp,
// divide 2.5 ulp, the add), divided by v*sqrt(t) >= 0.15: |dd1|, |dd2| <= 7e-6 (sqrt 3 ulp adds
// little). N' <= 0.4 gives 2.8e-6 in N, erf's 16 ulp another 0.5e-6: |dN| <= 3.3e-6 per library,
// 6.6e-6 between two. The price error is then <= (s + x) * 6.6e-6 <= 130 * 6.6e-6 = 8.6e-4
// (exp's 3 ulp adds < 2e-5): compare abs 0.001, on calls of 0 to 30 and puts of 0 to 100
// (measured between two libraries: up to 3e-5).
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
