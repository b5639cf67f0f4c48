/* Many threads at once: enqueueing markers, barriers and user-event-gated commands on one
 * shared queue and on queues of their own, waiting, registering callbacks, releasing. Every
 * event must complete and every callback must be called exactly once. Meant to run under
 * ThreadSanitizer (-DHETGPU_TSAN=ON) as well. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "harness.h"

enum { THREADS = 8, ROUNDS = 60, PER_ROUND = 8 };

typedef struct shared {
  cl_context ctx;
  cl_command_queue shared_in_order, shared_ooo;
  atomic_int callbacks, expected_callbacks, failures, not_complete;
  unsigned seed_base;
} shared;

typedef struct thread_arg {
  shared *s;
  unsigned seed;
} thread_arg;

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data) {
  shared *s = data;
  if (status != CL_COMPLETE)
    atomic_fetch_add(&s->failures, 1);
  atomic_fetch_add(&s->callbacks, 1);
}

static unsigned next_rand(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return *state >> 16;
}

static void *worker(void *p) {
  thread_arg *a = p;
  shared *s = a->s;
  unsigned r = a->seed;
  cl_int err;
  cl_command_queue_properties props = (next_rand(&r) & 1) ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0;
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
  cl_command_queue own = clCreateCommandQueueWithProperties(s->ctx, hg_test_device, qp, &err);
  if (err != CL_SUCCESS) {
    atomic_fetch_add(&s->failures, 1);
    return NULL;
  }
  cl_command_queue queues[3] = {s->shared_in_order, s->shared_ooo, own};
  for (int round = 0; round < ROUNDS; round++) {
    cl_event gate = clCreateUserEvent(s->ctx, &err);
    cl_event ev[PER_ROUND];
    for (int i = 0; i < PER_ROUND; i++) {
      cl_command_queue q = queues[next_rand(&r) % 3];
      cl_event deps[2];
      cl_uint nd = 0;
      if (i == 0 || next_rand(&r) % 4 == 0)
        deps[nd++] = gate;
      if (i > 0 && next_rand(&r) % 2)
        deps[nd++] = ev[next_rand(&r) % i];
      switch (next_rand(&r) % 3) {
      case 0: err = clEnqueueMarkerWithWaitList(q, nd, nd ? deps : NULL, &ev[i]); break;
      case 1: err = clEnqueueBarrierWithWaitList(q, nd, nd ? deps : NULL, &ev[i]); break;
      default:
        err = nd ? clEnqueueMarkerWithWaitList(q, nd, deps, &ev[i]) : clEnqueueMarker(q, &ev[i]);
        break;
      }
      if (err != CL_SUCCESS) {
        atomic_fetch_add(&s->failures, 1);
        ev[i] = NULL;
        continue;
      }
      if (next_rand(&r) % 2) {
        atomic_fetch_add(&s->expected_callbacks, 1);
        clSetEventCallback(ev[i], CL_COMPLETE, on_complete, s);
      }
      if (next_rand(&r) % 5 == 0)
        clEnqueueBarrierWithWaitList(q, 0, NULL, NULL); /* no event out */
    }
    /* Open the gate from this thread, sometimes after a flush, and wait. */
    if (next_rand(&r) % 2)
      clFlush(own);
    clSetUserEventStatus(gate, CL_COMPLETE);
    int n = 0;
    cl_event live[PER_ROUND];
    for (int i = 0; i < PER_ROUND; i++)
      if (ev[i])
        live[n++] = ev[i];
    if (n && clWaitForEvents((cl_uint)n, live) != CL_SUCCESS)
      atomic_fetch_add(&s->failures, 1);
    for (int i = 0; i < n; i++) {
      cl_int st = 1;
      clGetEventInfo(live[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
      if (st != CL_COMPLETE)
        atomic_fetch_add(&s->not_complete, 1);
      clReleaseEvent(live[i]);
    }
    clReleaseEvent(gate);
    if (round % 16 == 0)
      clFinish(queues[next_rand(&r) % 3]);
  }
  clFinish(own);
  clReleaseCommandQueue(own);
  return NULL;
}

HG_TEST(many_threads_many_queues) {
  shared s = {0};
  s.ctx = hg_test_context();
  s.shared_in_order = hg_test_queue(s.ctx, 0);
  cl_command_queue_properties p = 0;
  clGetDeviceInfo(hg_test_device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof p, &p, NULL);
  s.shared_ooo = hg_test_queue(s.ctx, p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  pthread_t th[THREADS];
  thread_arg args[THREADS];
  for (int i = 0; i < THREADS; i++) {
    args[i].s = &s;
    args[i].seed = hg_test_rand();
    CHECK(pthread_create(&th[i], NULL, worker, &args[i]) == 0);
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(th[i], NULL);
  CHECK_CL(clFinish(s.shared_in_order));
  CHECK_CL(clFinish(s.shared_ooo));
  while (atomic_load(&s.callbacks) < atomic_load(&s.expected_callbacks))
    ;
  CHECK_MSG(atomic_load(&s.failures) == 0, "%d failures", atomic_load(&s.failures));
  CHECK_MSG(atomic_load(&s.not_complete) == 0, "%d events not complete after waiting", atomic_load(&s.not_complete));
  CHECK(atomic_load(&s.callbacks) == atomic_load(&s.expected_callbacks));
  printf("    %d callbacks over %d threads\n", atomic_load(&s.callbacks), THREADS);
  clReleaseCommandQueue(s.shared_in_order);
  clReleaseCommandQueue(s.shared_ooo);
  clReleaseContext(s.ctx);
}

/* Threads that only release: events and queues dropped while their commands are still gated. */
HG_TEST(release_while_pending) {
  cl_context ctx = hg_test_context();
  for (int round = 0; round < 50; round++) {
    cl_command_queue q = hg_test_queue(ctx, round % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
    cl_event gate = clCreateUserEvent(ctx, NULL);
    cl_event last = NULL;
    for (int i = 0; i < 20; i++)
      CHECK_CL(clEnqueueMarkerWithWaitList(q, 1, &gate, i == 19 ? &last : NULL));
    CHECK_CL(clReleaseCommandQueue(q));
    CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK_CL(clWaitForEvents(1, &last));
    clReleaseEvent(last);
    clReleaseEvent(gate);
  }
  clReleaseContext(ctx);
}
