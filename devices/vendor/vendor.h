/* The vendor backend: any OpenCL platform installed on the machine, reached through a private
 * mini-loader (never through libOpenCL from inside our ICD). */
#ifndef HETGPU_DEVICES_VENDOR_VENDOR_H
#define HETGPU_DEVICES_VENDOR_VENDOR_H

#include "devices/backend.h"

/* One backend per device of every vendor ICD (HETGPU_VENDORS: a directory of .icd files,
 * default /etc/OpenCL/vendors; hetGPU itself is skipped), at most `max` in out. Returns how
 * many. With from_facts, when the vendors' facts are cached (vendor_facts.c) the backends are
 * listed from them without loading any vendor: each is `closed` until hg_backend_open. Else
 * every vendor is loaded now and its facts cached. */
unsigned hg_vendor_probe(hg_backend **out, unsigned max, bool from_facts);

#endif
