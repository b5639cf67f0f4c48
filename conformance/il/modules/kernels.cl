// OpenCL C compiled to SPIR-V at build time (clang -O2, llvm-spirv): kernels with a loop, a
// barrier and local memory, for the binary round trip, migration and checkpoint tests.
//   rounds_mix(buf, tile, add): buf[g] = tile[l] * 3 + (tile[ls - 1 - l] ^ add), after `rounds` rounds
__kernel void rounds_mix(__global uint *buf, __local uint *tile, uint add, uint rounds) {
    size_t g = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
    uint v = buf[g];
    for (uint r = 0; r < rounds; r++) {
        tile[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = tile[l] * 3u + (tile[ls - 1 - l] ^ add);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    buf[g] = v;
}
