/* The front end's OpenCL C prelude for the asynchronous copy builtins.
 *
 * async_work_group_copy and async_work_group_strided_copy become cooperative loops (every
 * work-item of the group calls them with the same arguments, as the specification requires, and
 * copies its share at once); wait_group_events becomes a barrier with local and global fences,
 * after which every work-item sees the whole copy; prefetch is a hint and does nothing. In this
 * form they are plain loads, stores and a barrier in the IR, which every backend can express
 * (an opaque builtin could not say its element size once pointers are untyped). The functions
 * are C99 inline definitions, always inlined, so they never reach a compiled object. */
#ifndef HETGPU_LOWERING_FRONTEND_PRELUDE_H
#define HETGPU_LOWERING_FRONTEND_PRELUDE_H

#define HG_PRELUDE_ASYNC_COPY \
  "#define HG_LID() (get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)))\n" \
  "#define HG_LSZ() (get_local_size(0) * get_local_size(1) * get_local_size(2))\n" \
  "#define HG_ASYNC_1(T) \\\n" \
  "inline __attribute__((overloadable, always_inline)) event_t __hg_async_copy(__local T *d, const __global T *s, size_t n, event_t e) { \\\n" \
  "  for (size_t i = HG_LID(); i < n; i += HG_LSZ()) d[i] = s[i]; return e; } \\\n" \
  "inline __attribute__((overloadable, always_inline)) event_t __hg_async_copy(__global T *d, const __local T *s, size_t n, event_t e) { \\\n" \
  "  for (size_t i = HG_LID(); i < n; i += HG_LSZ()) d[i] = s[i]; return e; } \\\n" \
  "inline __attribute__((overloadable, always_inline)) event_t __hg_async_strided_copy(__local T *d, const __global T *s, size_t n, size_t st, event_t e) { \\\n" \
  "  for (size_t i = HG_LID(); i < n; i += HG_LSZ()) d[i] = s[i * st]; return e; } \\\n" \
  "inline __attribute__((overloadable, always_inline)) event_t __hg_async_strided_copy(__global T *d, const __local T *s, size_t n, size_t st, event_t e) { \\\n" \
  "  for (size_t i = HG_LID(); i < n; i += HG_LSZ()) d[i * st] = s[i]; return e; }\n" \
  "#define HG_ASYNC_V(T) HG_ASYNC_1(T) HG_ASYNC_1(T##2) HG_ASYNC_1(T##3) HG_ASYNC_1(T##4) HG_ASYNC_1(T##8) HG_ASYNC_1(T##16)\n" \
  "HG_ASYNC_V(char) HG_ASYNC_V(uchar) HG_ASYNC_V(short) HG_ASYNC_V(ushort) HG_ASYNC_V(int) HG_ASYNC_V(uint)\n" \
  "HG_ASYNC_V(long) HG_ASYNC_V(ulong) HG_ASYNC_V(float)\n" \
  "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" \
  "HG_ASYNC_V(double)\n" \
  "#pragma OPENCL EXTENSION cl_khr_fp64 : disable\n" \
  "inline __attribute__((overloadable, always_inline)) void __hg_wait_group_events(int n, event_t *l) {\n" \
  "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n" \
  "#define async_work_group_copy __hg_async_copy\n" \
  "#define async_work_group_strided_copy __hg_async_strided_copy\n" \
  "#define wait_group_events __hg_wait_group_events\n" \
  "#define prefetch(p, n) ((void)(p), (void)(n))\n" \
  "#undef HG_ASYNC_V\n#undef HG_ASYNC_1\n#undef HG_LSZ\n#undef HG_LID\n"

#endif
