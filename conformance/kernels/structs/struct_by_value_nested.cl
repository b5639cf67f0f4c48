//@ kernel struct_by_value_nested
//@ global 512
//@ local 32
//@ arg in float4 512 random -10 10
//@ arg bytes 48 0000803f00000040000040400000804002000000030000000000003f0000803e0a000000070005000000000000000000
//@ arg out float4 512
// A 48-byte struct by value holding a float4 (16-byte aligned), a nested struct of two ints
// and a second nested struct (float, float, int, short, char) with tail padding: layout must follow the
// OpenCL C alignment rules on both sides. Bytes: w = (1, 2, 3, 4) at 0, p = (2, 3) at 16,
// t at 24: lo = 0.5, hi = 0.25, n = 10, s = 7 at 36, c = 5 at 38, then 9 bytes of padding to 48
// (alignment of float4). The clamp bounds are -10 and 25, inside the range of v.
typedef struct { int a, b; } ipair;
typedef struct { float lo, hi; int n; short s; char c; } tail_t;
typedef struct { float4 w; ipair p; tail_t t; } conf_t;
__kernel void struct_by_value_nested(__global const float4 *in, conf_t c, __global float4 *out)
{
    int i = get_global_id(0);
    float4 v = in[i] * c.w + (float4)(c.p.a, c.p.b, c.t.n, c.t.s + c.t.c);
    out[i] = clamp(v, c.t.lo * -20.0f, c.t.hi * 100.0f);
}
