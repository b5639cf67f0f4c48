/* Random snapshots for the snapshot tests: buffers with sub-buffers, programs holding a real
 * IR module (two kernels), kernels with arguments of every kind, queues, labels (NULL, "" and
 * text). A test_snapshot owns every byte its hg_snapshot points to. */
#ifndef HETGPU_TEST_RANDOM_SNAPSHOT_H
#define HETGPU_TEST_RANDOM_SNAPSHOT_H

#include "snapshot/snapshot.h"

typedef struct test_snapshot {
  hg_snapshot s;
  hg_snap_buffer *buffers;
  hg_snap_program *programs;
  hg_snap_kernel *kernels;
  hg_snap_queue *queues;
  void **owned; /* everything else allocated for it */
  size_t num_owned, cap_owned;
} test_snapshot;

uint64_t test_rand(void); /* xorshift64*, seeded by test_seed */
void test_seed(uint64_t seed);
/* max_buffer_bytes bounds each root buffer's size */
test_snapshot *test_snapshot_random(uint64_t max_buffer_bytes);
/* One root buffer of `bytes` random bytes and one program, nothing else. */
test_snapshot *test_snapshot_big(uint64_t bytes);
void test_snapshot_free(test_snapshot *t);
/* The encoded IR of the test module (malloc'd): kernels "k_all"(global float*, constant
 * float*, local int*, int, float4) and "k_small"(global int*, long). */
uint8_t *test_ir_binary(size_t *size);

#endif
