/* Prototypes of every exported runtime function, expanded from HG_RT_FUNCTIONS (runtime.h):
 * for C callers of the runtime (tests, drivers) on the device or the host. */
#ifndef HETGPU_DEVICES_RISCV_RUNTIME_RT_PROTOS_H
#define HETGPU_DEVICES_RISCV_RUNTIME_RT_PROTOS_H

#include <stdint.h>

#include "devices/riscv/runtime/runtime.h"

#define HG_RT_PROTO_T1(n) float hg_rt_##n##f(float); double hg_rt_##n(double);
#define HG_RT_PROTO_T2(n) float hg_rt_##n##f(float, float); double hg_rt_##n(double, double);
#define HG_RT_PROTO_T3(n) float hg_rt_##n##f(float, float, float); double hg_rt_##n(double, double, double);
#define HG_RT_PROTO_TI(n) float hg_rt_##n##f(float, int); double hg_rt_##n(double, int);
#define HG_RT_PROTO_IT(n) int hg_rt_##n##f(float); int hg_rt_##n(double);
#define HG_RT_PROTO_TN(n) float hg_rt_##n##f(uint32_t); double hg_rt_##n(uint64_t);
#define HG_RT_PROTO_TPT(n) float hg_rt_##n##f(float, float *); double hg_rt_##n(double, double *);
#define HG_RT_PROTO_TPI(n) float hg_rt_##n##f(float, int *); double hg_rt_##n(double, int *);
#define HG_RT_PROTO_TTPI(n) float hg_rt_##n##f(float, float, int *); double hg_rt_##n(double, double, int *);
#define HG_RT_PROTO(n, kind) HG_RT_PROTO_##kind(n)
HG_RT_FUNCTIONS(HG_RT_PROTO)
#undef HG_RT_PROTO
uint32_t hg_rt_half_from_double(double x, int mode);

#endif
