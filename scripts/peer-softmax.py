#!/usr/bin/env python3
"""peer-softmax - the softmax peers conform is held against, timed the way
conform times its own kernels, on a machine with PyTorch and Triton:

    scripts/peer-softmax.py [--shapes ROWSxCOLS,...] [--dtypes bf16,f32]
                            [--reps N] [--json FILE] [--no-triton]

For each shape and dtype it times, cold (the L2 evicted by reading a
buffer of twice its size before every launch) and by the GPU's own
timestamps (PyTorch's profiler reads CUPTI, as conform's worker does; a
launch's time is the union of its kernels' and copies' intervals, the
flush left out):

  torch     torch.softmax(x, dim=-1) in the tensor's dtype;
  triton    a fused softmax in the style of Triton's tutorial (a program
            normalises ROWS rows held in registers: one read, one write,
            the exponential through exp2), autotuned: every (ROWS,
            num_warps) below is timed and the fastest kept;
  copy      out.copy_(x), a device-to-device copy of the same bytes.

and once per run the copy of 2^28 f32 that conform's device.copy reference
times.  Bandwidths count bytes read plus written, as conform's do.  Prints
one table row per problem (medians in us) and, with --json, writes the
figures (each triton configuration too) as one JSON object per line.

The shapes default to those of docs/PERFORMANCE.md's softmax table.
"""
import argparse
import json
import os
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_timing import Flush, device_copy_ref, launch_times_us, median  # noqa: E402

SWEEP_ELEMS = 1 << 26
DEFAULT_SHAPES = ["16384x128", "131072x128", "1048576x128", "4096x1024"] + [
    "%dx%d" % (SWEEP_ELEMS // c, c) for c in (32, 64, 100, 256, 1000, 1024, 4096, 8192)]
DTYPES = {"bf16": torch.bfloat16, "f32": torch.float32}
ROWS = (1, 2, 4, 8, 16, 32)
WARPS = (1, 2, 4, 8, 16)
# A program holds ROWS x next_pow2(cols) elements; beyond this many per
# thread the registers spill, so such configurations are not tried.
MAX_PER_THREAD = 64


@triton.jit
def softmax_rows(out_ptr, in_ptr, n_rows, N_COLS: tl.constexpr, ROWS: tl.constexpr,
                 BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < N_COLS)
    offs = rows[:, None].to(tl.int64) * N_COLS + cols[None, :]
    x = tl.load(in_ptr + offs, mask=mask, other=-float("inf")).to(tl.float32)
    z = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(z)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


class Log:
    """The figures as JSON lines, each written as it is known (so that a
    run cut short keeps what it measured)."""

    def __init__(self, path):
        self.f = open(path, "w") if path else None

    def append(self, record):
        if self.f:
            self.f.write(json.dumps(record) + "\n")
            self.f.flush()

    def close(self):
        if self.f:
            self.f.close()


def triton_configs(cols):
    block = triton.next_power_of_2(cols)
    for rows in ROWS:
        for warps in WARPS:
            if rows * block <= MAX_PER_THREAD * 32 * warps and rows * block >= 32 * warps:
                yield rows, warps, block


def triton_fn(x, y, rows, warps, block):
    n_rows, cols = x.shape
    grid = (triton.cdiv(n_rows, rows),)
    return lambda: softmax_rows[grid](y, x, n_rows, N_COLS=cols, ROWS=rows, BLOCK=block,
                                      num_warps=warps)


def measure(shape, dname, flush, reps, log, with_triton):
    rows, cols = shape
    dtype = DTYPES[dname]
    x = (torch.randn(rows, cols, device="cuda") * 4).to(dtype)
    y = torch.empty_like(x)
    nbytes = 2 * x.numel() * x.element_size()
    want = torch.softmax(x.float(), dim=-1)
    res = {"rows": rows, "cols": cols, "dtype": dname, "bytes": nbytes}
    res["torch_us"] = median(launch_times_us(lambda: torch.softmax(x, dim=-1), flush, reps))
    res["copy_us"] = median(launch_times_us(lambda: y.copy_(x), flush, reps))
    best = None
    for rows_pp, warps, block in triton_configs(cols) if with_triton else ():
        fn = triton_fn(x, y, rows_pp, warps, block)
        fn()
        torch.cuda.synchronize()
        err = (y.float() - want).abs().max().item()
        if not err <= (1e-2 if dtype == torch.bfloat16 else 1e-5):
            print("triton rows=%d warps=%d: wrong (max error %g)" % (rows_pp, warps, err),
                  file=sys.stderr)
            continue
        t = median(launch_times_us(fn, flush, max(10, reps // 4)))
        log.append(dict(res, what="triton-config", rows_per_program=rows_pp, warps=warps, us=t))
        if best is None or t < best[0]:
            best = (t, rows_pp, warps, block)
    if best:
        fn = triton_fn(x, y, best[1], best[2], best[3])
        res["triton_us"] = median(launch_times_us(fn, flush, reps))
        res["triton_config"] = "rows=%d,warps=%d" % (best[1], best[2])
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default=",".join(DEFAULT_SHAPES))
    ap.add_argument("--dtypes", default="bf16,f32")
    ap.add_argument("--reps", type=int, default=60)
    ap.add_argument("--json")
    ap.add_argument("--no-triton", action="store_true", help="time torch and the copy only")
    a = ap.parse_args()
    shapes = []
    for s in a.shapes.split(","):
        r, c = s.lower().split("x")
        shapes.append((int(r), int(c)))
    flush = Flush()
    log = Log(a.json)
    ref = device_copy_ref(flush)
    log.append(ref)
    print("device %s, torch %s, triton %s; copy of 2^28 f32: %.1f us, %.1f GB/s" %
          (ref["device"], ref["torch"], ref["triton"], ref["us"], ref["gbs"]))
    print("%-8s %-13s %10s %10s %10s %8s %8s  %s" %
          ("dtype", "rows x cols", "torch us", "triton us", "copy us", "torch/c", "triton/c",
           "triton config"))
    for shape in shapes:
        for d in a.dtypes.split(","):
            r = measure(shape, d, flush, a.reps, log, not a.no_triton)
            r["what"] = "problem"
            log.append(r)
            gbs = lambda us: r["bytes"] / us / 1e3
            print("%-8s %-13s %10.2f %10.2f %10.2f %8.3f %8.3f  %s" %
                  (d, "%dx%d" % shape, r["torch_us"], r.get("triton_us", float("nan")), r["copy_us"],
                   gbs(r["torch_us"]) / ref["gbs"], gbs(r.get("triton_us", float("nan"))) / ref["gbs"],
                   r.get("triton_config", "-")), flush=True)
    log.close()


if __name__ == "__main__":
    main()
