/* Runs clang out of process on one OpenCL C translation unit. */
#include "lowering/frontend.h"
