//@ kernel printf_double_long
//@ global 4
//@ local 2
//@ arg in double 4 random -1e10 1e10
//@ arg in long 4 random -9000000000000000000 9000000000000000000
// printf of doubles (%f %e %g %a with cl_khr_fp64) and 64-bit integers (%ld %lu %lx %lo).
// Work-group 0 prints. The doubles printed are exactly representable as float: PoCL 3.1, the
// reference, converts double printf arguments to float; doubles that need all 53 bits are
// checked by the suite's printf area against the host's printf (docs/conformance.md).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void printf_double_long(__global const double *d, __global const long *l)
{
    int i = get_global_id(0);
    if (get_group_id(0) != 0) return;
    double x = (double)(float)d[i];
    printf("d f=%f e=%.10e g=%g a=%a\n", x, x, x, x);
    printf("l d=%ld u=%lu x=%lx o=%lo\n", l[i], (ulong)l[i], (ulong)l[i], (ulong)l[i]);
}
