//@ kernel workitem_null_local
//@ global 48 20
//@ arg in float 960 random -10 10
//@ arg out float 960
//@ arg out uint 2880
// A 2-D launch with no local size (NULL): the implementation picks the work-group shape, so
// only values independent of that choice are written (global ids, sizes, work dim, offsets).
__kernel void workitem_null_local(__global const float *in, __global float *out, __global uint *ids)
{
    size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    size_t i = y * w + x;
    out[i] = in[i] * (float)(x + 1) - (float)y;
    ids[3 * i] = (uint)(x | (y << 16));
    ids[3 * i + 1] = (uint)(get_global_size(0) * 1000 + get_global_size(1));
    ids[3 * i + 2] = get_work_dim() + (uint)get_global_offset(0) + (uint)get_global_offset(1);
}
