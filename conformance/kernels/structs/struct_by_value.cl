//@ kernel struct_by_value
//@ global 1024
//@ local 64
//@ arg in float 1024 random -100 100
//@ arg bytes 16 0000004005000000ff0000000000c0bf
//@ arg out float 1024
//@ arg out int 1024
// A struct passed by value as a kernel argument (16 bytes: scale 2.0f, offset 5, mask 0xff,
// bias -1.5f), read field by field and passed on by value to a helper.
typedef struct { float scale; int offset; uint mask; float bias; } params_t;
static float apply(params_t p, float x) { return x * p.scale + p.bias; }
__kernel void struct_by_value(__global const float *in, params_t p, __global float *out,
                              __global int *idx)
{
    int i = get_global_id(0);
    out[i] = apply(p, in[i]);
    idx[i] = ((i + p.offset) & (int)p.mask) - p.offset;
}
