/* The backend's one stream over two vendor queues. Profiling costs NVIDIA about 3-6 us per
 * command (docs/performance.md), so operations whose times nobody will ask for go to a queue
 * without profiling and the others to a profiling one. The backend promises one order for all
 * its operations (devices/backend.h): an operation that goes to the other queue than the
 * previous one waits for the previous one's event, and since both queues are in order, for
 * everything before it. Taking the stream serialises the choice and the enqueue; nothing blocks
 * while it is held. */
#include "devices/vendor/vendor_internal.h"

void hg_vendor_stream_take(hg_vendor_backend *vb, bool timed, hg_vendor_slot *s) {
  pthread_mutex_lock(&vb->stream_lock);
  s->queue = timed || !vb->plain_queue ? vb->queue : vb->plain_queue;
  s->wait = s->queue != vb->last_queue ? vb->last_event : NULL;
  s->num_wait = s->wait ? 1 : 0;
}

void hg_vendor_stream_give(hg_vendor_backend *vb, const hg_vendor_slot *s, cl_event last) {
  if (last) {
    VCL(last)->clRetainEvent(last);
    if (vb->last_event)
      VCL(vb->last_event)->clReleaseEvent(vb->last_event);
    vb->last_event = last;
    vb->last_queue = s->queue;
  }
  pthread_mutex_unlock(&vb->stream_lock);
}
