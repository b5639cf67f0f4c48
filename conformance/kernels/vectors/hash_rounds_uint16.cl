//@ kernel hash_rounds_uint16
//@ global 512
//@ local 32
//@ arg in uint 131072 random 0 4294967295
//@ arg in uint 512 random 1 3
//@ arg scalar uint 2654435761
//@ arg out uint 32768
// An MD5-shaped compression on sixteen lanes at once (uint16), as hashcat's vectorised kernels
// are: a private 16-word message, four rounds of 16 steps with rotations, a data-dependent count
// of blocks, several work-item functions. On PoCL the SPIR back end hands it the step constants
// of its block loop as values loaded at the kernel's entry (lowering/spir_loop_constants.c).
#define STEP(f, a, b, c, d, x, k, s) { a += f(b, c, d) + x + (uint16)(k); a = rotate(a, (uint16)(s)); a += b; }
#define F(x, y, z) (z ^ (x & (y ^ z)))
#define G(x, y, z) (y ^ (z & (x ^ y)))
#define H(x, y, z) (x ^ y ^ z)
#define I(x, y, z) (y ^ (x | ~z))

__kernel void hash_rounds_uint16(__global const uint *restrict msg, __global const uint *restrict blocks,
                                 uint seed, __global uint *restrict out)
{
    const size_t gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
    const uint salt = seed ^ (uint)(lid * 0x9e3779b9u) ^ (uint)(grp << 16) ^ (uint)get_local_size(0);
    uint16 a = (uint16)(0x67452301u ^ salt), b = (uint16)(0xefcdab89u), c = (uint16)(0x98badcfeu), d = (uint16)(0x10325476u);
    const uint n = blocks[gid];
    for (uint blk = 0; blk < n; blk++) {
        uint16 w[16];
        for (int k = 0; k < 16; k++)
            w[k] = vload16(0, msg + (((gid * 4 + blk) * 16 + k) % 8192) * 16) + (uint16)(blk);
        const uint16 a0 = a, b0 = b, c0 = c, d0 = d;
        STEP(F, a, b, c, d, w[0], 0xd76aa478u, 7);   STEP(F, d, a, b, c, w[1], 0xe8c7b756u, 12);
        STEP(F, c, d, a, b, w[2], 0x242070dbu, 17);  STEP(F, b, c, d, a, w[3], 0xc1bdceeeu, 22);
        STEP(F, a, b, c, d, w[4], 0xf57c0fafu, 7);   STEP(F, d, a, b, c, w[5], 0x4787c62au, 12);
        STEP(F, c, d, a, b, w[6], 0xa8304613u, 17);  STEP(F, b, c, d, a, w[7], 0xfd469501u, 22);
        STEP(F, a, b, c, d, w[8], 0x698098d8u, 7);   STEP(F, d, a, b, c, w[9], 0x8b44f7afu, 12);
        STEP(F, c, d, a, b, w[10], 0xffff5bb1u, 17); STEP(F, b, c, d, a, w[11], 0x895cd7beu, 22);
        STEP(F, a, b, c, d, w[12], 0x6b901122u, 7);  STEP(F, d, a, b, c, w[13], 0xfd987193u, 12);
        STEP(F, c, d, a, b, w[14], 0xa679438eu, 17); STEP(F, b, c, d, a, w[15], 0x49b40821u, 22);
        STEP(G, a, b, c, d, w[1], 0xf61e2562u, 5);   STEP(G, d, a, b, c, w[6], 0xc040b340u, 9);
        STEP(G, c, d, a, b, w[11], 0x265e5a51u, 14); STEP(G, b, c, d, a, w[0], 0xe9b6c7aau, 20);
        STEP(G, a, b, c, d, w[5], 0xd62f105du, 5);   STEP(G, d, a, b, c, w[10], 0x02441453u, 9);
        STEP(G, c, d, a, b, w[15], 0xd8a1e681u, 14); STEP(G, b, c, d, a, w[4], 0xe7d3fbc8u, 20);
        STEP(G, a, b, c, d, w[9], 0x21e1cde6u, 5);   STEP(G, d, a, b, c, w[14], 0xc33707d6u, 9);
        STEP(G, c, d, a, b, w[3], 0xf4d50d87u, 14);  STEP(G, b, c, d, a, w[8], 0x455a14edu, 20);
        STEP(G, a, b, c, d, w[13], 0xa9e3e905u, 5);  STEP(G, d, a, b, c, w[2], 0xfcefa3f8u, 9);
        STEP(G, c, d, a, b, w[7], 0x676f02d9u, 14);  STEP(G, b, c, d, a, w[12], 0x8d2a4c8au, 20);
        STEP(H, a, b, c, d, w[5], 0xfffa3942u, 4);   STEP(H, d, a, b, c, w[8], 0x8771f681u, 11);
        STEP(H, c, d, a, b, w[11], 0x6d9d6122u, 16); STEP(H, b, c, d, a, w[14], 0xfde5380cu, 23);
        STEP(H, a, b, c, d, w[1], 0xa4beea44u, 4);   STEP(H, d, a, b, c, w[4], 0x4bdecfa9u, 11);
        STEP(H, c, d, a, b, w[7], 0xf6bb4b60u, 16);  STEP(H, b, c, d, a, w[10], 0xbebfbc70u, 23);
        STEP(H, a, b, c, d, w[13], 0x289b7ec6u, 4);  STEP(H, d, a, b, c, w[0], 0xeaa127fau, 11);
        STEP(H, c, d, a, b, w[3], 0xd4ef3085u, 16);  STEP(H, b, c, d, a, w[6], 0x04881d05u, 23);
        STEP(H, a, b, c, d, w[9], 0xd9d4d039u, 4);   STEP(H, d, a, b, c, w[12], 0xe6db99e5u, 11);
        STEP(H, c, d, a, b, w[15], 0x1fa27cf8u, 16); STEP(H, b, c, d, a, w[2], 0xc4ac5665u, 23);
        STEP(I, a, b, c, d, w[0], 0xf4292244u, 6);   STEP(I, d, a, b, c, w[7], 0x432aff97u, 10);
        STEP(I, c, d, a, b, w[14], 0xab9423a7u, 15); STEP(I, b, c, d, a, w[5], 0xfc93a039u, 21);
        STEP(I, a, b, c, d, w[12], 0x655b59c3u, 6);  STEP(I, d, a, b, c, w[3], 0x8f0ccc92u, 10);
        STEP(I, c, d, a, b, w[10], 0xffeff47du, 15); STEP(I, b, c, d, a, w[1], 0x85845dd1u, 21);
        STEP(I, a, b, c, d, w[8], 0x6fa87e4fu, 6);   STEP(I, d, a, b, c, w[15], 0xfe2ce6e0u, 10);
        STEP(I, c, d, a, b, w[6], 0xa3014314u, 15);  STEP(I, b, c, d, a, w[13], 0x4e0811a1u, 21);
        STEP(I, a, b, c, d, w[4], 0xf7537e82u, 6);   STEP(I, d, a, b, c, w[11], 0xbd3af235u, 10);
        STEP(I, c, d, a, b, w[2], 0x2ad7d2bbu, 15);  STEP(I, b, c, d, a, w[9], 0xeb86d391u, 21);
        a += a0; b += b0; c += c0; d += d0;
    }
    vstore16(a, gid * 4 + 0, out);
    vstore16(b, gid * 4 + 1, out);
    vstore16(c, gid * 4 + 2, out);
    vstore16(d, gid * 4 + 3, out);
}
