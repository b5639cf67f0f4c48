/* Module life cycle and the builder (hg_ir_add_*, hg_ir_append). */
#include "ir/ir.h"
