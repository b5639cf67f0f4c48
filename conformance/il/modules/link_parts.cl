// OpenCL C compiled to SPIR-V as a library part (clang -c, then llvm-spirv): the kernel calls
// helper(), which only the OpenCL C object linked with it defines; spv_square() is defined
// here and called by the OpenCL C object's kernel.
int helper(int x);

int spv_square(int x) { return x * x; }

__kernel void il_calls_c(__global int *a) {
    size_t i = get_global_id(0);
    a[i] = helper(a[i]) + 1;
}
