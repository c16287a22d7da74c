"""peer_timing - how the peer scripts (peer-softmax.py, peer-sum.py) time a
launch the way conform's worker does: cold, the L2 evicted by reading a
buffer of twice its size before every launch, and by the GPU's own
timestamps (PyTorch's profiler reads CUPTI, as the worker does); a launch's
time is the union of its kernels' and copies' intervals, the flush left
out.  Needs PyTorch and Triton on a CUDA machine."""
import json
import os
import statistics
import tempfile

import torch
import triton
import triton.language as tl


@triton.jit
def read_flush(buf_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Reads n words and writes one only when their sum is exactly -1 (it
    never is): the read evicts the L2 without leaving dirty lines."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(buf_ptr + offs, mask=offs < n, other=0), axis=0)
    if s == -1:
        tl.store(out_ptr, s)


class Flush:
    """Evicts the L2 by reading twice its size (read_flush)."""

    def __init__(self):
        l2 = torch.cuda.get_device_properties(0).L2_cache_size
        self.n = 2 * l2 // 4
        self.buf = torch.ones(self.n, dtype=torch.int32, device="cuda")
        self.out = torch.zeros(1, dtype=torch.int32, device="cuda")

    def __call__(self):
        read_flush[(triton.cdiv(self.n, 4096),)](self.buf, self.out, self.n, BLOCK=4096)


def union_us(intervals):
    """The length of the union of (start, end) intervals."""
    total, end = 0.0, None
    for a, b in sorted(intervals):
        if end is None or a >= end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def launch_times_us(fn, flush, reps):
    """fn's time per launch by the GPU's timestamps, cold: a list of reps
    values in us (flush's own kernels, named read_flush, separate them)."""
    for _ in range(3):
        flush()
        fn()
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts) as prof:
        for _ in range(reps):
            flush()
            fn()
        torch.cuda.synchronize()
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        prof.export_chrome_trace(path)
        with open(path) as f:
            trace = json.load(f)
    finally:
        os.unlink(path)
    evs = sorted((e for e in trace["traceEvents"]
                  if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")),
                 key=lambda e: e["ts"])
    times, group = [], None
    for e in evs + [None]:
        if e is None or "read_flush" in e["name"]:
            if group:
                times.append(union_us(group))
            group = [] if e is not None else None
        elif group is not None:
            group.append((e["ts"], e["ts"] + e["dur"]))
    return times


def median(v):
    return statistics.median(v) if v else float("nan")


def device_copy_ref(flush):
    """The copy of 2^28 f32 that conform's device.copy reference times:
    a dict with its time and bandwidth (bytes read plus written) and the
    device and library versions."""
    big = torch.empty(1 << 28, device="cuda")
    big_out = torch.empty_like(big)
    copy_us = median(launch_times_us(lambda: big_out.copy_(big), flush, 20))
    del big, big_out
    return {"what": "device-copy", "elems": 1 << 28, "us": copy_us,
            "gbs": 2 * 4 * (1 << 28) / copy_us / 1e3, "device": torch.cuda.get_device_name(0),
            "torch": torch.__version__, "triton": triton.__version__}
