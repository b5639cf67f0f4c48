//@ kernel printf_vectors
//@ global 4
//@ local 2
//@ arg in float4 4 random -10 10
//@ arg in int4 4 random -1000 1000
// printf of vectors of widths 2, 3, 4, 8, 16: %v2hlf %v3hlg %v4hlf (float vectors need the hl length), %v8hhd, %v16hhx, %v4hld,
// %v4hlx, %v2hd, %v2lu, with precisions. Only work-group 0 prints.
__kernel void printf_vectors(__global const float4 *f, __global const int4 *n)
{
    int i = get_global_id(0);
    if (get_group_id(0) != 0) return;
    float4 x = f[i];
    int4 k = n[i];
    printf("v4hlf=%v4hlf v2hlf=%.2v2hlf v3hlg=%v3hlg\n", x, x.xy, x.xyz);
    printf("v4hld=%v4hld v4hlx=%v4hlx v2hd=%v2hd\n", k, k, convert_short2(k.xy));
    printf("v8hhd=%v8hhd\n", (char8)((char)i, 1, 2, 3, -4, 5, -6, 7));
    printf("v16hhx=%v16hhx\n", (uchar16)((uchar)i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255));
    printf("v2lu=%v2lu\n", (ulong2)((ulong)i, 18446744073709551615UL));
}
