#!/usr/bin/env bash
# Builds the Debian package from a configured and built build folder and proves it works installed:
#   .ci/package.sh build-ci
# 1. validates packaging/*.desktop (desktop-file-validate) and packaging/*.metainfo.xml
#    (appstreamcli validate --no-net);
# 2. runs `cpack -G DEB` in the build folder and checks the control fields;
# 3. unpacks the .deb with `dpkg-deb -x` into a temporary root and runs the unpacked gpuforecast-cli
#    with a clean environment, proving it reads its data from the unpacked tree (see step 5 below).
# Prints one last line "package.sh: PASS ..." or "package.sh: FAIL: <why>"; exits 0 only on PASS.
#
# Debian packages this needs beyond the build's own (.ci/packages.txt):
#   desktop-file-utils  (desktop-file-validate)
#   appstream           (appstreamcli)
#   dpkg-dev            (dpkg-shlibdeps, used by CPack for CPACK_DEBIAN_PACKAGE_SHLIBDEPS)
#   file                (checks the packaged binary is a stripped ELF executable)
# dpkg-deb comes with dpkg, cpack with cmake.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 <configured-and-built-build-folder>" >&2
  exit 2
fi
if ! build=$(cd "$1" 2>/dev/null && pwd); then # resolved here: $1 may be relative to the caller
  echo "package.sh: FAIL: no build folder $1" >&2
  exit 1
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gpuforecast-package.XXXXXX")
passed=0
cleanup() {
  rm -rf "$work"
  [ "$passed" -ne 0 ] || echo "package.sh: FAIL: stopped by an unexpected error (see above)" >&2
}
trap cleanup EXIT
fail() {
  echo "package.sh: FAIL: $*" >&2
  passed=2 # already reported: the EXIT trap stays quiet
  exit 1
}
step() { echo "== $*"; }

for tool in cpack desktop-file-validate appstreamcli dpkg-deb dpkg-shlibdeps file; do
  command -v "$tool" >/dev/null || fail "'$tool' is not installed (see the package list at the top of $0)"
done
[ -f "$build/CPackConfig.cmake" ] || fail "$build has no CPackConfig.cmake: configure it with cmake first"

