/* The printf buffer's layout (docs/printf.md): what the code generators that write records
 * (lowering/opencl_c_printf.c, the RISC-V backend) and the host formatter that reads them
 * (devices/printf_buffer.c) agree on. Here, in the bottom folder, so neither side includes
 * the other for it.
 *
 * The buffer: an 8-byte header, the count of record bytes used as a little-endian u64 (writers
 * that add with 32-bit atomics update its low half and stop adding once it reaches the
 * capacity, so the high half stays 0), then `cap` bytes of records. A record (8-aligned):
 *   u32 total bytes, u32 format id (index into the program's format table),
 *   u64 linear work-group id, then one 8-byte slot per argument element (vectors element by
 *   element): integers sign- or zero-extended to 64 bits, floats and halves as the bit pattern
 *   of the double they convert to, doubles as their bits, pointers (%p) as addresses, strings
 *   (%s) as a backend-defined 64-bit value that the backend's string resolver turns into text.
 * A record that does not fit is not written (its printf returned -1); the count may then pass
 * the capacity, and records end there. The capacity is HG_PROFILE_PRINTF_BUFFER_SIZE
 * (common/profile_limits.h). */
#ifndef HETGPU_COMMON_PRINTF_LAYOUT_H
#define HETGPU_COMMON_PRINTF_LAYOUT_H

#define HG_PRINTF_HEADER_BYTES 8u
#define HG_PRINTF_RECORD_HEADER_BYTES 16u
#define HG_PRINTF_SLOT_BYTES 8u

#endif
