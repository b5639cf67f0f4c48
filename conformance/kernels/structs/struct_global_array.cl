//@ kernel struct_global_array
//@ global 2048
//@ local 256
//@ arg in int 8192 random -100000 100000
//@ arg out int 8192
// A __global buffer viewed as an array of structs without padding (four ints), read and
// written through struct pointers, with struct member pointers and pointer arithmetic.
typedef struct { int a; int b; int c; int d; } quad_t;
__kernel void struct_global_array(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    __global const quad_t *src = (__global const quad_t *)in;
    __global quad_t *dst = (__global quad_t *)out;
    quad_t q = src[i];
    __global const quad_t *nb = src + ((i + 1) % 2048);
    quad_t r;
    r.a = q.a + nb->d;
    r.b = q.b - nb->c;
    r.c = max(q.c, nb->b);
    r.d = q.d ^ nb->a;
    dst[i] = r;
    __global int *pc = &dst[i].c;
    *pc += 1;
}
