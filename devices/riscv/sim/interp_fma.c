/* The interpreter built for x86-64 hosts with FMA: the guest's fused multiply-adds become one
 * host instruction instead of a libm call (same results: both are correctly rounded in the
 * current rounding mode). interp.c chooses it at run time when the CPU has FMA. */
#include <stdlib.h>

#include "devices/riscv/sim/fp.h"
#include "devices/riscv/sim/sim_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("fma")
#define HG_SIM_INTERP_NAME hg_sim_interp_fma
#include "devices/riscv/sim/interp_body.h"
#pragma GCC pop_options
#endif
