/* A context, queue and program for tests whose kernels may fail their commands (memory
 * safety on RISC-V, robust access on vendor backends): launches report their event's final
 * status, and a failed one moves later commands to a fresh queue. */
#ifndef HETGPU_CONFORMANCE_FAULT_ENV_H
#define HETGPU_CONFORMANCE_FAULT_ENV_H

#include "harness.h"

typedef struct hg_test_env {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
} hg_test_env;

/* A fresh context and in-order queue, and `source` built there; false (the test failed) when
 * the build failed. */
bool hg_test_env_open(hg_test_env *e, const char *source);
void hg_test_env_close(hg_test_env *e);
/* A read-write buffer of size bytes, initialised from init when it is not NULL; NULL on error. */
cl_mem hg_test_env_buffer(hg_test_env *e, size_t size, const void *init);
/* Sets the arguments (sizes and values in pairs; value NULL: a __local argument) and runs
 * `kernel` over global/local in one dimension; returns the event's final status (or the
 * enqueue's error). */
cl_int hg_test_env_run(hg_test_env *e, const char *kernel, size_t global, size_t local, unsigned nargs,
                       const size_t *sizes, const void *const *values);
/* True when buffer m holds exactly want's size bytes. */
bool hg_test_env_same_bytes(hg_test_env *e, cl_mem m, const void *want, size_t size);

#endif
