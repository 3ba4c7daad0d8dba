#!/usr/bin/env bash
# Renders the hand-drawn SVG icon into the hicolor PNG sizes. Run it after editing the SVG and
# commit the PNGs: the build and the package use the committed files and need no SVG renderer.
# Needs rsvg-convert (Debian: librsvg2-bin); falls back to ImageMagick's convert.
set -euo pipefail
cd "$(dirname "$0")/hicolor"
id=org.gpuforecast.GpuForecast
svg=scalable/apps/$id.svg
for size in 16 22 24 32 48 64 128 256; do
  mkdir -p "${size}x${size}/apps"
  out=${size}x${size}/apps/$id.png
  if command -v rsvg-convert >/dev/null; then
    rsvg-convert --width "$size" --height "$size" --output "$out" "$svg"
  else
    convert -background none -density 384 "$svg" -resize "${size}x${size}" "$out"
  fi
  echo "wrote packaging/icons/hicolor/$out"
done
