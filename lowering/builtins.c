/* The OpenCL C builtin names the front end handles without a call_builtin: the IR's table
 * (ir/builtin_table.c) has the others, with their signatures. */
#include "lowering/builtins.h"

#include <string.h>

typedef struct named_family {
  const char *name;
  hg_ir_builtin_family family;
} named_family;

static const named_family k_front_end_only[] = {
    /* 6.12.8 synchronization: the BARRIER opcode */
    {"barrier", HG_IR_BF_SYNC}, {"work_group_barrier", HG_IR_BF_SYNC},
    /* 6.12.10 async copies: loops from the front end's prelude (lowering/frontend_prelude.h) */
    {"async_work_group_copy", HG_IR_BF_ASYNC_COPY}, {"async_work_group_strided_copy", HG_IR_BF_ASYNC_COPY},
    {"wait_group_events", HG_IR_BF_ASYNC_COPY},
    /* the C11-style atomics of OpenCL C 2.0/3.0: IR atomics */
    {"atomic_init", HG_IR_BF_ATOMIC}, {"atomic_store", HG_IR_BF_ATOMIC},
    {"atomic_store_explicit", HG_IR_BF_ATOMIC}, {"atomic_load", HG_IR_BF_ATOMIC},
    {"atomic_load_explicit", HG_IR_BF_ATOMIC}, {"atomic_exchange", HG_IR_BF_ATOMIC},
    {"atomic_exchange_explicit", HG_IR_BF_ATOMIC},
    {"atomic_compare_exchange_strong", HG_IR_BF_ATOMIC},
    {"atomic_compare_exchange_strong_explicit", HG_IR_BF_ATOMIC},
    {"atomic_compare_exchange_weak", HG_IR_BF_ATOMIC},
    {"atomic_compare_exchange_weak_explicit", HG_IR_BF_ATOMIC},
    {"atomic_fetch_add", HG_IR_BF_ATOMIC}, {"atomic_fetch_add_explicit", HG_IR_BF_ATOMIC},
    {"atomic_fetch_sub", HG_IR_BF_ATOMIC}, {"atomic_fetch_sub_explicit", HG_IR_BF_ATOMIC},
    {"atomic_fetch_or", HG_IR_BF_ATOMIC}, {"atomic_fetch_or_explicit", HG_IR_BF_ATOMIC},
    {"atomic_fetch_xor", HG_IR_BF_ATOMIC}, {"atomic_fetch_xor_explicit", HG_IR_BF_ATOMIC},
    {"atomic_fetch_and", HG_IR_BF_ATOMIC}, {"atomic_fetch_and_explicit", HG_IR_BF_ATOMIC},
    {"atomic_fetch_min", HG_IR_BF_ATOMIC}, {"atomic_fetch_min_explicit", HG_IR_BF_ATOMIC},
    {"atomic_fetch_max", HG_IR_BF_ATOMIC}, {"atomic_fetch_max_explicit", HG_IR_BF_ATOMIC},
    {"atomic_flag_test_and_set", HG_IR_BF_ATOMIC},
    {"atomic_flag_test_and_set_explicit", HG_IR_BF_ATOMIC}, {"atomic_flag_clear", HG_IR_BF_ATOMIC},
    {"atomic_flag_clear_explicit", HG_IR_BF_ATOMIC},
};

hg_ir_builtin_family hg_builtin_family_of(const char *name) {
  if (!name) return HG_IR_BF_UNKNOWN;
  for (size_t i = 0; i < sizeof k_front_end_only / sizeof *k_front_end_only; i++)
    if (strcmp(k_front_end_only[i].name, name) == 0) return k_front_end_only[i].family;
  hg_ir_builtin_family f = hg_ir_builtin_family_of(name);
  return f == HG_IR_BF_INTERNAL ? HG_IR_BF_UNKNOWN : f; /* hetGPU's own are no OpenCL C builtins */
}

const hg_builtin_dim_function hg_builtin_dim_functions[HG_BUILTIN_DIM_FUNCTIONS] = {
    {"get_global_size", 1}, {"get_local_size", 1}, {"get_enqueued_local_size", 1}, {"get_num_groups", 1},
    {"get_global_id", 0},   {"get_local_id", 0},   {"get_group_id", 0},            {"get_global_offset", 0},
};

int hg_builtin_dim_function_index(const char *name) {
  for (int i = 0; i < HG_BUILTIN_DIM_FUNCTIONS; i++)
    if (!strcmp(name, hg_builtin_dim_functions[i].name)) return i;
  return -1;
}
