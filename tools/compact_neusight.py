#!/usr/bin/env python3
"""Re-pack the NeuSight kernel measurements compactly for resources/datasets/.

Keeps every measured value; drops the block_* columns (never used) and shortens the long PyTorch
vector-kernel names to their template's name (the GEMM names, which carry the tile, stay whole).
Usage: tools/compact_neusight.py SRC_DIR DST_DIR   (SRC_DIR = shared/data/neusight)
"""
import csv, gzip, os, re, shutil, sys

KEEP = ["op", "gpu", "b", "m", "n", "k", "h", "latency_ms", "kernel", "grid_x", "grid_y", "grid_z"]

def short_name(name):
    if "sgemm" in name or "gemm" in name:
        return name
    m = re.search(r"(\w+)<", name)
    return m.group(1) if m else name[:40]

def main(src, dst):
    for split in ("train", "val"):
        os.makedirs(os.path.join(dst, split), exist_ok=True)
        for kind in ("gemm", "vector"):
            ip = os.path.join(src, "kernels", split, kind + ".csv.gz")
            op = os.path.join(dst, split, kind + ".csv.gz")
            with gzip.open(ip, "rt", newline="") as fi, gzip.GzipFile(op + ".tmp", "wb", mtime=0) as raw:
                import io
                fo = io.TextIOWrapper(raw, newline="")
                r = csv.DictReader(fi)
                w = csv.writer(fo, lineterminator="\n")
                w.writerow(KEEP)
                for row in r:
                    row["kernel"] = short_name(row["kernel"])
                    w.writerow([row[c] for c in KEEP])
                fo.flush()
                fo.detach()
            os.replace(op + ".tmp", op)
    shutil.copy(os.path.join(src, "LICENSE"), os.path.join(dst, "LICENSE"))
    shutil.copy(os.path.join(src, "gpu_specs_neusight.json"), os.path.join(dst, "gpu_specs_neusight.json"))

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
