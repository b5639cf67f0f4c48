/* The vendor backend: any OpenCL platform installed on the machine, reached through a private
 * mini-loader (never through libOpenCL from inside our ICD). */
#ifndef HETGPU_DEVICES_VENDOR_VENDOR_H
#define HETGPU_DEVICES_VENDOR_VENDOR_H

#include "devices/backend.h"

/* Loads every vendor ICD (HETGPU_VENDORS: a directory of .icd files, default
 * /etc/OpenCL/vendors; hetGPU itself is skipped) and creates one backend per device, storing
 * at most `max` in out. Returns how many. */
unsigned hg_vendor_probe(hg_backend **out, unsigned max);

#endif
