//@ kernel swizzles
//@ global 1024
//@ local 64
//@ arg in int 16384 random -1000 1000
//@ arg out int 65536
// Component access: .xyzw, .s0-.sF (and .SA upper-case), .lo .hi .even .odd on every width,
// repeated and reordered swizzles on both sides of assignments, swizzles of swizzles,
// 3-vector .hi (whose last lane is undefined, so only .hi.x is used).
__kernel void swizzles(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    int16 v = vload16(i, in);
    __global int *r = out + i * 64;
    int4 a = v.s0123;
    int4 b = v.sCDEF;
    vstore4(a.wzyx, 0, r);
    vstore4(b.xxyy + a.zwzw, 1, r);
    vstore8(v.even, 1, r);
    vstore8(v.odd, 2, r);
    vstore8(v.lo + v.hi, 3, r);
    vstore4(v.lo.lo - v.hi.hi, 8, r);
    vstore4(v.s048C * v.sFB73, 9, r);
    vstore2(v.lo.odd.hi, 20, r);
    int3 t = v.s159;
    r[42] = t.hi.x + t.lo.y * 2 + t.z;
    int2 q = v.sAB;
    q.yx = q;
    r[43] = q.x - q.y + v.SA;
    int8 e = (int8)(0);
    e.s7531 = a;
    e.even = b.yyxx;
    vstore8(e, 6, r);
    int4 z = a;
    z.xz = b.s31;
    z.w += 5;
    z.yx++;
    vstore4(z, 14, r);
    vstore4(v.s9876 ^ v.s0000, 11, r);
    r[60] = v.x + v.y + v.z + v.w;
    r[61] = v.sF;
    r[62] = v.even.odd.s3;
    r[63] = dot((float2)(v.s2, v.s3), (float2)(1.0f, 0.0f)) > 0.0f;
}
