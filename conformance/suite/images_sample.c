/* The specification's image sampling on the host (OpenCL C, "Image addressing and filtering"),
 * in double precision, for the images_samplers area. Per axis of size n and coordinate s:
 *   unnormalized u = s, normalized u = s * n;
 *   nearest: i = floor(u), then CLAMP_TO_EDGE clamps to [0, n-1], CLAMP gives the border color
 *     outside [0, n-1], NONE leaves it (the tests stay inside);
 *     REPEAT: u = (s - floor(s)) * n, i = floor(u), i - n when i > n-1;
 *     MIRRORED_REPEAT: s' = |s - 2 rint(s / 2)|, u = s' * n, i = min(floor(u), n-1);
 *   linear: i0 = floor(u - 0.5), i1 = i0 + 1, a = frac(u - 0.5), the result the weighted sum
 *     (1-a) T[i0] + a T[i1] over every axis, with the addressing applied to i0 and i1 (REPEAT:
 *     i0 + n when < 0, i1 - n when > n-1; MIRRORED_REPEAT: i0 >= 0, i1 <= n-1);
 *   border color: (0,0,0,0) for orders with alpha, (0,0,0,1) for CL_R and CL_RG;
 *   arrays: the layer is clamp(rint(c), 0, layers - 1) of the coordinate after the sampled ones. */
#include "images_model.h"

#include <math.h>

/* The texel indices (one for nearest, two for linear) and the weight of the second for one
 * axis; an index of -1 past either end means the border color. */
typedef struct {
  long i0, i1;
  double a;
} axis_pick;

static long border_or(long i, long n) { return i < 0 || i >= n ? -1 : i; }

static axis_pick pick(const im_sampler *smp, double s, long n) {
  axis_pick p = {0, 0, 0};
  double u = smp->normalized ? s * (double)n : s;
  bool linear = smp->filter == CL_FILTER_LINEAR;
  switch (smp->addressing) {
  case CL_ADDRESS_REPEAT: {
    u = (s - floor(s)) * (double)n;
    if (!linear) {
      p.i0 = (long)floor(u);
      if (p.i0 > n - 1)
        p.i0 -= n;
      return p;
    }
    p.i0 = (long)floor(u - 0.5), p.i1 = p.i0 + 1, p.a = (u - 0.5) - floor(u - 0.5);
    if (p.i0 < 0)
      p.i0 += n;
    if (p.i1 > n - 1)
      p.i1 -= n;
    return p;
  }
  case CL_ADDRESS_MIRRORED_REPEAT: {
    double sp = fabs(s - 2.0 * rint(0.5 * s));
    u = sp * (double)n;
    if (!linear) {
      p.i0 = (long)floor(u);
      if (p.i0 > n - 1)
        p.i0 = n - 1;
      return p;
    }
    p.i0 = (long)floor(u - 0.5), p.i1 = p.i0 + 1, p.a = (u - 0.5) - floor(u - 0.5);
    if (p.i0 < 0)
      p.i0 = 0;
    if (p.i1 > n - 1)
      p.i1 = n - 1;
    return p;
  }
  default: {
    long i0 = linear ? (long)floor(u - 0.5) : (long)floor(u), i1 = i0 + 1;
    p.a = linear ? (u - 0.5) - floor(u - 0.5) : 0;
    if (smp->addressing == CL_ADDRESS_CLAMP_TO_EDGE) {
      i0 = i0 < 0 ? 0 : i0 > n - 1 ? n - 1 : i0;
      i1 = i1 < 0 ? 0 : i1 > n - 1 ? n - 1 : i1;
    } else { /* CLAMP (NONE: inside, where it agrees) */
      i0 = border_or(i0, n), i1 = border_or(i1, n);
    }
    p.i0 = i0, p.i1 = i1;
    return p;
  }
  }
}

/* The coordinates the sampler addresses and filters: 1D and 1D array 1, 2D and 2D array 2, 3D 3;
 * an array's next coordinate is its layer. */
