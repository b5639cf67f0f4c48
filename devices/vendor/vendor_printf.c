/* printf on the vendor backend (docs/printf.md): a launch of a kernel that prints gets a fresh
 * buffer as its hidden last argument, its header zeroed before the kernel and the whole buffer
 * read back after it, all three on the stream's queue of the launch (vendor_stream.c). The records are formatted by the
 * shared formatter (devices/printf_buffer.c) when the launch is waited for, before its event
 * completes.
 *
 * A robust kernel's launch (docs/robust-access.md) has one too, for its fault word: a zeroed
 * word given as its hidden argument and read back after it (the buffer only if it prints).
 *
 * Launches print in the order they were enqueued: pending prints form one list per backend
 * (appended under list_lock together with their enqueue, so list order is queue order), and
 * whoever needs one printed prints every earlier one first, under print_lock. */
#include <stdlib.h>
#include <string.h>

#include "devices/printf_buffer.h"
#include "devices/profile.h"
#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

#define BUF_BYTES (HG_PRINTF_HEADER_BYTES + HG_PROFILE_PRINTF_BUFFER_SIZE)

struct hg_vendor_print {
  hg_vendor_backend *vb;
  const hg_dev_program *prog; /* its table; the launch's command keeps the program alive */
  cl_mem buf;       /* NULL: the kernel does not print */
  uint8_t *host;    /* the buffer read back */
  cl_event kernel;  /* the launch */
  cl_event read;    /* the read back */
  cl_mem fault;     /* robust kernels: the fault word (NULL for others) */
  cl_uint fault_bits;
  cl_event fault_read;
  bool printed;     /* under list_lock */
  char **out;       /* synchronous launches: hg_launch's printf_out (NULL: stdout) */
  size_t *out_len;
  hg_vendor_print *next;
};

static const uint8_t k_zero_header[HG_PRINTF_HEADER_BYTES];

static void print_free(hg_vendor_print *p) {
  if (p->buf) VCL(p->buf)->clReleaseMemObject(p->buf);
  if (p->kernel) VCL(p->kernel)->clReleaseEvent(p->kernel);
  if (p->read) VCL(p->read)->clReleaseEvent(p->read);
  if (p->fault_read) { /* it writes fault_bits: done before p goes (a failed launch's is not waited for) */
    VCL(p->fault_read)->clWaitForEvents(1, &p->fault_read);
    VCL(p->fault_read)->clReleaseEvent(p->fault_read);
  }
  if (p->fault) VCL(p->fault)->clReleaseMemObject(p->fault);
  free(p->host);
  free(p);
}

cl_int hg_vendor_print_create(hg_vendor_backend *vb, const hg_dev_kernel *k, hg_vendor_print **out) {
  *out = NULL;
  hg_vendor_print *p = calloc(1, sizeof *p);
  if (!p || (k->printf && !(p->host = malloc(BUF_BYTES)))) {
    free(p);
    return CL_OUT_OF_HOST_MEMORY;
  }
  p->vb = vb;
  p->prog = k->prog;
  cl_int err = CL_SUCCESS;
  if (k->printf)
    p->buf = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE, BUF_BYTES, NULL, &err);
  if (err == CL_SUCCESS && k->robust) /* zeroed by its creation: no command of its own */
    p->fault = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                sizeof p->fault_bits, &p->fault_bits, &err);
  if ((k->printf && !p->buf) || (k->robust && !p->fault)) {
    print_free(p);
    return err == CL_OUT_OF_HOST_MEMORY ? err : CL_OUT_OF_RESOURCES;
  }
  *out = p;
  return CL_SUCCESS;
}

cl_int hg_vendor_print_set_arg(hg_vendor_print *p, cl_kernel kernel, cl_uint index) {
  return VCL(kernel)->clSetKernelArg(kernel, index, sizeof p->buf, &p->buf);
}

cl_int hg_vendor_print_set_robust_args(hg_vendor_print *p, cl_kernel kernel, cl_uint index, const hg_launch *l,
                                       cl_uint *next) {
  const cl_icd_dispatch *d = VCL(kernel);
  cl_int err = d->clSetKernelArg(kernel, index++, sizeof p->fault, &p->fault);
  for (cl_uint i = 0; i < l->num_args && err == CL_SUCCESS; i++) {
    const hg_launch_arg *a = &l->args[i];
    if (a->kind != HG_ARG_BUFFER)
      continue;
    /* the bytes the kernel may touch from its pointer: a sub-buffer's own, else to the end */
    cl_ulong size = !a->mem ? 0 : a->size ? a->size : a->offset < a->mem->size ? a->mem->size - a->offset : 0;
    err = d->clSetKernelArg(kernel, index++, sizeof size, &size);
  }
  *next = index;
  return err;
}

cl_int hg_vendor_print_fault(hg_vendor_print *p) {
  if (!p->fault)
    return CL_SUCCESS;
  if (!p->fault_read || VCL(p->fault_read)->clWaitForEvents(1, &p->fault_read) != CL_SUCCESS)
    return CL_OUT_OF_RESOURCES; /* whether it stayed in range is unknown */
  if (!p->fault_bits)
    return CL_SUCCESS;
  HG_LOG(HG_LOG_SCHED, "%s: a robust kernel's access was out of its buffers (%s%s%s): its event fails",
         p->vb->base.name, p->fault_bits & 1 ? "read" : "", p->fault_bits == 3 ? " and " : "",
         p->fault_bits & 2 ? "write" : "");
  return CL_OUT_OF_RESOURCES;
}

