//@ kernel unions
//@ global 1024
//@ local 64
//@ arg in float 1024 random -1000 1000
//@ arg in uint 1024 random 0 4294967295
//@ arg out uint 4096
// Unions for type punning (float <-> uint <-> uchar4 <-> ushort2), unions inside structs,
// union arrays in private memory and unions with vector members.
typedef union { float f; uint u; uchar4 b; ushort2 h; } pun_t;
typedef struct { int tag; union { int i; float f; } v; } tagged_t;
typedef union { float4 v; float a[4]; uint4 bits; } vecpun_t;
__kernel void unions(__global const float *fin, __global const uint *uin, __global uint *out)
{
    int i = get_global_id(0);
    pun_t p;
    p.f = fin[i];
    uint bits = p.u;
    pun_t q;
    q.u = uin[i];
    uchar4 bytes = q.b;
    tagged_t t[2];
    t[0].tag = 0; t[0].v.i = (int)(uin[i] & 0xFFFF);
    t[1].tag = 1; t[1].v.f = fin[i] * 0.5f;
    vecpun_t vp;
    vp.v = (float4)(fin[i], 1.0f, -2.0f, 0.25f);
    vp.a[2] = fin[(i + 1) % 1024];
    out[4 * i] = bits ^ (uint)q.h.y;
    out[4 * i + 1] = (uint)bytes.x + ((uint)bytes.w << 8) + ((uint)bytes.y << 16);
    out[4 * i + 2] = (uint)t[0].v.i + as_uint(t[1].v.f) * (uint)t[1].tag;
    out[4 * i + 3] = vp.bits.z ^ vp.bits.w;
}
