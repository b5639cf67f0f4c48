//@ kernel workitem_1d_offset
//@ global 512
//@ local 32
//@ offset 100
//@ arg out uint 12800
// Every work-item function in 1 dimension(s) (see the directives for local size and offset):
// get_work_dim, get_global_size/id, get_local_size/id, get_num_groups, get_group_id,
// get_global_offset for dimensions 0..2 (those past get_work_dim() give sizes 1, ids and offsets
// 0) plus the id-like functions for dimensions 3 and up (0).
__kernel void workitem_1d_offset(__global uint *out)
{
    size_t lin = 0, mul = 1;
    for (uint d = 0; d < get_work_dim(); ++d) {
        lin += (get_global_id(d) - get_global_offset(d)) * mul;
        mul *= get_global_size(d);
    }
    __global uint *r = out + lin * 25;
    r[0] = get_work_dim();
    for (uint d = 0; d < 3; ++d) {
        r[1 + d * 7] = (uint)get_global_size(d);
        r[2 + d * 7] = (uint)get_global_id(d);
        r[3 + d * 7] = (uint)get_local_size(d);
        r[4 + d * 7] = (uint)get_local_id(d);
        r[5 + d * 7] = (uint)get_num_groups(d);
        r[6 + d * 7] = (uint)get_group_id(d);
        r[7 + d * 7] = (uint)get_global_offset(d);
    }
    /* dimindx >= 3 in the size-like functions (OpenCL C: 1) is checked by the suite
     * (workgroups/workitem_out_of_range): PoCL 3.1, the reference here, returns 0 */
    r[22] = 0;
    for (uint d = 0; d < 3; ++d)
        r[22] |= (uint)(get_num_groups(d) * get_local_size(d) == get_global_size(d)) << d;
    r[23] = (uint)(get_global_id(3) + get_local_id(5) * 10 + get_group_id(4) * 100 + get_global_offset(3) * 1000);
    r[24] = (uint)(get_group_id(0) * get_local_size(0) + get_local_id(0) + get_global_offset(0) == get_global_id(0));
}
