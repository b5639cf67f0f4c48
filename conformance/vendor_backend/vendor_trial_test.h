/* The trial of LLVM's PTX against the vendor's own build (devices/vendor/vendor_trial.c), run by
 * vendor_backend_test on each vendor backend. */
#ifndef HETGPU_CONFORMANCE_VENDOR_TRIAL_TEST_H
#define HETGPU_CONFORMANCE_VENDOR_TRIAL_TEST_H

#include <stdint.h>

#include "devices/backend.h"

void hg_vendor_trial_tests(hg_backend *be, uint64_t (*random)(void), unsigned *checks, unsigned *fails);

#endif
