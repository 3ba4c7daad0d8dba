#!/usr/bin/env bash
# CI: build the libFuzzer targets (fuzz/) with clang-14 and run each for a bounded time on a copy
# of its seed corpus (tests/fuzz-corpus/<target>/). Fails on any crash, sanitizer report, leak,
# timeout, or allocation over 256 MB; the input that triggered it is kept in $FUZZ_WORK/<target>/.
#
# Debian 12 packages (on top of .ci/packages.txt): clang-14 libclang-rt-14-dev
# (libclang-rt-14-dev provides libFuzzer and the ASan/UBSan runtimes; the build also needs the
# engine's nlohmann-json3-dev libeigen3-dev zlib1g-dev cmake, already in .ci/packages.txt).
#
# Environment: FUZZ_SECONDS (default 30; 45 took the whole CI run to 51 minutes of its 60) per target, FUZZ_BUILD_DIR (default build-fuzz),
# FUZZ_WORK (default: a fresh temporary folder; the repository is never written to except the
# build folder).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-30}"
build="${FUZZ_BUILD_DIR:-build-fuzz}"
work="${FUZZ_WORK:-$(mktemp -d -t gpuforecast-fuzz.XXXXXX)}"
jobs="$(nproc)"

command -v clang++-14 >/dev/null || { echo "fuzz.sh: clang++-14 not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 1; }

# Only the engine and the fuzzers: no GUI, tests or benchmarks (the CLI is configured but not built).
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-14 \
  -DGPUFORECAST_BUILD_FUZZERS=ON -DGPUFORECAST_BUILD_GUI=OFF \
  -DGPUFORECAST_BUILD_TESTS=OFF -DGPUFORECAST_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" --target gpuforecast_fuzzers -j"$jobs"

targets=(fuzz_gpu_spec fuzz_model_config fuzz_kernel_csv fuzz_weights fuzz_tile_db fuzz_scenario fuzz_gunzip)
failed=()
for t in "${targets[@]}"; do
  dir="$work/$t"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp tests/fuzz-corpus/"$t"/* "$dir/corpus/"
  echo "== $t: ${seconds}s"
  # -timeout: one input taking over 10 s is a hang; -malloc_limit_mb: one allocation over 256 MB
  # is a bug (every loader input is kilobytes to a few MB); -rss_limit_mb bounds the whole process.
  if ! "$build/fuzz/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=256 -timeout=10 \
       -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1; then
    failed+=("$t")
    echo "!! $t failed; the last lines of $dir/log:"
    tail -n 60 "$dir/log"
    ls -l "$dir/artifacts"
  else
    grep -E "^stat::number_of_executed_units|^Done" "$dir/log" || true
  fi
done

if ((${#failed[@]})); then
  echo "fuzz.sh: crashes in: ${failed[*]} (inputs and logs under $work)" >&2
  exit 1
fi
echo "fuzz.sh: all ${#targets[@]} fuzzers ran ${seconds}s each without a finding"
