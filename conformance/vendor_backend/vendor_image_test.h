/* The vendor backend's image tests (vendor_image_test.c), run by vendor_backend_test on each
 * backend it probes: `source` is where the test's stand-in lowering takes its OpenCL C from,
 * `random` the run's generator, checks and fails its counters. */
#ifndef HETGPU_CONFORMANCE_VENDOR_IMAGE_TEST_H
#define HETGPU_CONFORMANCE_VENDOR_IMAGE_TEST_H

#include <stdint.h>

#include "devices/backend.h"

void hg_vendor_image_tests(hg_backend *be, const char **source, uint64_t (*random)(void), unsigned *checks,
                           unsigned *fails);

#endif
