/* Exit tests moved onto the next value of a shifting counter (lowering/llvm_latch_tests.c): loops
 * that count the shifts of n until a bound, in LLVM IR, with the test on the incoming counter
 * (u< m * 2^k, u> m * 2^k + 2^k - 1: rewritten, also from a latch block of its own) and with
 * tests the rewrite must leave alone (bounds that are not such, u<=, a test before the shift, an
 * exact shift). Every module verifies, the rewrites happen exactly where they may, and LLVM's
 * interpreter gives each loop the same count before and after for n from 0 to 4095 and random
 * 64-bit values. */
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/IRReader.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lowering/llvm_latch_tests.h"

static int failures;
#define FAIL(...) (failures++, fprintf(stderr, "FAIL " __VA_ARGS__), fputc('\n', stderr))

typedef struct loop_case {
  const char *name;
  const char *test; /* the latch's test of %p (the incoming counter) or %s (the step) */
  unsigned k;       /* %s = lshr %p, k */
  bool continue_if; /* the loop goes on when the test is true */
  bool two_blocks;  /* the test in a latch block of its own, not the header */
  bool test_first;  /* the test before the shift in the header */
  bool rewritten;   /* what the rewrite must do */
  bool exact;       /* the shift is `lshr exact` (poison where it drops set bits) */
} loop_case;

static const loop_case k_cases[] = {
    {"halving, ult 4 (the reduction)", "icmp ult i64 %p, 4", 1, false, false, false, true},
    {"halving, ugt 7", "icmp ugt i64 %p, 7", 1, true, false, false, true},
    {"by 8, ult 24", "icmp ult i64 %p, 24", 3, false, false, false, true},
    {"by 4, ugt 11", "icmp ugt i64 %p, 11", 2, true, false, false, true},
    {"halving, own latch", "icmp ult i64 %p, 4", 1, false, true, false, true},
    {"halving, ult 5 (not a multiple)", "icmp ult i64 %p, 5", 1, false, false, false, false},
    {"by 4, ugt 9 (low bits not all set)", "icmp ugt i64 %p, 9", 2, true, false, false, false},
    {"halving, ule 3 (not rewritten)", "icmp ule i64 %p, 3", 1, false, false, false, false},
    {"halving, test before the shift", "icmp ult i64 %p, 4", 1, false, false, true, false},
    {"halving, exact shift", "icmp ult i64 %p, 4", 1, false, false, false, false, true},
};

/* count(n): how many times the loop ran, entered when n >= 2 */
static char *loop_ir(const loop_case *c) {
  char *ir = malloc(2048);
  const char *go = c->continue_if ? "label %loop, label %exit" : "label %exit, label %loop";
  const char *latch = c->two_blocks ? "latch" : "loop";
  char test[128];
  snprintf(test, sizeof test, "  %%c = %s\n", c->test);
  snprintf(ir, 2048,
           "define i64 @count(i64 %%n) {\n"
           "entry:\n"
           "  %%c0 = icmp ult i64 %%n, 2\n"
           "  br i1 %%c0, label %%exit, label %%loop\n"
           "loop:\n"
           "  %%p = phi i64 [ %%n, %%entry ], [ %%s, %%%s ]\n"
           "  %%t = phi i64 [ 0, %%entry ], [ %%t1, %%%s ]\n"
           "%s"
           "  %%s = lshr %si64 %%p, %u\n"
           "  %%t1 = add i64 %%t, 1\n"
           "%s"
           "%s"
           "  br i1 %%c, %s\n"
           "exit:\n"
           "  %%r = phi i64 [ 0, %%entry ], [ %%t1, %%%s ]\n"
           "  ret i64 %%r\n"
           "}\n",
           latch, latch, c->test_first ? test : "", c->exact ? "exact " : "", c->k, c->two_blocks ? "  br label %latch\nlatch:\n" : "",
           c->test_first ? "" : test, go, latch);
  return ir;
}

static LLVMModuleRef parse(LLVMContextRef C, const char *ir) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "loop");
  LLVMModuleRef M = NULL;
  char *msg = NULL;
  if (LLVMParseIRInContext(C, buf, &M, &msg)) {
    FAIL("IR does not parse: %s\n%s", msg, ir);
    LLVMDisposeMessage(msg);
    return NULL;
  }
  return M;
}

/* the test's first operand names the step (%s) after a rewrite */
static bool tests_step(LLVMModuleRef M) {
  LLVMValueRef fn = LLVMGetNamedFunction(M, "count");
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
      size_t len;
      const char *name = LLVMGetValueName2(in, &len);
      if (LLVMIsAICmpInst(in) && !strcmp(name, "c")) {
        LLVMValueRef op = LLVMGetOperand(in, 0);
        return !strcmp(LLVMGetValueName2(op, &len), "s");
      }
    }
  return false;
}

static uint64_t run_count(LLVMExecutionEngineRef ee, LLVMValueRef fn, uint64_t n) {
  LLVMGenericValueRef arg = LLVMCreateGenericValueOfInt(LLVMInt64Type(), n, 0);
  LLVMGenericValueRef r = LLVMRunFunction(ee, fn, 1, &arg);
  uint64_t v = LLVMGenericValueToInt(r, 0);
  LLVMDisposeGenericValue(arg);
  LLVMDisposeGenericValue(r);
  return v;
}

static uint64_t xorshift64(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

int main(void) {
  LLVMLinkInInterpreter();
  const char *given = getenv("HETGPU_TEST_SEED");
  uint64_t seed = (given ? strtoull(given, NULL, 0) : (uint64_t)time(NULL) * 2654435761u) | 1;
  printf("seed %llu (HETGPU_TEST_SEED)\n", (unsigned long long)seed);
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
    const loop_case *c = &k_cases[i];
    char *ir = loop_ir(c);
    LLVMContextRef C = LLVMContextCreate();
    LLVMModuleRef before = parse(C, ir), after = parse(C, ir);
    free(ir);
    if (!before || !after)
      continue;
    hg_llvm_latch_tests_on_next(after);
    char *msg = NULL;
    if (LLVMVerifyModule(after, LLVMReturnStatusAction, &msg))
      FAIL("%s: the rewritten module does not verify: %s", c->name, msg);
    LLVMDisposeMessage(msg);
    if (tests_step(after) != c->rewritten)
      FAIL("%s: %s", c->name, c->rewritten ? "not rewritten" : "rewritten where it must not be");
    LLVMExecutionEngineRef e1 = NULL, e2 = NULL;
    if (LLVMCreateInterpreterForModule(&e1, before, &msg) || LLVMCreateInterpreterForModule(&e2, after, &msg)) {
      FAIL("%s: no interpreter: %s", c->name, msg);
      continue;
    }
    LLVMValueRef f1 = LLVMGetNamedFunction(before, "count"), f2 = LLVMGetNamedFunction(after, "count");
    int wrong = 0;
    for (uint64_t j = 0; j < 4096 + 4096 && wrong < 3; j++) {
      uint64_t n = j < 4096 ? j : xorshift64(&seed) >> (j % 64);
      uint64_t a = run_count(e1, f1, n), b = run_count(e2, f2, n);
      if (a != b) {
        FAIL("%s: n = %llu: %llu turns before, %llu after", c->name, (unsigned long long)n, (unsigned long long)a,
             (unsigned long long)b);
        wrong++;
      }
    }
    if (!wrong)
      printf("ok     %s\n", c->name);
    LLVMDisposeExecutionEngine(e1); /* each owns its module */
    LLVMDisposeExecutionEngine(e2);
    LLVMContextDispose(C);
  }
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures != 0;
}
