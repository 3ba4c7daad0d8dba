#!/usr/bin/env bash
# CI: build everything (engine, CLI, GUI when Qt 6 and QCustomPlot are installed, tests) with
# AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer (the "asan" preset in
# CMakePresets.json, Debug with asserts at -O1, into build-asan/) and run the test suite under them. Fails on a build
# error, a failing test, or any sanitizer report, including one printed by a child process
# (test_cli runs gpuforecast-cli) whose exit status a test might not look at.
#
# Debian 12 packages: those of .ci/packages.txt (GCC 12's libasan8 and libubsan1 come with
# build-essential). Runtime options are set by the "asan" test preset: halt_on_error and
# abort_on_error for ASan and UBSan (UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:...),
# leak checking with the third-party suppressions of tests/lsan.supp.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="$(nproc)"
build=build-asan

# "GUI on if available": the preset asks for it; a machine without QCustomPlot for Qt 6 still
# gets the engine, CLI and test suite checked.
extra=()
if ! ls /usr/lib/*/cmake/QCustomPlotQt6/QCustomPlotQt6Config.cmake /usr/lib/*/cmake/Qt6Widgets/Qt6WidgetsConfig.cmake \
     >/dev/null 2>&1; then
  echo "sanitize.sh: Qt 6 Widgets or QCustomPlotQt6 not found; building without the GUI"
  extra+=(-DGPUFORECAST_BUILD_GUI=OFF)
fi

rm -rf "$build"
cmake --preset asan "${extra[@]}"
cmake --build --preset asan -j"$jobs"

status=0
ctest --preset asan -j"$jobs" || status=$?

# Belt and braces: ctest keeps every test's full output in LastTest.log; any sanitizer report in
# it fails the run even if the test that caused it passed.
log="$build/Testing/Temporary/LastTest.log"
if [ -f "$log" ] && grep -nE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer)" "$log"; then
  echo "sanitize.sh: sanitizer reports in $log (see above)" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "sanitize.sh: FAILED" >&2
  exit "$status"
fi
echo "sanitize.sh: all tests pass under ASan, LSan and UBSan"
