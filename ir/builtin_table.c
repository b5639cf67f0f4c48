/* The signatures of every builtin a call_builtin may name (docs/ir-spec.md section 5): the
 * OpenCL C 1.2 builtins (specification section 6.12) in the IR's types, plus hetGPU's own. Row
 * syntax: ir/builtin_table.h. Names absent here are no call_builtin: barrier is the BARRIER
 * opcode, the C11-style atomics are IR atomics, the asynchronous copies loops (the front end's
 * prelude), vec_step a constant. The image builtins' operands depend on the image's dimension and access:
 * their row only names them, ir/images.c checks them. */
#include "ir/builtin_table.h"

#define WI HG_IR_BF_WORK_ITEM
#define MATH HG_IR_BF_MATH
#define INT HG_IR_BF_INTEGER
#define COMMON HG_IR_BF_COMMON
#define GEO HG_IR_BF_GEOMETRIC
#define REL HG_IR_BF_RELATIONAL
#define VDATA HG_IR_BF_VECTOR_DATA
#define FLOATS HG_BT_FLOAT
#define INTS HG_BT_INT
#define NUMS HG_BT_NUM
#define ANY HG_BL_ANY
#define VEC HG_BL_VEC
#define UP_TO_4 (HG_BL(1) | HG_BL(2) | HG_BL(3) | HG_BL(4))
#define POW2_VEC (HG_BL(2) | HG_BL(4) | HG_BL(8) | HG_BL(16))
/* the legacy atomics move 32-bit integers (atomic_), 64-bit ones too (atom_, cl_khr_int64_*) */
#define ATOMIC_INTS (HG_BT(HG_IR_I32) | HG_BT(HG_IR_I64))

