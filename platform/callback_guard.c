/* Per-thread marks of the queues a thread drives and the events whose callbacks it runs
 * (platform/callback_guard.h). Nesting is shallow (a callback's own enqueue may complete
 * another queue's command inline); past MAX_MARKS a thread counts as driving every queue, so a
 * deep nest refuses a wait rather than risking a hang. */
#include "platform/callback_guard.h"

#include <stddef.h>

#define MAX_MARKS 8

typedef struct marks {
  const void *at[MAX_MARKS];
  unsigned depth; /* may exceed MAX_MARKS: those are counted, not kept */
} marks;

static _Thread_local marks driven, calling_back;

static void push(marks *m, const void *p) {
  if (m->depth < MAX_MARKS)
    m->at[m->depth] = p;
  m->depth++;
}

static void pop(marks *m) {
  if (m->depth)
    m->depth--;
}

static bool holds(const marks *m, const void *p) {
  if (m->depth > MAX_MARKS)
    return true;
  for (unsigned i = 0; i < m->depth; i++)
    if (m->at[i] == p)
      return true;
  return false;
}

void hg_drive_enter(cl_command_queue q) { push(&driven, q); }
void hg_drive_leave(void) { pop(&driven); }
bool hg_drives(cl_command_queue q) { return q && holds(&driven, q); }
bool hg_drives_any(void) { return driven.depth > 0; }

void hg_callbacks_enter(cl_event ev) { push(&calling_back, ev); }
void hg_callbacks_leave(void) { pop(&calling_back); }
bool hg_in_callbacks_of(cl_event ev) { return holds(&calling_back, ev); }
