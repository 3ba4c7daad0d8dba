#!/usr/bin/env python3
"""Measure a GPU the way NeuSight measured its data, so a forecast can be checked on a card we own.

It times, with PyTorch in FP32 eager mode and TF32 off (as the shipped measurements were taken):
  1. two ceilings: a device-to-device copy (bytes read + written) and an 8192^3 FP32 matrix product;
  2. single kernels at shapes sampled from the A100-PCIE-40GB rows of resources/datasets/neusight
     (train and val, every operator class), written as a kernel table that
     `gpuforecast-cli evaluate --in kernels.csv` reads (the gpu column is --gpu-id);
  3. whole Hugging Face models from resources/models, written as <out>/e2e/<gpu-id>/<run>.json
     that `gpuforecast-cli evaluate-models --in <out>/e2e` reads.
Kernel timing follows NeuSight's tracer: 25 timed calls, each between two CUDA events, and the
mean of the 5 fastest. Whole runs: 25 forward passes (and backward in training), mean of the 5
fastest. The sample is fixed by --seed, so two cards can be measured on the same shapes.

Usage: tools/measure_gpu.py --gpu-id H200-SXM-141GB --out DIR [--budget-s 420] [--dry-run]
Needs PyTorch (and transformers for part 3). --dry-run runs a few tiny shapes on the CPU.
"""
import argparse
import csv
import gc
import gzip
import json
import os
import random
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DATA = os.path.join(ROOT, "resources", "datasets", "neusight")
SOURCE_GPU = "A100-PCIE-40GB"  # the newest measured card: its shapes are the ones to repeat
VECTOR_OPS = ["add", "mul", "div", "pow", "addu", "mulu", "divu", "powu", "relu", "gelu", "tanh", "softmax", "ln"]
# (split, family, rows per op, cap on the A100 latency in ms): keeps the run inside a short lease.
SAMPLE_PLAN = [
    ("train", "gemm", {"bmm": 500, "linear": 350}, 20.0),
    ("val", "gemm", {"bmm": 250, "linear": 180}, 60.0),
    ("train", "vector", {op: 50 for op in VECTOR_OPS}, 5.0),
    ("val", "vector", {op: 80 for op in VECTOR_OPS}, 30.0),
]
# run name: <model>-<inf|train>-<seq>-<batch>; the same runs NeuSight timed on the A100s.
E2E_RUNS = [
    "bert_large-inf-512-8", "gpt2_large-inf-1024-4", "bert_large-inf-512-16", "gpt2_large-inf-1024-8",
    "gpt3_xl-inf-2048-2", "opt_13-inf-2048-2", "gpt3_27-inf-2048-2",
    "bert_large-train-512-8", "gpt2_large-train-1024-1",
]
ACTIVE, FASTEST = 25, 5


def log(*a):
    print(*a, flush=True)


class Timer:
    """CUDA events on a GPU; the host clock (after nothing to wait for) on the CPU dry run."""

    def __init__(self, cuda):
        self.cuda = cuda

    def once(self, fn):
        if self.cuda:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            torch.cuda.synchronize()
            return start.elapsed_time(end)
        t0 = time.perf_counter()
        fn()
        return (time.perf_counter() - t0) * 1e3

    def neusight(self, fn, active=ACTIVE):
        fn()  # NeuSight runs the kernel once untimed first
        times = sorted(self.once(fn) for _ in range(active))[:FASTEST]
        return sum(times) / len(times)


def sample_shapes(seed, dry_run):
    rng = random.Random(seed)
    rows = []
    for split, family, per_op, cap_ms in SAMPLE_PLAN:
        by_op = {}
        with gzip.open(os.path.join(DATA, split, family + ".csv.gz"), "rt") as f:
            for r in csv.DictReader(f):
                if r["gpu"] == SOURCE_GPU and r["op"] in per_op and float(r["latency_ms"]) <= cap_ms:
                    by_op.setdefault(r["op"], []).append(r)
        for op in sorted(per_op):
            pool = by_op.get(op, [])
            want = 2 if dry_run else per_op[op]
            for r in rng.sample(pool, min(want, len(pool))):
                rows.append({"split": split, "op": op, "b": r["b"], "m": r["m"], "n": r["n"], "k": r["k"], "h": r["h"],
                             "source_ms": float(r["latency_ms"])})
    if dry_run:  # tiny shapes only, so the CPU run stays quick
        rows = [r for r in rows if r["source_ms"] < 0.2][:12]
    return rows


