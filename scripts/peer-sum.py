#!/usr/bin/env python3
"""peer-sum - the floor under a sum of 2^20 f32 (4 MB), timed the way
conform times its kernels (scripts/peer_timing.py: cold, by the GPU's own
timestamps), on a machine with PyTorch and Triton:

    scripts/peer-sum.py [--n N] [--reps N] [--json FILE]

  empty      a Triton kernel of one program that does nothing: what a
             launch costs before it touches memory;
  read       a read-only kernel over the n floats (each program loads
             BLOCK of them and sums them, storing nothing), the
             fastest of BLOCK x num_warps below (read_only): no
             reduction can read its input faster;
  copy       out.copy_(x) of the same n floats (bytes read + written);
  torch.sum  PyTorch's own reduction, for reference.

Prints one line each (medians in us, GB/s of the bytes read) and the copy
of 2^28 f32 (conform's device.copy) for the bandwidth they are held to.
conform's own figures for the same problem come from `conform tune
device.atomic --n 2^20 --dtype f32` in the same command
(scripts/gpu-acceptance DIR sum-floor)."""
import argparse
import json
import os
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_timing import Flush, device_copy_ref, launch_times_us, median  # noqa: E402

BLOCKS = (1024, 2048, 4096, 8192, 16384)
WARPS = (2, 4, 8, 16)


@triton.jit
def empty(out_ptr):
    pass


@triton.jit
def read_only(buf_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Each program sums BLOCK of the n floats and stores nothing (unless
    the sum is exactly -1, which uniform [0, 1) values never give).  The
    flush's kernel does the same, but launch_times_us tells launches apart
    by its name, so the timed one needs another."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(buf_ptr + offs, mask=offs < n, other=0), axis=0)
    if s == -1:
        tl.store(out_ptr, s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--json")
    a = ap.parse_args()
    flush = Flush()
    ref = device_copy_ref(flush)
    log = [ref]
    x = torch.rand(a.n, device="cuda")
    y = torch.empty_like(x)
    sink = torch.zeros(1, device="cuda")
    nbytes = 4 * a.n
    rows = []

    def time(name, fn, basis):
        us = median(launch_times_us(fn, flush, a.reps))
        rows.append((name, us, basis / us / 1e3))
        log.append({"what": name, "n": a.n, "us": us, "gbs": basis / us / 1e3})

    time("empty kernel", lambda: empty[(1,)](sink), 0)
    best = None
    for block in BLOCKS:
        for warps in WARPS:
            fn = (lambda b, w: lambda: read_only[(triton.cdiv(a.n, b),)](x, sink, a.n, BLOCK=b,
                                                                          num_warps=w))(block, warps)
            us = median(launch_times_us(fn, flush, max(20, a.reps // 4)))
            log.append({"what": "read-config", "block": block, "warps": warps, "us": us})
            if best is None or us < best[0]:
                best = (us, block, warps, fn)
    time("read-only, block=%d warps=%d" % (best[1], best[2]), best[3], nbytes)
    time("copy", lambda: y.copy_(x), 2 * nbytes)
    time("torch.sum", lambda: torch.sum(x), nbytes)
    print("device %s, torch %s, triton %s; copy of 2^28 f32: %.1f us, %.1f GB/s" %
          (ref["device"], ref["torch"], ref["triton"], ref["us"], ref["gbs"]))
    print("n = %d f32 (%d bytes), cold, medians of %d launches" % (a.n, nbytes, a.reps))
    print("%-34s %10s %10s %8s" % ("what", "us", "GB/s", "% copy"))
    for name, us, gbs in rows:
        if gbs > 0:
            print("%-34s %10.3f %10.1f %8.1f" % (name, us, gbs, 100 * gbs / ref["gbs"]))
        else:
            print("%-34s %10.3f %10s %8s" % (name, us, "-", "-"))
    if a.json:
        with open(a.json, "w") as f:
            for r in log:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
