#!/usr/bin/env python3
"""Why a GPU's FP32 GEMMs fall short of its spec-sheet rate: clock, power, or instruction issue.

Runs three sustained loads of about 5 s each and samples the SM clock, power draw and throttle
reasons with nvidia-smi while each runs:
  ffma   a CUDA kernel of independent fused multiply-adds only (CuPy RawKernel): the FP32 lanes'
         real ceiling at the clock the card holds under that load;
  sgemm  an 8192^3 FP32 matrix product through PyTorch (TF32 off), as the measured kernels ran;
  bmm    a batched product of the shape [10240, 384, 384] x [10240, 384, 256].
Each line reports TFLOP/s, the mean clock and power during the load, and TFLOP/s per GHz per SM
against the lanes' 2 FLOP per clock, so clock and issue effects separate.

Usage: tools/measure_fp32_ceiling.py [--out DIR]   (needs a CUDA GPU, PyTorch and CuPy)
"""
import argparse
import json
import os
import subprocess
import threading
import time

import torch

FFMA_SRC = r"""
extern "C" __global__ void ffma(float* out, int iters, float b, float c) {
    float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
    for (int i = 0; i < iters; ++i) {
        a0 = fmaf(a0, b, c); a1 = fmaf(a1, b, c); a2 = fmaf(a2, b, c); a3 = fmaf(a3, b, c);
        a4 = fmaf(a4, b, c); a5 = fmaf(a5, b, c); a6 = fmaf(a6, b, c); a7 = fmaf(a7, b, c);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
"""


class Sampler:
    """nvidia-smi's clock, power and throttle reasons every 100 ms while a load runs."""

    def __enter__(self):
        self.rows = []
        # newer drivers call throttle reasons "clock event reasons"; ask for whichever it knows
        reasons = "clocks_event_reasons.active"
        if subprocess.run(["nvidia-smi", "--query-gpu=" + reasons, "--format=csv"], capture_output=True).returncode:
            reasons = "clocks_throttle_reasons.active"
        self.proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=clocks.sm,power.draw," + reasons,
             "--format=csv,noheader,nounits", "-lms", "100"], stdout=subprocess.PIPE, text=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self):
        for line in self.proc.stdout:
            parts = [p.strip() for p in line.split(",")]
            try:
                self.rows.append((float(parts[0]), float(parts[1]), parts[2]))
            except (ValueError, IndexError):
                pass

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=5)

    def summary(self):
        busy = self.rows[len(self.rows) // 5:] or self.rows  # skip the ramp-up
        if not busy:
            return {"sm_mhz": None, "power_w": None, "throttle": []}
        return {"sm_mhz": sum(r[0] for r in busy) / len(busy), "power_w": sum(r[1] for r in busy) / len(busy),
                "throttle": sorted(set(r[2] for r in busy))}


def sustained(fn, flops_per_call, seconds=5.0):
    fn()
    torch.cuda.synchronize()
    calls, t0 = 0, time.time()
    with Sampler() as s:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        while time.time() - t0 < seconds:
            for _ in range(10):
                fn()
            calls += 10
            torch.cuda.synchronize()
        end.record()
        torch.cuda.synchronize()
    ms = start.elapsed_time(end)
    res = {"tflop_s": flops_per_call * calls / ms / 1e9, **s.summary()}
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    p = torch.cuda.get_device_properties(0)
    sms = p.multi_processor_count
    results = {"device": torch.cuda.get_device_name(0), "sm_count": sms}

    import cupy
    kernel = cupy.RawKernel(FFMA_SRC, "ffma")
    blocks, threads, iters = sms * 8, 256, 1 << 14
    out = cupy.empty(blocks * threads, dtype=cupy.float32)
    ffma_flops = 2 * 8 * iters * blocks * threads
    results["ffma"] = sustained(lambda: kernel((blocks,), (threads,), (out, cupy.int32(iters), cupy.float32(0.999),
                                                                       cupy.float32(0.001))), ffma_flops)
    s = 8192
    a, b = torch.randn(s, s, device="cuda"), torch.randn(s, s, device="cuda")
    results["sgemm"] = sustained(lambda: a @ b, 2 * s ** 3)
    del a, b
    x, y = torch.randn(10240, 384, 384, device="cuda"), torch.randn(10240, 384, 256, device="cuda")
    results["bmm"] = sustained(lambda: torch.bmm(x, y), 2 * 10240 * 384 * 384 * 256)
    for name in ("ffma", "sgemm", "bmm"):
        r = results[name]
        if r["sm_mhz"]:
            # 2 FLOP per lane per clock: 256 on a 128-lane SM means every lane busy every clock
            r["flop_per_clock_per_sm"] = r["tflop_s"] * 1e12 / (r["sm_mhz"] * 1e6 * sms)
        print(f"{name:6s} {r['tflop_s']:6.1f} TFLOP/s  SM {r['sm_mhz']} MHz  {r['power_w']} W  "
              f"{r.get('flop_per_clock_per_sm', 0):.1f} FLOP/clk/SM  throttle {r['throttle']}", flush=True)
    with open(os.path.join(args.out, "fp32_ceiling.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
