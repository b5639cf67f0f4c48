/* The snapshot tests' assertion: counts, prints failures, never stops the run. */
#ifndef HETGPU_TEST_CHECK_H
#define HETGPU_TEST_CHECK_H
#include <stdio.h>

extern int test_passed, test_failed;
#define CHECK(cond, ...)                                                                                      \
  do {                                                                                                       \
    if (cond)                                                                                                \
      test_passed++;                                                                                         \
    else {                                                                                                   \
      test_failed++;                                                                                         \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                            \
      printf(__VA_ARGS__);                                                                                   \
      printf("\n");                                                                                          \
    }                                                                                                        \
  } while (0)

/* snapshot_atomic_test.c: the atomic replace under SIGKILL and under a failing write */
void test_atomic_replace(const char *dir);
/* helpers shared by the test files */
unsigned char *test_read_file(const char *path, size_t *size);
#endif
