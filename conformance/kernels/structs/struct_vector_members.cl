//@ kernel struct_vector_members
//@ global 1024
//@ local 64
//@ arg in float4 1024 random -10 10
//@ arg in float 1024 random 0.1 2
//@ arg out float4 1024
//@ arg out float 1024
// Structs with vector members of several widths (float2, float3, float4, int8) and the
// alignment padding they imply, aligned attributes, and arrays of such structs in private memory.
typedef struct { float3 pos; float mass; float2 uv; int8 flags; } particle_t;
typedef struct __attribute__((aligned(32))) { float4 a; float b; } padded_t;
__kernel void struct_vector_members(__global const float4 *in, __global const float *m,
                                    __global float4 *out, __global float *sz)
{
    int i = get_global_id(0);
    particle_t ps[3];
    for (int k = 0; k < 3; ++k) {
        ps[k].pos = in[(i + k) % 1024].xyz;
        ps[k].mass = m[(i + k) % 1024];
        ps[k].uv = in[i].wx * (float)k;
        ps[k].flags = (int8)(k, i & 7, 1, 2, 3, 4, 5, 6);
    }
    padded_t p;
    p.a = in[i];
    p.b = m[i];
    float3 c = (ps[0].pos * ps[0].mass + ps[1].pos * ps[1].mass + ps[2].pos * ps[2].mass)
               / (ps[0].mass + ps[1].mass + ps[2].mass);
    out[i] = (float4)(c, ps[2].uv.x + (float)ps[1].flags.s1) + p.a * p.b;
    sz[i] = (float)(sizeof(particle_t) * 1000 + sizeof(padded_t));
}