cl_int hg_vendor_print_enqueue(hg_vendor_print *p, const hg_vendor_slot *slot, cl_kernel kernel, cl_uint work_dim,
                               const size_t *offset, const size_t *global, const size_t *local, cl_event *ev) {
  hg_vendor_backend *vb = p->vb;
  cl_command_queue q = slot->queue;
  pthread_mutex_lock(&vb->printf_list_lock);
  cl_int err = CL_SUCCESS;
  hg_vendor_slot after = *slot; /* what the first command waits for: the rest follow it in order */
  if (p->buf) {
    err = VCL(q)->clEnqueueWriteBuffer(q, p->buf, CL_FALSE, 0, sizeof k_zero_header, k_zero_header,
                                       HG_VENDOR_WAIT(after), NULL);
    after.num_wait = 0;
  }
  if (err == CL_SUCCESS)
    err = VCL(q)->clEnqueueNDRangeKernel(q, kernel, work_dim, offset, global, local, HG_VENDOR_WAIT(after), ev);
  if (err == CL_SUCCESS) {
    VCL(*ev)->clRetainEvent(*ev);
    p->kernel = *ev;
    if (p->buf)
      err = VCL(q)->clEnqueueReadBuffer(q, p->buf, CL_FALSE, 0, BUF_BYTES, p->host, 0, NULL, &p->read);
    if (err != CL_SUCCESS) {
      p->read = NULL; /* the kernel runs, its output is lost: say so */
      HG_LOG(HG_LOG_SCHED, "%s: reading the printf buffer back failed (%d)", vb->base.name, err);
      err = CL_SUCCESS;
    }
    if (p->fault && VCL(q)->clEnqueueReadBuffer(q, p->fault, CL_FALSE, 0, sizeof p->fault_bits, &p->fault_bits, 0,
                                                NULL, &p->fault_read) != CL_SUCCESS)
      p->fault_read = NULL; /* the launch fails when it is waited for */
    if (vb->printf_tail) vb->printf_tail->next = p;
    else vb->printf_head = p;
    vb->printf_tail = p;
  }
  pthread_mutex_unlock(&vb->printf_list_lock);
  return err;
}

/* Formats one print's records and writes them out. Under print_lock. */
static void print_one(hg_vendor_print *p) {
  if (!p->buf || !p->read || VCL(p->read)->clWaitForEvents(1, &p->read) != CL_SUCCESS)
    return; /* the launch failed: it printed nothing */
  hg_printf_table *t = (hg_printf_table *)&p->prog->printf;
  hg_printf_source src = {(const char *const *)t->formats, t->num_formats, hg_printf_table_string, t};
  char *text = NULL;
  size_t len = 0;
  if (hg_printf_format(p->host, HG_PROFILE_PRINTF_BUFFER_SIZE, &src, &text, &len) != 0)
    HG_LOG(HG_LOG_SCHED, "%s: out of memory formatting printf output", p->vb->base.name);
  if (len && p->out && p->out_len) {
    char *n = realloc(*p->out, *p->out_len + len + 1);
    if (n) {
      memcpy(n + *p->out_len, text, len);
      *p->out_len += len;
      n[*p->out_len] = 0;
      *p->out = n;
    }
  } else {
    hg_printf_write(text, len);
  }
  free(text);
}

void hg_vendor_print_flush(hg_vendor_backend *vb, hg_vendor_print *target) {
  pthread_mutex_lock(&vb->printf_print_lock);
  for (;;) {
    pthread_mutex_lock(&vb->printf_list_lock);
    hg_vendor_print *h = target && target->printed ? NULL : vb->printf_head;
    pthread_mutex_unlock(&vb->printf_list_lock);
    if (!h)
      break;
    print_one(h); /* the head leaves the list only here, under print_lock */
    pthread_mutex_lock(&vb->printf_list_lock);
    vb->printf_head = h->next;
    if (!vb->printf_head) vb->printf_tail = NULL;
    h->printed = true;
    pthread_mutex_unlock(&vb->printf_list_lock);
    if (h == target)
      break;
  }
  pthread_mutex_unlock(&vb->printf_print_lock);
}

void hg_vendor_print_set_output(hg_vendor_print *p, char **out, size_t *out_len) {
  p->out = out;
  p->out_len = out_len;
}

cl_event hg_vendor_print_event(const hg_vendor_print *p) { return p->kernel; }

cl_event hg_vendor_print_last(const hg_vendor_print *p) {
  return p->fault_read ? p->fault_read : p->read ? p->read : p->kernel;
}

void hg_vendor_print_release(hg_vendor_print *p) {
  if (!p)
    return;
  bool listed;
  pthread_mutex_lock(&p->vb->printf_list_lock);
  listed = p->kernel && !p->printed;
  pthread_mutex_unlock(&p->vb->printf_list_lock);
  if (listed)
    hg_vendor_print_flush(p->vb, p); /* never dropped unprinted: it is out before it goes */
  print_free(p);
}
