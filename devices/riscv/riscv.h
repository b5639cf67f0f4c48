/* The RISC-V backend's probe, for devices/backend_registry.c. */
#ifndef HETGPU_DEVICES_RISCV_RISCV_H
#define HETGPU_DEVICES_RISCV_RISCV_H

#include "devices/backend.h"

/* Creates the one RISC-V simulator backend into out[0] (max >= 1); returns how many (0 or 1). */
unsigned hg_riscv_probe(hg_backend **out, unsigned max);

#endif