def kernel_call(row, device):
    """Build the inputs once and return a closure that launches the one kernel NeuSight timed."""
    op = row["op"]
    z = lambda *s: torch.randn(*s, device=device, dtype=torch.float32)
    if op in ("bmm", "linear"):
        b, m, n, k = (int(row[c]) for c in "bmnk")
        if op == "bmm":
            a, w = z(b, m, n), z(b, n, k)
            return lambda: torch.bmm(a, w)
        x, w, bias = z(m, n), z(k, n), z(k)  # nn.Linear: weight is out x in, with a bias
        return lambda: F.linear(x, w, bias)
    b, h = int(row["b"]), int(row["h"])
    x, y = z(b, h), z(b, h)
    if op == "pow" or op == "powu":
        x = x.abs() + 0.5  # keep pow real-valued, as activations under pow are in practice
    calls = {
        "add": lambda: x + y, "mul": lambda: x * y, "div": lambda: x / y, "pow": lambda: torch.pow(x, y),
        "addu": lambda: x + 1.5, "mulu": lambda: x * 1.5, "divu": lambda: x / 1.5, "powu": lambda: torch.pow(x, 2.5),
        "relu": lambda: torch.relu(x), "gelu": lambda: F.gelu(x), "tanh": lambda: torch.tanh(x),
        "softmax": lambda: torch.softmax(x, dim=-1),
    }
    if op == "ln":
        g, beta = z(h), z(h)
        return lambda: F.layer_norm(x, (h,), g, beta)
    return calls[op]


def gemm_kernel_name(fn):
    """The library kernel a GEMM launched (its name carries the tile), read with the profiler."""
    try:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        return ";".join(dict.fromkeys(names))[:200]
    except Exception as e:  # the profiler is a nice-to-have: never lose a timing over it
        return "profiler failed: " + type(e).__name__


def measure_ceilings(timer, device, out):
    res = {}
    n = 1 << 28  # 1 GiB of floats
    src = torch.randn(n, device=device)
    dst = torch.empty_like(src)
    ms = timer.neusight(lambda: dst.copy_(src), active=10)
    res["copy_tb_s"] = 2 * 4 * n / ms / 1e9
    del src, dst
    s = 8192
    a, b = torch.randn(s, s, device=device), torch.randn(s, s, device=device)
    ms = timer.neusight(lambda: a @ b, active=10)
    res["sgemm_8192_tflop_s"] = 2 * s ** 3 / ms / 1e9
    del a, b
    log("ceilings:", json.dumps(res))
    json.dump(res, open(os.path.join(out, "ceilings.json"), "w"), indent=1)


def measure_kernels(rows, timer, device, gpu_id, out, deadline):
    path = os.path.join(out, "kernels.csv")
    cuda = device == "cuda"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["op", "gpu", "b", "m", "n", "k", "h", "latency_ms", "kernel", "split", "source_ms"])
        for i, row in enumerate(rows):
            if time.time() > deadline:
                log(f"kernels: budget spent after {i} of {len(rows)} rows")
                break
            try:
                fn = kernel_call(row, device)
                ms = timer.neusight(fn)
                name = gemm_kernel_name(fn) if cuda and row["op"] in ("bmm", "linear") and i % 6 == 0 else ""
            except Exception as e:  # out of memory or similar: say so, keep going
                log(f"kernels: {row['op']} {row} failed: {e}")
                continue
            finally:
                fn = None
                if cuda:
                    torch.cuda.empty_cache()
            w.writerow([row["op"], gpu_id, row["b"], row["m"], row["n"], row["k"], row["h"], f"{ms:.6g}", name,
                        row["split"], f"{row['source_ms']:.6g}"])
            if i % 200 == 0:
                f.flush()
                log(f"kernels: {i}/{len(rows)} {row['op']} {ms:.4f} ms (A100 {row['source_ms']:.4f})")
    log("kernels written to", path)


def build_model(config_path, train, device, layers_override=0):
    from transformers import (AutoConfig, AutoModelForCausalLM, AutoModelForPreTraining,
                              AutoModelForSequenceClassification)
    cfg = json.load(open(config_path))
    name = cfg["architectures"][0].lower()
    layers = cfg.get("n_layer", cfg.get("num_hidden_layers"))
    try:
        config = AutoConfig.from_pretrained(config_path)
    except Exception:  # a version that wants a folder, not a file: build it from the dict
        config = AutoConfig.for_model(**cfg)
    if layers_override:  # a model too large for the card, cut to its first blocks
        layers = layers_override
        setattr(config, "n_layer" if "n_layer" in cfg else "num_hidden_layers", layers)
    if "bert" in name:
        cls = AutoModelForPreTraining if train else AutoModelForSequenceClassification
    else:
        cls = AutoModelForCausalLM
    with torch.device(device):  # initialise on the card: a CPU init of 2.7B weights takes minutes
        model = cls.from_config(config, attn_implementation="eager")
    model = model.float()  # FP32 whatever default dtype this transformers version picks
    return (model.train() if train else model.eval()), layers


