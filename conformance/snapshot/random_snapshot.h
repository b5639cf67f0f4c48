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
  hg_snap_image *images;     /* image_snapshot.c */
  hg_snap_sampler *samplers;
  void **owned; /* everything else allocated for it */
  size_t num_owned, cap_owned;
  hg_snap_running *running;
  struct hg_ir_ndrange_state *states[4]; /* the running entries' states */
  size_t num_states;
} test_snapshot;

/* Records p (malloc'd, not NULL: aborts otherwise) to be freed with t; returns it. */
void *test_own(test_snapshot *t, void *p);
/* n random bytes owned by t */
uint8_t *test_random_bytes(test_snapshot *t, uint64_t n);

uint64_t test_rand(void); /* xorshift64*, seeded by test_seed */
void test_seed(uint64_t seed);
/* An empty snapshot with a random backend name and time. */
test_snapshot *test_snapshot_new(void);
/* max_buffer_bytes bounds each root buffer's size */
test_snapshot *test_snapshot_random(uint64_t max_buffer_bytes);
/* One root buffer of `bytes` random bytes and one program, nothing else. */
test_snapshot *test_snapshot_big(uint64_t bytes);
void test_snapshot_free(test_snapshot *t);
/* The encoded IR of the test module (malloc'd): kernels "k_all"(global float*, constant
 * float*, local int*, int, float4) and "k_small"(global int*, long). */
uint8_t *test_ir_binary(size_t *size);

/* running_snapshot.c: a snapshot with kernels stopped in flight. Buffers, two programs (the
 * test module above and one with kernel "k_loop": a loop with a barrier, static and argument
 * __local memory, a private slot, and a loop whose header is not a place to stop), kernels
 * and queues, and `num_running` (0..2) stopped launches: the first of k_loop over a ragged 2-D
 * range, the second of k_small. Groups NOT_STARTED, DONE and RUNNING; work-items at random
 * stoppable safe points with random values (pointers inside their objects), frames and local
 * memory. */
test_snapshot *test_snapshot_running(uint32_t num_running);
/* The encoded IR of the k_loop module (malloc'd). */
uint8_t *test_loop_ir_binary(size_t *size);

#endif
