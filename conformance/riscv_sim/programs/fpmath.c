/* F and D against qemu's softfloat: every arithmetic op, conversion, compare, min/max, fclass
 * and sign injection over special values in every rounding mode, results and fflags hashed per
 * (operation, mode) and printed, plus details for a sample. */
#include "rt.h"

static u64 bits_d(double d) { u64 b; memcpy(&b, &d, 8); return b; }
static double from_d(u64 b) { double d; memcpy(&d, &b, 8); return d; }
static u32 bits_s(float f) { u32 b; memcpy(&b, &f, 4); return b; }
static float from_s(u32 b) { float f; memcpy(&f, &b, 4); return f; }

static void set_frm(u64 rm) { __asm__ volatile("fsrm %0" : : "r"(rm)); }
static u64 take_flags(void) {
  u64 r;
  __asm__ volatile("frflags %0\n\tfsflags x0" : "=r"(r));
  return r;
}

static const u64 dv[] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3ff8000000000000ull,
                         0x4004000000000000ull, 0xc004000000000000ull, 0x3fb999999999999aull, 0x3fd5555555555555ull,
                         0x7fe1ccf385ebc8a0ull, 0xffe1ccf385ebc8a0ull, 1, 0x0010000000000000ull, 0x000fffffffffffffull,
                         0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
                         0x41e65a0bc0000000ull, 0x41f0c388d0000000ull, 0xc1e65a0bc0000000ull, 0x43e0000000000000ull,
                         0x43f0000000000000ull, 0x3ff0000000000001ull, 0x4340000000000001ull, 0x3ca0000000000000ull,
                         0x7fefffffffffffffull, 0xc3e0000000000001ull};
#define ND (sizeof dv / sizeof dv[0])
static const u32 sv[] = {0, 0x80000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0x40200000, 0xc0200000, 0x3dcccccd,
                         0x3eaaaaab, 0x7f7fffff, 0xff7fffff, 1, 0x00800000, 0x007fffff, 0x7f800000, 0xff800000,
                         0x7fc00000, 0x7f800001, 0x4f32d05e, 0x4f865c47, 0xcf32d05e, 0x5f000000, 0x5f800000,
                         0x3f800001, 0x4b800001, 0x33800000};
#define NS (sizeof sv / sizeof sv[0])

static u64 h;
static void mix(u64 v) { h = (h ^ v) * 0x100000001b3ull; }

#define D2(ins)                                                                                          \
  ({                                                                                                     \
    double r_;                                                                                           \
    __asm__ volatile(ins " %0, %1, %2" : "=f"(r_) : "f"(a), "f"(b));                                     \
    bits_d(r_);                                                                                          \
  })
#define S2(ins)                                                                                          \
  ({                                                                                                     \
    float r_;                                                                                            \
    __asm__ volatile(ins " %0, %1, %2" : "=f"(r_) : "f"(fa), "f"(fb));                                   \
    (u64)bits_s(r_);                                                                                     \
  })
#define D3(ins)                                                                                          \
  ({                                                                                                     \
    double r_;                                                                                           \
    __asm__ volatile(ins " %0, %1, %2, %3" : "=f"(r_) : "f"(a), "f"(b), "f"(c));                         \
    bits_d(r_);                                                                                          \
  })
#define S3(ins)                                                                                          \
  ({                                                                                                     \
    float r_;                                                                                            \
    __asm__ volatile(ins " %0, %1, %2, %3" : "=f"(r_) : "f"(fa), "f"(fb), "f"(fc));                      \
    (u64)bits_s(r_);                                                                                     \
  })
#define D1(ins)                                                                                          \
  ({                                                                                                     \
    double r_;                                                                                           \
    __asm__ volatile(ins " %0, %1" : "=f"(r_) : "f"(a));                                                 \
    bits_d(r_);                                                                                          \
  })
#define X1D(ins)                                                                                         \
  ({                                                                                                     \
    u64 r_;                                                                                              \
    __asm__ volatile(ins " %0, %1" : "=r"(r_) : "f"(a));                                                 \
    r_;                                                                                                  \
  })
#define X1S(ins)                                                                                         \
  ({                                                                                                     \
    u64 r_;                                                                                              \
    __asm__ volatile(ins " %0, %1" : "=r"(r_) : "f"(fa));                                                \
    r_;                                                                                                  \
  })
