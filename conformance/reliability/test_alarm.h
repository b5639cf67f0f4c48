/* A hang fails the test by itself: an alarm whose handler names the step that did not return
 * and ends the process with a failure, long before ctest's own timeout. */
#ifndef HETGPU_CONFORMANCE_RELIABILITY_TEST_ALARM_H
#define HETGPU_CONFORMANCE_RELIABILITY_TEST_ALARM_H

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char *volatile hg_alarm_step = "";

static void hg_alarm_fired(int sig) {
  (void)sig;
  static const char head[] = "FAIL   hung in: ";
  (void)!write(1, head, sizeof head - 1);
  (void)!write(1, hg_alarm_step, strlen(hg_alarm_step));
  static const char tail[] = "\n0 passed, 1 failed\n";
  (void)!write(1, tail, sizeof tail - 1);
  _exit(1);
}

/* Arms the alarm for `seconds` while `step` runs (0 disarms). */
static inline void hg_alarm(unsigned seconds, const char *step) {
  hg_alarm_step = step;
  signal(SIGALRM, hg_alarm_fired);
  alarm(seconds);
}

#endif
