#!/usr/bin/env python3
"""Why softmax and layer norm miss on the validation set even for the GPUs they were trained on.

1. Measured fraction of peak memory bandwidth (one read and one write of b x h floats) of large
   softmax and layer-norm kernels (>= 64 MB moved, rows of at least 512), per GPU and row length h.
   Training rows have random h up to 4094; validation rows have round h (768, 1024, ... 16384).
2. With --forecast P.csv (the output of `gpuforecast-cli kernels --in val/vector.csv.gz --out P.csv`):
   the forecast's signed error per GPU and row length.

Usage: tools/row_shapes.py [--data DIR] [--forecast P.csv]   (DIR default: resources/datasets/neusight)
"""
import argparse
import collections
import csv
import gzip
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--data", default=os.path.join(here, "..", "resources", "datasets", "neusight"))
ap.add_argument("--forecast")
args = ap.parse_args()

GPUS = ["A100-PCIE-40GB", "V100-PCIE-32GB", "P100-PCIE-16GB", "T4", "P4"]
bandwidth = {}
for g in GPUS:
    with open(os.path.join(here, "..", "resources", "gpus", g + ".json")) as f:
        bandwidth[g] = json.load(f)["memory_bandwidth_gbps"]


def band(h):
    """Training rows are grouped in octaves; validation rows keep their exact length."""
    lo = 1
    while lo * 2 <= h:
        lo *= 2
    return f"{lo}-{2 * lo - 1}"


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def table(title, cells, keys):
    print(title)
    print("| op | rows | h | " + " | ".join(GPUS) + " |")
    print("|---|---|---|" + "---|" * len(GPUS))
    for key in keys:
        vals = [cells.get(key + (g,)) for g in GPUS]
        print(f"| {key[0]} | {key[1]} | {key[2]} | " +
              " | ".join(f"{v:.2f}" if v is not None else "-" for v in vals) + " |")
    print()


eff = collections.defaultdict(list)
for split in ("train", "val"):
    with gzip.open(os.path.join(args.data, split, "vector.csv.gz"), "rt") as f:
        for r in csv.DictReader(f):
            if r["op"] not in ("softmax", "ln") or r["gpu"] not in bandwidth:
                continue
            b, h = int(r["b"]), int(r["h"])
            moved = 8.0 * b * h
            if moved < 64e6 or h < 512:
                continue
            achieved = moved / (float(r["latency_ms"]) * 1e-3) / 1e9
            key = (r["op"], split, band(h) if split == "train" else str(h))
            eff[key + (r["gpu"],)].append(achieved / bandwidth[r["gpu"]])
cells = {k: median(v) for k, v in eff.items()}
keys = sorted({k[:3] for k in cells}, key=lambda k: (k[0], int(k[2].split("-")[0]), k[1]))
table("1. measured fraction of peak bandwidth (median over kernels >= 64 MB, h >= 512)", cells, keys)

if args.forecast:
    err = collections.defaultdict(list)
    with open(args.forecast) as f:
        for r in csv.DictReader(f):
            if r["op"] in ("softmax", "ln") and r["gpu"] in bandwidth:
                err[(r["op"], "val", r["h"], r["gpu"])].append(float(r["pred_ms"]) / float(r["latency_ms"]) - 1)
    cells = {k: 100 * sum(v) / len(v) for k, v in err.items()}
    keys = sorted({k[:3] for k in cells}, key=lambda k: (k[0], int(k[2])))
    table("2. forecast signed error (%), mean over the validation kernels", cells, keys)