const hg_ir_builtin_row hg_ir_builtin_rows[] = {
    /* 6.12.1 work-item functions: uint dimension, size_t result */
    {"get_work_dim", WI, "i=", 0, 0},
    {"get_global_size get_global_id get_local_size get_enqueued_local_size get_local_id get_num_groups "
     "get_group_id get_global_offset",
     WI, "l=i", 0, 0},
    {"get_global_linear_id get_local_linear_id", WI, "l=", 0, 0},

    /* 6.12.2 math functions */
    {"acos acosh acospi asin asinh asinpi atan atanh atanpi cbrt ceil cos cosh cospi erfc erf exp exp2 exp10 "
     "expm1 fabs floor lgamma log log2 log10 log1p logb rint round rsqrt sin sinh sinpi sqrt tan tanh tanpi "
     "tgamma trunc half_cos half_exp half_exp2 half_exp10 half_log half_log2 half_log10 half_recip half_rsqrt "
     "half_sin half_sqrt half_tan native_cos native_exp native_exp2 native_exp10 native_log native_log2 "
     "native_log10 native_recip native_rsqrt native_sin native_sqrt native_tan",
     MATH, "T=T", FLOATS, ANY},
    {"atan2 atan2pi copysign fdim fmod hypot maxmag minmag nextafter pow powr remainder half_divide half_powr "
     "native_divide native_powr",
     MATH, "T=TT", FLOATS, ANY},
    {"fmax fmin", MATH, "T=TS", FLOATS, ANY},
    {"fma mad", MATH, "T=TTT", FLOATS, ANY},
    /* the pointer: where the second result goes (gentype for fract, modf, sincos; int for frexp, lgamma_r) */
    {"fract modf sincos frexp lgamma_r", MATH, "T=Tp", FLOATS, ANY},
    {"remquo", MATH, "T=TTp", FLOATS, ANY},
    {"ilogb", MATH, "K=T", FLOATS, ANY},
    {"ldexp pown rootn", MATH, "T=TK", FLOATS, ANY},
    /* ldexp(floatn, int); pown(floatn, int) is what LLVM's llvm.powi with a vector becomes */
    {"ldexp pown", MATH, "T=Ti", FLOATS, VEC},
    {"nan", MATH, "T=U", FLOATS, ANY},

    /* 6.12.3 integer functions (signedness: the call's flags) */
    {"abs clz ctz popcount", INT, "T=T", INTS, ANY},
    {"abs_diff add_sat hadd rhadd mul_hi rotate sub_sat mul24", INT, "T=TT", INTS, ANY},
    {"mad_hi mad_sat mad24", INT, "T=TTT", INTS, ANY},
    {"upsample", INT, "W=TT", HG_BT(HG_IR_I8) | HG_BT(HG_IR_I16) | HG_BT(HG_IR_I32), ANY},

    /* 6.12.4 common functions (clamp, max, min also integer functions) */
    {"clamp", COMMON, "T=TTT", NUMS, ANY},
    {"clamp", COMMON, "T=Ttt", NUMS, VEC},
    {"max min", COMMON, "T=TS", NUMS, ANY},
    {"degrees radians sign", COMMON, "T=T", FLOATS, ANY},
    {"mix", COMMON, "T=TTS", FLOATS, ANY},
    {"step", COMMON, "T=ST", FLOATS, ANY},
    {"smoothstep", COMMON, "T=TTT", FLOATS, ANY},
    {"smoothstep", COMMON, "T=ttT", FLOATS, VEC},

    /* 6.12.5 geometric functions: up to 4 lanes */
    {"dot distance fast_distance", GEO, "t=TT", FLOATS, UP_TO_4},
    {"length fast_length", GEO, "t=T", FLOATS, UP_TO_4},
    {"normalize fast_normalize", GEO, "T=T", FLOATS, UP_TO_4},
    {"cross", GEO, "T=TT", FLOATS, HG_BL(3) | HG_BL(4)},

    /* 6.12.6 relational functions: int for scalars, integer vectors of -1/0 */
    {"isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater isordered isunordered", REL,
     "R=TT", FLOATS, ANY},
    {"isfinite isinf isnan isnormal signbit", REL, "R=T", FLOATS, ANY},
    {"any all", REL, "i=T", INTS, ANY},
    {"bitselect", REL, "T=TTT", NUMS, ANY},
    {"select", REL, "T=TTU", NUMS, ANY},

    /* 6.12.7 vector data load and store: (offset, pointer), (data, offset, pointer) */
    {"vload#", VDATA, "T=lq", NUMS, VEC},
    {"vstore#", VDATA, "v=Tlp", NUMS, VEC},
    {"vload_half% vloada_half#", VDATA, "T=lq", HG_BT(HG_IR_F32), ANY},
    {"vstore_half%@ vstorea_half#@", VDATA, "v=Tlp", HG_BT(HG_IR_F32) | HG_BT(HG_IR_F64), ANY},
    {"shuffle", VDATA, "Y=TM", NUMS, POW2_VEC},
    {"shuffle2", VDATA, "Y=TTM", NUMS, POW2_VEC},

    /* 6.12.8, 6.12.9 fences the front end did not make FENCE instructions: flags, order, scope */
    {"mem_fence read_mem_fence write_mem_fence", HG_IR_BF_SYNC, "v=i", 0, 0},
    {"atomic_work_item_fence", HG_IR_BF_SYNC, "v=iii", 0, 0},
    /* 6.12.10 a hint (the asynchronous copies are loops by then) */
    {"prefetch", HG_IR_BF_ASYNC_COPY, "v=ql", 0, 0},

    /* 6.12.11 atomics and their atom_ forms (the front end makes them IR atomics) */
    {"atomic_add atomic_sub atomic_min atomic_max atomic_and atomic_or atomic_xor atom_add atom_sub atom_min "
     "atom_max atom_and atom_or atom_xor",
     HG_IR_BF_ATOMIC, "T=aT", ATOMIC_INTS, HG_BL(1)},
    {"atomic_xchg atom_xchg", HG_IR_BF_ATOMIC, "T=aT", ATOMIC_INTS | HG_BT(HG_IR_F32), HG_BL(1)},
    {"atomic_inc atomic_dec atom_inc atom_dec", HG_IR_BF_ATOMIC, "T=a", ATOMIC_INTS, HG_BL(1)},
    {"atomic_cmpxchg atom_cmpxchg", HG_IR_BF_ATOMIC, "T=aTT", ATOMIC_INTS, HG_BL(1)},

    /* conversions: the destination is in the name, the source has its lanes */
    {"convert_$!@", HG_IR_BF_CONVERT, "D=T", NUMS, ANY},
    {"as_&", HG_IR_BF_REINTERPRET, "D=Z", 0, 0},

    /* 6.12.13 printf: the constant format string, then the promoted arguments */
    {"printf", HG_IR_BF_PRINTF, "i=c*", 0, 0},

    /* 6.12.14 images (format 1.2): names only, the operands are checked by ir/images.c */
    {"read_imagef read_imagei read_imageui write_imagef write_imagei write_imageui get_image_width "
     "get_image_height get_image_depth get_image_channel_data_type get_image_channel_order get_image_array_size "
     "get_image_dim",
     HG_IR_BF_IMAGE, "", 0, 0},

    /* a stoppable kernel's safe-point check (ir/resumable.c) */
    {HG_IR_STOP_POLL_BUILTIN, HG_IR_BF_INTERNAL, "b=", 0, 0},
};

const unsigned hg_ir_builtin_num_rows = sizeof hg_ir_builtin_rows / sizeof hg_ir_builtin_rows[0];