#define X2D(ins)                                                                                         \
  ({                                                                                                     \
    u64 r_;                                                                                              \
    __asm__ volatile(ins " %0, %1, %2" : "=r"(r_) : "f"(a), "f"(b));                                     \
    r_;                                                                                                  \
  })

static void line(const char *what, unsigned rm) {
  put_str(what);
  put_str(" rm");
  put_dec(rm);
  put_char(' ');
  put_hex(h);
  put_char('\n');
  h = 0xcbf29ce484222325ull;
}

#define RECORD(expr) do { u64 r__ = (expr); mix(r__); mix(take_flags()); } while (0)

int main(void) {
  h = 0xcbf29ce484222325ull;
  take_flags();
  static const unsigned modes[] = {0, 1, 2, 3, 4};
  for (unsigned mi = 0; mi < 5; mi++) {
    unsigned rm = modes[mi];
    set_frm(rm);
    for (unsigned i = 0; i < ND; i++) for (unsigned j = 0; j < ND; j++) { double a = from_d(dv[i]), b = from_d(dv[j]); RECORD(D2("fadd.d")); RECORD(D2("fsub.d")); }
    line("fadd/fsub.d", rm);
    for (unsigned i = 0; i < ND; i++) for (unsigned j = 0; j < ND; j++) { double a = from_d(dv[i]), b = from_d(dv[j]); RECORD(D2("fmul.d")); }
    line("fmul.d", rm);
    for (unsigned i = 0; i < ND; i++) for (unsigned j = 0; j < ND; j++) { double a = from_d(dv[i]), b = from_d(dv[j]); RECORD(D2("fdiv.d")); }
    line("fdiv.d", rm);
    for (unsigned i = 0; i < ND; i++) { double a = from_d(dv[i]); RECORD(D1("fsqrt.d")); }
    line("fsqrt.d", rm);
    for (unsigned i = 0; i < ND; i += 2) for (unsigned j = 0; j < ND; j++) for (unsigned k = 0; k < ND; k += 3) {
      double a = from_d(dv[i]), b = from_d(dv[j]), c = from_d(dv[k]);
      RECORD(D3("fmadd.d")); RECORD(D3("fnmsub.d"));
    }
    line("fmadd/fnmsub.d", rm);
    for (unsigned i = 0; i < NS; i++) for (unsigned j = 0; j < NS; j++) {
      float fa = from_s(sv[i]), fb = from_s(sv[j]);
      RECORD(S2("fadd.s")); RECORD(S2("fsub.s")); RECORD(S2("fmul.s")); RECORD(S2("fdiv.s"));
    }
    line("fadd/fsub/fmul/fdiv.s", rm);
    for (unsigned i = 0; i < NS; i += 2) for (unsigned j = 0; j < NS; j++) for (unsigned k = 0; k < NS; k += 3) {
      float fa = from_s(sv[i]), fb = from_s(sv[j]), fc = from_s(sv[k]);
      RECORD(S3("fmadd.s")); RECORD(S3("fmsub.s")); RECORD(S3("fnmadd.s"));
    }
    line("fmadd/fmsub/fnmadd.s", rm);
    for (unsigned i = 0; i < ND; i++) {
      double a = from_d(dv[i]);
      RECORD(X1D("fcvt.w.d")); RECORD(X1D("fcvt.wu.d")); RECORD(X1D("fcvt.l.d")); RECORD(X1D("fcvt.lu.d"));
      float fs;
      __asm__ volatile("fcvt.s.d %0, %1" : "=f"(fs) : "f"(a));
      RECORD(bits_s(fs));
    }
    line("fcvt.{w,wu,l,lu,s}.d", rm);
    for (unsigned i = 0; i < NS; i++) {
      float fa = from_s(sv[i]);
      RECORD(X1S("fcvt.w.s")); RECORD(X1S("fcvt.wu.s")); RECORD(X1S("fcvt.l.s")); RECORD(X1S("fcvt.lu.s"));
    }
    line("fcvt.{w,wu,l,lu}.s", rm);
    for (unsigned i = 0; i < ND; i++) {
      u64 v = dv[i] ^ (dv[(i + 5) % ND] >> 7);
      double d;
      float f;
      __asm__ volatile("fcvt.d.l %0, %1" : "=f"(d) : "r"(v)); RECORD(bits_d(d));
      __asm__ volatile("fcvt.d.lu %0, %1" : "=f"(d) : "r"(v)); RECORD(bits_d(d));
      __asm__ volatile("fcvt.s.l %0, %1" : "=f"(f) : "r"(v)); RECORD(bits_s(f));
      __asm__ volatile("fcvt.s.lu %0, %1" : "=f"(f) : "r"(v)); RECORD(bits_s(f));
      __asm__ volatile("fcvt.s.w %0, %1" : "=f"(f) : "r"(v)); RECORD(bits_s(f));
      __asm__ volatile("fcvt.s.wu %0, %1" : "=f"(f) : "r"(v)); RECORD(bits_s(f));
    }
    line("fcvt from integers", rm);
  }
  set_frm(0);
  for (unsigned i = 0; i < ND; i++) {
    double a = from_d(dv[i]);
    u64 r;
    __asm__ volatile("fcvt.l.d %0, %1, rtz" : "=r"(r) : "f"(a)); RECORD(r);
    __asm__ volatile("fcvt.l.d %0, %1, rdn" : "=r"(r) : "f"(a)); RECORD(r);
    __asm__ volatile("fcvt.l.d %0, %1, rup" : "=r"(r) : "f"(a)); RECORD(r);
    __asm__ volatile("fcvt.l.d %0, %1, rmm" : "=r"(r) : "f"(a)); RECORD(r);
    __asm__ volatile("fcvt.wu.d %0, %1, rmm" : "=r"(r) : "f"(a)); RECORD(r);
    if (i < 12) { put_hex(r); put_char(' '); }
  }
  put_char('\n');
  line("static-rm fcvt", 0);
  for (unsigned i = 0; i < ND; i++) for (unsigned j = 0; j < ND; j++) {
    double a = from_d(dv[i]), b = from_d(dv[j]);
    RECORD(D2("fmin.d")); RECORD(D2("fmax.d")); RECORD(X2D("feq.d")); RECORD(X2D("flt.d")); RECORD(X2D("fle.d"));
    RECORD(D2("fsgnj.d")); RECORD(D2("fsgnjn.d")); RECORD(D2("fsgnjx.d"));
  }
  line("min/max/compare/sgnj.d", 0);
  for (unsigned i = 0; i < NS; i++) for (unsigned j = 0; j < NS; j++) {
    float fa = from_s(sv[i]), fb = from_s(sv[j]);
    RECORD(S2("fmin.s")); RECORD(S2("fmax.s")); RECORD(S2("fsgnjx.s"));
    u64 r;
    __asm__ volatile("flt.s %0, %1, %2" : "=r"(r) : "f"(fa), "f"(fb)); RECORD(r);
    __asm__ volatile("feq.s %0, %1, %2" : "=r"(r) : "f"(fa), "f"(fb)); RECORD(r);
  }
  line("min/max/compare/sgnj.s", 0);
  for (unsigned i = 0; i < ND; i++) { double a = from_d(dv[i]); RECORD(X1D("fclass.d")); }
  for (unsigned i = 0; i < NS; i++) { float fa = from_s(sv[i]); RECORD(X1S("fclass.s")); RECORD(X1S("fmv.x.w")); }
  line("fclass, fmv.x.w", 0);
  /* NaN boxing: a double register read as a single */
  for (unsigned i = 0; i < ND; i++) {
    double a = from_d(dv[i]);
    float fr;
    __asm__ volatile("fadd.s %0, %1, %1" : "=f"(fr) : "f"(a));
    RECORD(bits_s(fr));
    u64 r;
    __asm__ volatile("fclass.s %0, %1" : "=r"(r) : "f"(a));
    RECORD(r);
  }
  line("NaN boxing", 0);
  /* sample details */
  double a = 1.0, b = 3.0;
  put_hex(D2("fdiv.d"));
  put_char(' ');
  put_hex(take_flags());
  put_char('\n');
  a = from_d(0x7ff0000000000001ull);
  b = 1;
  put_hex(D2("fmax.d"));
  put_char(' ');
  put_hex(take_flags());
  put_char('\n');
  return 0;
}
