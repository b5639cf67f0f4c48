#!/usr/bin/env python3
"""Compares two raw yuv420p frame files pixel by pixel (every plane of every frame).

  compare_frames.py A B WIDTH HEIGHT --max-diff D [--border N] [--max-frac F]

Passes when both files hold the same number of frames, no sample differs by more than D levels,
and at most the fraction F of samples differ at all. --border N leaves out the N outer rows and
columns of each plane (scaled for the half-size chroma planes), where filters may treat edges
differently. Prints the largest difference, where it is, and how often samples differ."""
import argparse
import sys


def planes(width, height):
    cw, ch = (width + 1) // 2, (height + 1) // 2
    return [("Y", width, height), ("U", cw, ch), ("V", cw, ch)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("--max-diff", type=int, required=True)
    ap.add_argument("--max-frac", type=float, default=1.0)
    ap.add_argument("--border", type=int, default=0)
    o = ap.parse_args()
    a, b = open(o.a, "rb").read(), open(o.b, "rb").read()
    frame = sum(w * h for _, w, h in planes(o.width, o.height))
    if len(a) != len(b) or len(a) == 0 or len(a) % frame:
        print(f"sizes differ or are not whole frames: {len(a)} and {len(b)} bytes, frame {frame}")
        return 1
    worst, where, differing, total = 0, None, 0, 0
    for f in range(len(a) // frame):
        base = f * frame
        for name, w, h in planes(o.width, o.height):
            e = o.border if name == "Y" else (o.border + 1) // 2
            for y in range(e, h - e):
                row = base + y * w
                ra, rb = a[row + e:row + w - e], b[row + e:row + w - e]
                if ra == rb:
                    total += len(ra)
                    continue
                for x, (p, q) in enumerate(zip(ra, rb)):
                    d = abs(p - q)
                    total += 1
                    if d:
                        differing += 1
                        if d > worst:
                            worst, where = d, (f, name, x + e, y, p, q)
            base += w * h
    frac = differing / total if total else 0.0
    print(f"{o.a} vs {o.b}: {differing} of {total} samples differ ({frac:.4%}), largest difference {worst}"
          + (f" (frame {where[0]} plane {where[1]} x {where[2]} y {where[3]}: {where[4]} vs {where[5]})" if where else ""))
    if worst > o.max_diff or frac > o.max_frac:
        print(f"FAIL: allowed {o.max_diff} levels and {o.max_frac:.4%} of samples")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