def measure_e2e(timer, device, gpu_id, out, deadline, layers_override=0):
    folder = os.path.join(out, "e2e", gpu_id)
    os.makedirs(folder, exist_ok=True)
    for run in E2E_RUNS:
        if time.time() > deadline:
            log("e2e: budget spent before", run)
            break
        model_id, mode, seq, batch = run.split("-")
        train = mode == "train"
        try:
            model, layers = build_model(os.path.join(ROOT, "resources", "models", model_id + ".json"), train, device,
                                        layers_override)
            ids = torch.ones(int(batch), int(seq), dtype=torch.int64, device=device)
            fw, bw = [], []
            for _ in range(ACTIVE + 1):
                gc.collect()
                if device == "cuda":
                    torch.cuda.empty_cache()
                if train:
                    holder = {}
                    fw.append(timer.once(lambda: holder.update(r=model(ids))))
                    res = holder.pop("r")
                    logits = res["prediction_logits"] if "prediction_logits" in res else res["logits"]
                    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids.reshape(-1))
                    res = logits = None
                    bw.append(timer.once(loss.backward))
                    loss = None
                    model.zero_grad(set_to_none=True)
                else:
                    with torch.no_grad():
                        fw.append(timer.once(lambda: model(ids)))
            fw, bw = sorted(fw[1:])[:FASTEST], sorted(bw[1:])[:FASTEST]
            f_ms = sum(fw) / len(fw)
            b_ms = sum(bw) / len(bw) if bw else 0.0
            rec = {"num_layer": layers, "e2e_latency": f_ms + b_ms, "fw_latency": f_ms, "bwall_latency": b_ms,
                   "measured_by": "tools/measure_gpu.py (PyTorch %s, FP32 eager, TF32 off)" % torch.__version__}
            json.dump(rec, open(os.path.join(folder, run + ".json"), "w"), indent=1)
            log(f"e2e: {run} {f_ms + b_ms:.1f} ms")
        except Exception as e:
            log(f"e2e: {run} failed: {type(e).__name__}: {e}")
        finally:
            model = ids = None
            gc.collect()
            if device == "cuda":
                torch.cuda.empty_cache()


def main():
    global ACTIVE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu-id", required=True, help="the id written into the tables, e.g. H200-SXM-141GB")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-s", type=float, default=420, help="stop starting new work after this long")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: ceilings,kernels,e2e")
    ap.add_argument("--runs", default="", help="comma list of whole-model runs instead of NeuSight's nine, "
                    "e.g. llama3_8b-inf-2048-1 (any bundled model id)")
    ap.add_argument("--layers", type=int, default=0,
                    help="time only the first N blocks of each model (written as num_layer; evaluate-models "
                    "forecasts those N); decoder-only models")
    ap.add_argument("--active", type=int, default=ACTIVE, help="timed repetitions of each whole model")
    ap.add_argument("--dry-run", action="store_true", help="a few tiny shapes on the CPU, to check the script")
    args = ap.parse_args()
    t0 = time.time()
    ACTIVE = max(args.active, FASTEST)  # for the whole models; single kernels keep NeuSight's count
    if args.runs:
        E2E_RUNS[:] = [r for r in args.runs.split(",") if r]
    skip = set(filter(None, args.skip.split(",")))
    cuda = torch.cuda.is_available() and not args.dry_run
    device = "cuda" if cuda else "cpu"
    os.makedirs(args.out, exist_ok=True)
    if hasattr(torch.backends.cuda.matmul, "allow_tf32"):
        torch.backends.cuda.matmul.allow_tf32 = False  # true FP32, as the NeuSight data were taken
    torch.backends.cudnn.allow_tf32 = False
    info = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0) if cuda else "cpu",
            "tf32": torch.backends.cuda.matmul.allow_tf32}
    try:
        import transformers
        info["transformers"] = transformers.__version__
    except ImportError:
        pass
    if cuda:
        p = torch.cuda.get_device_properties(0)
        info.update(sm_count=p.multi_processor_count, memory_gb=p.total_memory / 1e9,
                    l2_mb=getattr(p, "L2_cache_size", 0) / 2 ** 20)
        try:
            info["nvidia_smi"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit,driver_version",
                 "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip()
        except Exception as e:
            info["nvidia_smi"] = str(e)
    log("device:", json.dumps(info))
    json.dump(info, open(os.path.join(args.out, "device.json"), "w"), indent=1)
    timer = Timer(cuda)
    torch.manual_seed(args.seed)
    if "ceilings" not in skip and not args.dry_run:
        measure_ceilings(timer, device, args.out)
    deadline_kernels = t0 + args.budget_s * 0.55
    if "kernels" not in skip:
        measure_kernels(sample_shapes(args.seed, args.dry_run), timer, device, args.gpu_id, args.out, deadline_kernels)
    if "e2e" not in skip:
        if args.dry_run:
            E2E_RUNS[:] = ["bert_large-inf-16-1", "bert_large-train-16-1"]
        measure_e2e(timer, device, args.gpu_id, args.out, t0 + args.budget_s, args.layers)
    log(f"done in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