static int dims_of(const im_shape *s) {
  switch (s->type) {
  case CL_MEM_OBJECT_IMAGE3D: return 3;
  case CL_MEM_OBJECT_IMAGE2D: case CL_MEM_OBJECT_IMAGE2D_ARRAY: return 2;
  default: return 1;
  }
}

static bool is_array(const im_shape *s) {
  return s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || s->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/* An array's layer: clamp(rint(c), 0, layers - 1), whatever the sampler (never normalized). */
static long layer_of(const im_shape *s, const float *c) {
  long layers = (long)(s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? s->h : s->d);
  long l = (long)rint((double)c[dims_of(s)]);
  return l < 0 ? 0 : l > layers - 1 ? layers - 1 : l;
}

static void texel_float(const im_shape *s, const uint8_t *pixels, const long idx[3], double out[4]) {
  if (idx[0] < 0 || idx[1] < 0 || idx[2] < 0) {
    out[0] = out[1] = out[2] = 0, out[3] = im_has_alpha(&s->fmt) ? 0 : 1;
    return;
  }
  im_read_float(&s->fmt, im_at(s, (uint8_t *)pixels, (size_t)idx[0], (size_t)idx[1], (size_t)idx[2]), out);
}

void im_sample_float(const im_shape *s, const uint8_t *pixels, const im_sampler *smp, const float *c, double out[4]) {
  int dims = dims_of(s);
  long size[3] = {(long)s->w, (long)s->h, (long)s->d};
  axis_pick p[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (int k = 0; k < dims; k++)
    p[k] = pick(smp, (double)c[k], size[k]);
  out[0] = out[1] = out[2] = out[3] = 0;
  int corners = smp->filter == CL_FILTER_LINEAR ? 1 << dims : 1;
  for (int m = 0; m < corners; m++) {
    long idx[3] = {0, 0, 0};
    if (is_array(s))
      idx[dims] = layer_of(s, c);
    double w = 1;
    for (int k = 0; k < dims; k++) {
      bool second = (m >> k) & 1;
      idx[k] = second ? p[k].i1 : p[k].i0;
      if (corners > 1)
        w *= second ? p[k].a : 1 - p[k].a;
    }
    double t[4];
    texel_float(s, pixels, idx, t);
    for (int j = 0; j < 4; j++)
      out[j] += w * t[j];
  }
}

void im_sample_int(const im_shape *s, const uint8_t *pixels, const im_sampler *smp, const float *c, int64_t out[4]) {
  int dims = dims_of(s);
  long size[3] = {(long)s->w, (long)s->h, (long)s->d}, idx[3] = {0, 0, 0};
  if (is_array(s))
    idx[dims] = layer_of(s, c);
  for (int k = 0; k < dims; k++)
    idx[k] = pick(smp, (double)c[k], size[k]).i0;
  if (idx[0] < 0 || idx[1] < 0 || idx[2] < 0) {
    out[0] = out[1] = out[2] = 0, out[3] = im_has_alpha(&s->fmt) ? 0 : 1;
    return;
  }
  im_read_int(&s->fmt, im_at(s, (uint8_t *)pixels, (size_t)idx[0], (size_t)idx[1], (size_t)idx[2]), out);
}

double im_boundary_distance(const im_shape *s, const im_sampler *smp, const float *c) {
  int dims = dims_of(s);
  long size[3] = {(long)s->w, (long)s->h, (long)s->d};
  double worst = 1;
  for (int k = 0; k < dims; k++) {
    double v = (double)c[k], u;
    if (smp->addressing == CL_ADDRESS_MIRRORED_REPEAT)
      u = fabs(v - 2.0 * rint(0.5 * v)) * (double)size[k];
    else if (smp->normalized)
      u = v * (double)size[k]; /* REPEAT's boundaries are those of s * n too */
    else
      u = v;
    if (smp->filter == CL_FILTER_LINEAR)
      u -= 0.5;
    double d = fabs(u - rint(u));
    if (d < worst)
      worst = d;
  }
  if (is_array(s)) { /* the layer's rint: away from the halves */
    double l = (double)c[dims];
    double d = fabs(fabs(l - floor(l)) - 0.5);
    if (d < worst)
      worst = d;
  }
  return worst;
}
