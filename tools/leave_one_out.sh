#!/usr/bin/env bash
# Leave-one-GPU-out accuracy: for each training GPU, train on the other four, then forecast the
# held-out GPU's kernels (its train and val rows; none was seen in training, and its own tile
# choices are never read) and its measured whole-model runs.
# Prints two markdown tables: per-kernel MAPE with the roofline-only baseline (same tiles,
# utilization 1) beside the learned forecast, then the end-to-end error of every measured run.
# Usage: tools/leave_one_out.sh BUILD_DIR [extra train args...]   (with the shipped --epochs 80, about 4 minutes per GPU on 2 cores: 3 training, 1 forecasting)
set -euo pipefail
build=${1:?build dir}; shift
cli="$build/app/gpuforecast-cli"
data="$(dirname "$0")/../resources/datasets/neusight"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gpus="A100-PCIE-40GB V100-PCIE-32GB T4 P100-PCIE-16GB P4"
echo "| held out | split | kind | rows | bmm | linear | elementwise | softmax | ln |"
echo "|---|---|---|---|---|---|---|---|---|"
for gpu in $gpus; do
  "$cli" train --data "$data/train" --out "$work/$gpu" --holdout "$gpu" --quiet "$@" >/dev/null
  for split in train val; do
    for mode in learned roofline; do
      flag=""; [ "$mode" = roofline ] && flag="--roofline-only"
      g=$("$cli" evaluate --in "$data/$split/gemm.csv.gz" --weights "$work/$gpu" --gpu "$gpu" $flag | tail -1)
      v=$("$cli" evaluate --in "$data/$split/vector.csv.gz" --weights "$work/$gpu" --gpu "$gpu" $flag | tail -1)
      # evaluate's last line: "all <all> (<n>) <bmm> (<n>) <linear> (<n>)" / "... elementwise ln softmax"
      python3 - "$gpu" "$split" "$mode" "$g" "$v" <<'PY'
import re, sys
gpu, split, mode, g, v = sys.argv[1:]
gn = re.findall(r"([0-9.]+) \(\s*(\d+)\)", g); vn = re.findall(r"([0-9.]+) \(\s*(\d+)\)", v)
rows = int(gn[0][1]) + int(vn[0][1])
print(f"| {gpu} | {split} | {mode} | {rows} | {gn[1][0]} | {gn[2][0]} | {vn[1][0]} | {vn[3][0]} | {vn[2][0]} |")
PY
    done
  done
done
echo
echo "| held out | run | measured ms | forecast ms | error |"
echo "|---|---|---|---|---|"
for gpu in $gpus; do
  "$cli" evaluate-models --in "$data/e2e" --gpu "$gpu" --weights "$work/$gpu" |
    awk -v g="$gpu" '$1 == g && $NF ~ /%$/ {printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
done
