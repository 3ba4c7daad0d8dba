#!/usr/bin/env python3
"""Evidence for how kernels are priced inside a model (docs/method.md section 5).

1. Isolated kernel timings carry an additive launch-and-timing overhead: the median latency of
   element-wise `add` per GPU and size bin is flat for small kernels and then grows as
   overhead + bytes / bandwidth (the fit below uses the bins from 32 MB to 512 MB).
2. NeuSight's per-operator traces (<run>.ops.csv.gz: one traced layer plus embeddings and head)
   add up to more than the same runs timed whole; the difference per launched operator is the
   overhead that back-to-back launches hide.
3. Layer norm pays that overhead on top of its work, not instead of it (docs/method.md section 3,
   launch floor): median time against the bytes' time at the spec bandwidth, both in units of
   the GPU's floor (1st percentile of its layer-norm times), for rows of 1024 floats and more.
   Under a smooth maximum the time would be about the larger of 1 and the bytes' time.

Usage: tools/launch_overhead.py [DATA_DIR]   (default: resources/datasets/neusight)
"""
import collections
import csv
import gzip
import json
import math
import os
import re
import sys

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "resources", "datasets", "neusight")

print("1. element-wise add: median us per size bin (bytes moved = 12 x elements)")
bins = collections.defaultdict(lambda: collections.defaultdict(list))
with gzip.open(os.path.join(data, "train", "vector.csv.gz"), "rt") as f:
    for r in csv.DictReader(f):
        if r["op"] == "add":
            size = 12 * float(r["b"]) * float(r["h"])
            bins[r["gpu"]][int(math.log2(size))].append(float(r["latency_ms"]) * 1e3)
for gpu in sorted(bins):
    med = {k: sorted(v)[len(v) // 2] for k, v in bins[gpu].items()}
    small = med.get(20)
    # least squares t = c + bytes / bw over 2^25 .. 2^29 bytes
    pts = [(2.0 ** k, med[k]) for k in range(25, 30) if k in med]
    n = len(pts)
    sx = sum(x for x, _ in pts); sy = sum(y for _, y in pts)
    sxx = sum(x * x for x, _ in pts); sxy = sum(x * y for x, y in pts)
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    intercept = (sy - slope * sx) / n
    print(f"  {gpu:16s} 1 MB: {small:5.1f} us   32-512 MB: {intercept:5.1f} us + bytes / {1e-6 / slope:5.2f} TB/s")

print("2. per-operator traces against whole runs (fw / backward, ms)")
for gpu in sorted(os.listdir(os.path.join(data, "e2e"))):
    d = os.path.join(data, "e2e", gpu)
    for name in sorted(os.listdir(d)):
        if not name.endswith(".ops.csv.gz"):
            continue
        run = name[: -len(".ops.csv.gz")]
        rows = list(csv.DictReader(gzip.open(os.path.join(d, name), "rt")))
        whole = json.load(open(os.path.join(d, run + ".json")))
        layers = whole["num_layer"]
        # Nodes of the traced layer repeat num_layer times; embeddings, head and glue run once.
        repeated = re.compile(r"layer_0_|h_0_|layers_0_")
        once = re.compile(r"embed|wte|wpe|cls_|lm_head|ln_f|pooler|final|decoder|input|getitem|size|view|^add$")
        fw = [0.0, 0.0]; bw = [0.0, 0.0]; launched = [0, 0]
        for r in rows:
            rep = 1 if repeated.search(r["name"]) or not once.search(r["name"]) else 0
            fw[rep] += float(r["fw_ms"]); bw[rep] += float(r["bw_ms"]) + float(r["acc_ms"])
            launched[rep] += float(r["fw_ms"]) > 0
        trace_fw = fw[0] + layers * fw[1]
        trace_bw = bw[0] + layers * bw[1]
        ops = launched[0] + layers * launched[1]
        line = f"  {gpu:16s} {run:26s} fw trace {trace_fw:7.1f} whole {whole['fw_latency']:7.1f} ({trace_fw / whole['fw_latency']:.2f}x, {1e3 * (trace_fw - whole['fw_latency']) / ops:4.0f} us per op)"
        if whole["bwall_latency"] > 0:
            line += f"  bw trace {trace_bw:7.1f} whole {whole['bwall_latency']:7.1f} ({trace_bw / whole['bwall_latency']:.2f}x)"
        print(line)

print("3. layer norm, rows of h >= 1024: median time in floors per bin of the bytes' time at spec bandwidth (in floors)")
specs = os.path.join(os.path.dirname(__file__), "..", "resources", "gpus")
ln = collections.defaultdict(list)
with gzip.open(os.path.join(data, "train", "vector.csv.gz"), "rt") as f:
    for r in csv.DictReader(f):
        if r["op"] == "ln":
            ln[r["gpu"]].append((float(r["b"]), float(r["h"]), float(r["latency_ms"]) * 1e-3))
for gpu in sorted(ln):
    bandwidth = json.load(open(os.path.join(specs, gpu + ".json")))["memory_bandwidth_gbps"] * 1e9
    floor = sorted(t for _, _, t in ln[gpu])[len(ln[gpu]) // 100]
    cells = []
    for lo in (0.25, 0.5, 1, 2, 4):
        # bytes: read the row, write the row (4-byte floats)
        pts = [(8 * b * h / bandwidth / floor, t / floor) for b, h, t in ln[gpu] if h >= 1024 and lo <= 8 * b * h / bandwidth / floor < 2 * lo]
        if len(pts) > 3:
            cells.append(f"{sorted(x for x, _ in pts)[len(pts) // 2]:4.2f} -> {sorted(y for _, y in pts)[len(pts) // 2]:4.2f}")
    print(f"  {gpu:16s} floor {floor * 1e6:4.1f} us   " + "   ".join(cells))