# --- 1. Desktop entry and AppStream metadata, as written in the source tree ---------------------
step "validating the desktop entry and the AppStream metainfo"
shopt -s nullglob
desktops=("$repo"/packaging/*.desktop)
metainfos=("$repo"/packaging/*.metainfo.xml)
shopt -u nullglob
[ ${#desktops[@]} -gt 0 ] || fail "no packaging/*.desktop"
[ ${#metainfos[@]} -gt 0 ] || fail "no packaging/*.metainfo.xml"
for f in "${desktops[@]}"; do
  desktop-file-validate "$f" || fail "desktop-file-validate rejects ${f#"$repo"/}"
done
for f in "${metainfos[@]}"; do
  appstreamcli validate --no-net "$f" || fail "appstreamcli rejects ${f#"$repo"/}"
done

# --- 2. The package ----------------------------------------------------------------------------
step "cpack -G DEB in $build"
(cd "$build" && cpack -G DEB) | tee "$work/cpack.log" || fail "cpack -G DEB failed"
deb=$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' "$work/cpack.log" | tail -n 1)
[ -f "${deb:-/nonexistent}" ] || fail "cpack did not report a generated .deb"
dpkg-deb --info "$deb"
field() { dpkg-deb --field "$deb" "$1"; }
version=$(field Version)
[ "$(field Package)" = gpuforecast ] || fail "package name is '$(field Package)', expected gpuforecast"
[ "$(field Section)" = science ] || fail "section is '$(field Section)', expected science"
[ -n "$version" ] || fail "the package has no version"
field Depends | grep -q 'libc6' || fail "Depends lacks libc6: did dpkg-shlibdeps run? ($(field Depends))"
grep -q "<release version=\"$version\"" "${metainfos[@]}" ||
  fail "packaging/*.metainfo.xml has no <release version=\"$version\">: add the release before packaging it"

# --- 3. Unpack and check the layout --------------------------------------------------------------
step "unpacking $(basename "$deb")"
root="$work/root"
dpkg-deb -x "$deb" "$root"
cli="$root/usr/bin/gpuforecast-cli"
data="$root/usr/share/gpuforecast"
[ -x "$cli" ] || fail "the package has no usr/bin/gpuforecast-cli"
file -L "$cli" | grep -q 'ELF.*executable.*, stripped' || fail "usr/bin/gpuforecast-cli is not a stripped ELF executable: $(file -L "$cli")"
for p in gpus weights models datasets datasets/README.md datasets/neusight/LICENSE; do
  [ -e "$data/$p" ] || fail "the package has no usr/share/gpuforecast/$p"
done
[ -f "$root/usr/share/man/man1/gpuforecast-cli.1.gz" ] || [ -f "$root/usr/share/man/man1/gpuforecast-cli.1" ] ||
  fail "the package has no gpuforecast-cli manual page"
# The desktop files describe and launch the GUI, so they ship exactly when the GUI does.
app_id=org.gpuforecast.GpuForecast
if [ -e "$root/usr/bin/gpuforecast" ]; then
  desktop-file-validate "$root/usr/share/applications/$app_id.desktop" || fail "installed desktop entry missing or invalid"
  appstreamcli validate --no-net "$root/usr/share/metainfo/$app_id.metainfo.xml" || fail "installed metainfo missing or invalid"
  for s in 16 22 24 32 48 64 128 256; do
    [ -f "$root/usr/share/icons/hicolor/${s}x${s}/apps/$app_id.png" ] || fail "no ${s}x${s} icon"
  done
  [ -f "$root/usr/share/icons/hicolor/scalable/apps/$app_id.svg" ] || fail "no scalable icon"
  echo "GUI gpuforecast packaged with its desktop entry, metainfo and icons"
elif [ -e "$root/usr/share/applications/$app_id.desktop" ]; then
  fail "the package has a desktop entry but no usr/bin/gpuforecast"
else
  echo "GUI not built: CLI-only package"
fi

# --- 4. Run the unpacked CLI with a clean environment -------------------------------------------
# env -i: no GPUFORECAST_DATA_DIR (nor anything else) from the caller.
run_cli() { env -i PATH=/usr/bin:/bin "$cli" "$@"; }
step "running the unpacked gpuforecast-cli"
[ "$(run_cli --version)" = "gpuforecast-cli $version" ] ||
  fail "'gpuforecast-cli --version' prints '$(run_cli --version)', the package version is $version"
run_cli predict --model gpt2_large --gpu H100-SXM5-80GB --batch 4 --seq 1024 --json >"$work/predict.json" ||
  fail "the unpacked CLI's predict failed"
grep -Eq '"e2e_ms": [0-9.]+' "$work/predict.json" || fail "predict --json printed no e2e_ms"
echo "predict gpt2_large on H100-SXM5-80GB, batch 4 x 1024: $(grep -Em1 '"e2e_ms"' "$work/predict.json" | tr -d ' ,')"

# --- 5. Prove the data came from the unpacked tree, not the source tree -------------------------
# The binary looks for its data in $GPUFORECAST_DATA_DIR, then <exe dir>/../share/gpuforecast, then
# the source tree's resources/ (an absolute path compiled in for build-tree runs). That last
# fallback exists on this machine, so a successful predict above does not by itself prove the
# package is complete: a package missing share/gpuforecast/gpus would still "work" here.
# So plant a GPU spec and a model config with ids that exist nowhere else (random suffix) into the
# unpacked share/gpuforecast, and forecast that model on that GPU: only the unpacked tree can
# answer. The control run, pointed at the source tree, must fail, which shows the marker
# discriminates. Everything (gpus, models, weights) is read from the one folder that was chosen.
step "checking the data folder the unpacked CLI uses"
marker="pkgcheck-$$-$RANDOM"
[ ! -e "$repo/resources/gpus/$marker.json" ] || fail "marker $marker unexpectedly exists in the source tree"
sed "s/\"id\": \"H100-SXM5-80GB\"/\"id\": \"$marker\"/" "$data/gpus/H100-SXM5-80GB.json" >"$data/gpus/$marker.json"
grep -q "\"$marker\"" "$data/gpus/$marker.json" || fail "could not write the marker GPU spec"
cp "$data/models/gpt2_large.json" "$data/models/${marker//-/_}.json"
run_cli gpus >"$work/gpus.txt" || fail "the unpacked CLI's gpus failed"
grep -q "^$marker " "$work/gpus.txt" || fail "'gpus' does not list the marker GPU: the CLI reads another data folder"
if ! run_cli predict --model "${marker//-/_}" --gpu "$marker" --batch 4 --seq 1024 --json >"$work/marker.json" ||
   ! grep -q '"e2e_ms"' "$work/marker.json"; then
  fail "predict on the marker GPU and model failed: the CLI reads another data folder"
fi
if env -i PATH=/usr/bin:/bin GPUFORECAST_DATA_DIR="$repo/resources" "$cli" predict --model gpt2_large \
     --gpu "$marker" --batch 4 --seq 1024 >/dev/null 2>&1; then
  fail "control run: the source tree's data also knows the marker GPU, so the check proves nothing"
fi
# And GPUFORECAST_DATA_DIR wins: a folder without gpus/ is an input error (exit 2), not a fallback.
rc=0
env -i PATH=/usr/bin:/bin GPUFORECAST_DATA_DIR="$work/nowhere" "$cli" gpus >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "GPUFORECAST_DATA_DIR pointing nowhere gave exit $rc, expected 2"
echo "the unpacked CLI reads $data"

passed=1
echo "package.sh: PASS $(basename "$deb") (gpuforecast $version)"
