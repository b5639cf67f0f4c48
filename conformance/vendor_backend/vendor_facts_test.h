/* The vendors' facts tests (vendor_facts_test.c), run by `vendor_backend_test --facts`. */
#ifndef HETGPU_CONFORMANCE_VENDOR_FACTS_TEST_H
#define HETGPU_CONFORMANCE_VENDOR_FACTS_TEST_H

#include <stdint.h>

void hg_vendor_facts_tests(uint64_t (*random)(void), unsigned *checks, unsigned *fails);

#endif
