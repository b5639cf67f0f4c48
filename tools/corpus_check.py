#!/usr/bin/env python3
"""Sanity check of the kernel corpus (conformance/kernels/) directly on PoCL.

For every *.cl file under the given paths this script parses the //@ directives of
docs/kernel-corpus.md, builds the file on the reference platform (PoCL, never hetGPU), checks
that the directives agree with the kernel signatures, and runs every //@ kernel twice on the
same random inputs:

  run A: outputs poisoned with 0xA5, bytes past the end of every buffer (a guard zone) 0xA5
  run B: outputs poisoned with 0x5A, guard zone 0x5A

The two runs must give byte-identical outputs (NaNs compared as NaNs), and the guard zones must
be untouched. A difference means an output byte the kernel never wrote, a race, an
order-dependent atomic result, or a read past the end of a buffer -- each of which would make
the hetGPU-vs-PoCL comparison of the corpus runner meaningless. Kernels that call printf run
in two child processes whose captured stdout must be identical and non-empty.

It also enforces the corpus rules: several work-groups (except printf kernels), a known compare
mode, buffer/local/scalar/bytes arguments matching the address space and size of each kernel
parameter.

Usage: python3 tools/corpus_check.py [-j N] [-v] PATH...   (files or directories)
Exit status 0 when every file passes.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def _reexec_with_pyopencl():
    # pyopencl is a Debian package; a pyenv/venv python3 earlier in PATH may not see it.
    try:
        import pyopencl  # noqa: F401
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("CORPUS_CHECK_REEXEC") != "1" and os.path.exists("/usr/bin/python3") \
            and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.environ["CORPUS_CHECK_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("corpus_check: needs pyopencl and numpy (apt: python3-pyopencl python3-numpy)")


_reexec_with_pyopencl()
import numpy as np  # noqa: E402
import pyopencl as cl  # noqa: E402

GUARD = 256  # bytes of guard zone after every buffer

SCALARS = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
    "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
    "float": np.float32, "double": np.float64, "half": np.float16,
}
WIDTHS = (2, 3, 4, 8, 16)
ADDR_GLOBAL, ADDR_LOCAL, ADDR_CONSTANT, ADDR_PRIVATE = 0x119B, 0x119C, 0x119D, 0x119E


class CorpusError(Exception):
    pass


def parse_type(name):
    """'float4' -> (np.float32, lanes=4, storage lanes=4); 'int3' stores 4 lanes."""
    m = re.fullmatch(r"([a-z]+?)(2|3|4|8|16)?", name)
    if not m or m.group(1) not in SCALARS:
        raise CorpusError("unknown type %r" % name)
    lanes = int(m.group(2)) if m.group(2) else 1
    if m.group(1) == "half" and lanes != 1:
        raise CorpusError("half is storage only: use half buffers, not %s" % name)
    return np.dtype(SCALARS[m.group(1)]), lanes, (4 if lanes == 3 else lanes)


def num(text, dtype):
    if dtype.kind == "f":
        return float(text)
    return int(text, 0)


def parse_file(path):
    """Returns dict(kernels=[{name, args}], global, local, offset, options, compare, printf)."""
    spec = {"kernels": [], "global": None, "local": None, "offset": None, "options": "",
            "compare": ("exact",)}
    with open(path) as f:
        src = f.read()
    spec["source"] = src
    spec["printf"] = re.search(r"\bprintf\s*\(", src) is not None
    for lineno, line in enumerate(src.splitlines(), 1):
        if not line.startswith("//@"):
            continue
        words = line[3:].split()
        if not words:
            raise CorpusError("line %d: empty directive" % lineno)
        d, rest = words[0], words[1:]
        where = "line %d (%s)" % (lineno, d)
        if d == "kernel":
            if len(rest) != 1:
                raise CorpusError(where + ": kernel NAME")
            spec["kernels"].append({"name": rest[0], "args": []})
        elif d in ("global", "local", "offset"):
            if not 1 <= len(rest) <= 3:
                raise CorpusError(where + ": 1 to 3 sizes")
            spec[d] = tuple(int(x) for x in rest)
        elif d == "options":
            spec["options"] = line[3:].strip()[len("options"):].strip()
        elif d == "compare":
            if rest == ["exact"] or rest == ["none"]:
                spec["compare"] = (rest[0],)
            elif len(rest) == 2 and rest[0] in ("ulp", "abs", "rel"):
                spec["compare"] = (rest[0], float(rest[1]))
            elif len(rest) == 4 and rest[0] == "rel" and rest[2] == "abs":
                spec["compare"] = ("rel", float(rest[1]), float(rest[3]))
            else:
                raise CorpusError(where + ": exact | ulp N | abs E | rel E [abs F] | none")
        elif d == "arg":
            if not spec["kernels"]:
                raise CorpusError(where + ": arg before any kernel")
            spec["kernels"][-1]["args"].append(parse_arg(rest, where))
        else:
            raise CorpusError(where + ": unknown directive")
    if not spec["kernels"]:
        raise CorpusError("no //@ kernel directive")
    if spec["global"] is None:
        raise CorpusError("no //@ global directive")
    dims = len(spec["global"])
    for k in ("local", "offset"):
        if spec[k] is not None and len(spec[k]) != dims:
            raise CorpusError("//@ %s has %d sizes, //@ global %d" % (k, len(spec[k]), dims))
    if spec["local"]:
        for g, l in zip(spec["global"], spec["local"]):
            if l == 0 or g % l:
                raise CorpusError("global %s not a multiple of local %s"
                                  % (spec["global"], spec["local"]))
    return spec


def parse_arg(rest, where):
    if not rest:
        raise CorpusError(where + ": arg KIND ...")
    kind = rest[0]
    if kind in ("in", "inout"):
        if len(rest) < 4:
            raise CorpusError(where + ": arg %s TYPE COUNT INIT" % kind)
        dt, lanes, slanes = parse_type(rest[1])
        init = rest[3]
        a = {"kind": kind, "type": rest[1], "dtype": dt, "slanes": slanes,
             "count": int(rest[2]), "init": init}
        if init == "random":
            if len(rest) != 6:
                raise CorpusError(where + ": random LO HI")
            a["lo"], a["hi"] = num(rest[4], dt), num(rest[5], dt)
            if a["lo"] > a["hi"]:
                raise CorpusError(where + ": LO > HI")
            if dt.kind in "iu":
                info = np.iinfo(dt)
                if a["lo"] < info.min or a["hi"] > info.max:
                    raise CorpusError(where + ": range outside %s" % rest[1])
        elif init in ("iota", "special"):
            if len(rest) != 4:
                raise CorpusError(where + ": trailing words after %s" % init)
        else:
            raise CorpusError(where + ": init must be random, iota or special")
        return a
    if kind in ("out", "local"):
        if len(rest) != 3:
            raise CorpusError(where + ": arg %s TYPE COUNT" % kind)
        dt, lanes, slanes = parse_type(rest[1])
        return {"kind": kind, "type": rest[1], "dtype": dt, "slanes": slanes,
                "count": int(rest[2])}
    if kind == "scalar":
        dt, lanes, slanes = parse_type(rest[1])
        vals = rest[2:]
        if len(vals) != lanes and not (lanes == 3 and len(vals) == 4):
            raise CorpusError(where + ": %s takes %d values" % (rest[1], lanes))
        vals = [num(v, dt) for v in vals] + [0] * (slanes - len(vals))
        return {"kind": kind, "type": rest[1], "bytes": np.array(vals, dtype=dt).tobytes()}
    if kind == "bytes":
        if len(rest) != 3:
            raise CorpusError(where + ": arg bytes N HEX")
        n, hx = int(rest[1]), rest[2]
        if len(hx) != 2 * n:
            raise CorpusError(where + ": %d bytes need %d hex digits" % (n, 2 * n))
        return {"kind": kind, "type": "bytes", "bytes": bytes.fromhex(hx)}
    raise CorpusError(where + ": unknown arg kind %r" % kind)


def special_values(dt, n):
    if dt.kind == "f":
        fi = np.finfo(dt)
        tiny = fi.tiny
        vals = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny / 2, -tiny / 2, fi.max, -fi.max,
                tiny, -tiny, 1.0, -1.0, fi.smallest_subnormal if hasattr(fi, "smallest_subnormal")
                else tiny * fi.eps]
        base = np.array(vals, dtype=dt)
    else:
        ii = np.iinfo(dt)
        base = np.array([0, 1, ii.max if dt.kind == "u" else -1, ii.min, ii.max],
                        dtype=dt)
    return np.resize(base, n)


def make_input(a, rng):
    n = a["count"] * a["slanes"]
    dt = a["dtype"]
    if a["init"] == "iota":
        return np.arange(n, dtype=np.int64).astype(dt)
    if a["init"] == "special":
        return special_values(dt, n)
    if dt.kind == "f":
        return rng.uniform(a["lo"], a["hi"], n).astype(dt)
    return rng.integers(a["lo"], a["hi"], n, endpoint=True, dtype=np.int64 if dt != np.uint64
                        else np.uint64).astype(dt)


def check_signature(kernel, args, kname):
    nargs = kernel.num_args
    if nargs != len(args):
        raise CorpusError("kernel %s has %d parameters, directives give %d"
                          % (kname, nargs, len(args)))
    for i, a in enumerate(args):
        try:
            aq = kernel.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER)
            tn = kernel.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME)
        except cl.Error:
            return
        tn = tn.strip()
        want = {"in": (ADDR_GLOBAL, ADDR_CONSTANT), "out": (ADDR_GLOBAL,),
                "inout": (ADDR_GLOBAL,), "local": (ADDR_LOCAL,),
                "scalar": (ADDR_PRIVATE,), "bytes": (ADDR_PRIVATE,)}[a["kind"]]
        if aq not in want:
            raise CorpusError("kernel %s parameter %d (%s): wrong address space for arg %s"
                              % (kname, i, tn, a["kind"]))
        if a["kind"] in ("in", "out", "inout", "local"):
            base = tn.rstrip("*").strip()
            base = re.sub(r"^(unsigned )", "u", base)
            if a["type"] != base and base not in ("void",) and not base.startswith("struct") \
                    and not base.startswith("union") and not kname.startswith("_"):
                sz_known = base in SCALARS or re.fullmatch(r"[a-z]+(2|3|4|8|16)", base)
                if sz_known:
                    try:
                        dt, _, sl = parse_type(base)
                        if dt.itemsize * sl == a["dtype"].itemsize * a["slanes"]:
                            continue  # same element size, reinterpreted on purpose
                    except CorpusError:
                        pass
                    raise CorpusError("kernel %s parameter %d is %s, arg says %s"
                                      % (kname, i, tn, a["type"]))
        if a["kind"] == "scalar":
            if tn != a["type"]:
                raise CorpusError("kernel %s parameter %d is %s, arg says %s"
                                  % (kname, i, tn, a["type"]))


def run_once(ctx, queue, prog, spec, poison, seed):
    """Runs every kernel; returns list of (label, bytes) of every out/inout buffer."""
    rng = np.random.default_rng(seed)
    results = []
    for kidx, k in enumerate(spec["kernels"]):
        kernel = getattr(prog, k["name"])
        check_signature(kernel, k["args"], k["name"])
        bufs = []
        for i, a in enumerate(k["args"]):
            if a["kind"] in ("in", "inout", "out"):
                nbytes = a["count"] * a["slanes"] * a["dtype"].itemsize
                if nbytes == 0:
                    raise CorpusError("arg %d of %s: empty buffer" % (i, k["name"]))
                if a["kind"] == "out":
                    host = np.full(nbytes + GUARD, poison, dtype=np.uint8)
                else:
                    data = make_input(a, rng).view(np.uint8)
                    host = np.concatenate([data, np.full(GUARD, poison, dtype=np.uint8)])
                buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                hostbuf=host)
                bufs.append((i, a, buf, nbytes))
                kernel.set_arg(i, buf)
            elif a["kind"] == "local":
                kernel.set_arg(i, cl.LocalMemory(a["count"] * a["slanes"] * a["dtype"].itemsize))
            else:
                kernel.set_arg(i, a["bytes"])
        cl.enqueue_nd_range_kernel(queue, kernel, spec["global"], spec["local"],
                                   global_work_offset=spec["offset"])
        queue.finish()
        for i, a, buf, nbytes in bufs:
            host = np.empty(nbytes + GUARD, dtype=np.uint8)
            cl.enqueue_copy(queue, host, buf)
            if np.any(host[nbytes:] != poison):
                raise CorpusError("kernel %s arg %d: wrote past the end of its buffer"
                                  % (k["name"], i))
            if a["kind"] in ("out", "inout"):
                results.append(("kernel %s arg %d (%s %s)" % (k["name"], i, a["kind"], a["type"]),
                                a, host[:nbytes].copy()))
        for _, _, buf, _ in bufs:
            buf.release()
    return results


def first_difference(a, ra, rb):
    n = a["dtype"].itemsize
    for off in range(0, len(ra), n):
        if ra[off:off + n].tobytes() != rb[off:off + n].tobytes():
            x = ra[off:off + n].view(a["dtype"])[0]
            y = rb[off:off + n].view(a["dtype"])[0]
            if a["dtype"].kind == "f" and np.isnan(x) and np.isnan(y):
                continue
            return off // n, x, y
    return None


def check_file(path, printf_child=False):
    """Checks one file in this process. Returns a short summary; raises CorpusError."""
    spec = parse_file(path)
    groups = 1
    if spec["local"]:
        for g, l in zip(spec["global"], spec["local"]):
            groups *= g // l
    if not spec["printf"]:
        total = 1
        for g in spec["global"]:
            total *= g
        if spec["local"] and groups < 2:
            raise CorpusError("only one work-group: use several")
        if total < 64:
            raise CorpusError("only %d work-items: use many" % total)
    platform = cl.get_platforms()
    devs = [d for p in platform if "Portable Computing Language" in p.name
            for d in p.get_devices()]
    if not devs:
        raise CorpusError("PoCL platform not found")
    ctx = cl.Context(devs[:1])
    queue = cl.CommandQueue(ctx)
    try:
        prog = cl.Program(ctx, spec["source"]).build(
            options=(spec["options"] + " -cl-kernel-arg-info").split())
    except cl.RuntimeError as e:
        raise CorpusError("build failed:\n" + str(e)[-3000:])
    seed = int(os.environ.get("CORPUS_CHECK_SEED", "0")) or int.from_bytes(os.urandom(4), "little")
    if printf_child:
        run_once(ctx, queue, prog, spec, 0xA5, seed)
        return "printf"
    ra = run_once(ctx, queue, prog, spec, 0xA5, seed)
    rb = run_once(ctx, queue, prog, spec, 0x5A, seed)
    for (label, a, x), (_, _, y) in zip(ra, rb):
        d = first_difference(a, x, y)
        if d is not None:
            raise CorpusError("%s element %d differs between two runs (%r vs %r): unwritten "
                              "output, race, order-dependent result or out-of-bounds read"
                              % (label, d[0], d[1], d[2]))
    return "%d output buffer(s)" % len(ra)


def check_printf_file(path):
    """Runs a printf kernel in two child processes; their stdout must match and be non-empty."""
    outs = []
    env = dict(os.environ, CORPUS_CHECK_SEED=str(1 + int.from_bytes(os.urandom(3), "little")))
    for _ in range(2):
        p = subprocess.run([sys.executable, __file__, "--child-printf", path], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        if p.returncode != 0:
            raise CorpusError("printf child failed (rc %d): %s"
                              % (p.returncode, p.stderr.decode(errors="replace")[-2000:]))
        outs.append(p.stdout)
    if not outs[0].strip():
        raise CorpusError("printf kernel printed nothing")
    if outs[0] != outs[1]:
        raise CorpusError("printf output differs between two runs (order-dependent output)")
    return "printf, %d bytes of output" % len(outs[0])


def worker(path):
    """Child entry: checks one file, prints a JSON line on stderr-safe channel (stdout)."""
    try:
        spec_printf = re.search(r"\bprintf\s*\(", open(path).read()) is not None
        if spec_printf:
            msg = check_printf_file(path)
        else:
            msg = check_file(path)
        return {"path": path, "ok": True, "msg": msg}
    except CorpusError as e:
        return {"path": path, "ok": False, "msg": str(e)}
    except Exception as e:  # noqa: BLE001 - report everything PoCL or pyopencl raises
        return {"path": path, "ok": False, "msg": "%s: %s" % (type(e).__name__, e)}


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith(".cl")]
        else:
            files.append(p)
    return sorted(files)


def main(argv):
    if len(argv) >= 2 and argv[0] == "--child-printf":
        try:
            check_file(argv[1], printf_child=True)
        except CorpusError as e:
            sys.stderr.write(str(e))
            return 1
        return 0
    if len(argv) >= 2 and argv[0] == "--child":
        res = worker(argv[1])
        with open(argv[2], "w") as f:
            json.dump(res, f)
        return 0
    jobs, verbose, paths = 2, False, []
    it = iter(argv)
    for a in it:
        if a == "-j":
            jobs = int(next(it))
        elif a == "-v":
            verbose = True
        else:
            paths.append(a)
    if not paths:
        print(__doc__)
        return 2
    files = collect(paths)
    if not files:
        print("corpus_check: no .cl files found")
        return 2
    failed = 0
    tmpdir = tempfile.mkdtemp(prefix="corpus_check_")
    pending = list(files)
    running = []
    done = 0
    while pending or running:
        while pending and len(running) < jobs:
            f = pending.pop(0)
            rpath = os.path.join(tmpdir, "%d.json" % (len(files) - len(pending)))
            p = subprocess.Popen([sys.executable, __file__, "--child", f, rpath],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            running.append((f, rpath, p))
        f, rpath, p = running.pop(0)
        _, err = p.communicate()
        done += 1
        try:
            with open(rpath) as fh:
                res = json.load(fh)
            os.unlink(rpath)
        except (OSError, ValueError):
            res = {"path": f, "ok": False,
                   "msg": "checker child crashed (rc %d): %s"
                   % (p.returncode, err.decode(errors="replace")[-1500:])}
        if not res["ok"]:
            failed += 1
            print("FAIL %s: %s" % (res["path"], res["msg"]))
        elif verbose:
            print("ok   %s: %s" % (res["path"], res["msg"]))
        sys.stdout.flush()
    os.rmdir(tmpdir)
    print("corpus_check: %d files, %d passed, %d failed" % (len(files), len(files) - failed,
                                                             failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
