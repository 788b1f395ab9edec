#!/usr/bin/env bash
# The first frame of the 3D sample and of breakout, without a pipeline cache file and with the
# one the run before wrote: process wall time of a headless one-frame run, three rounds each.
# Mesa's and NVIDIA's own shader disk caches are off, so that only xnagraph's cache differs.
# usage: benches/first-frame.sh [BIN_DIR (default target/release)]
# (build first: cargo build --release -p xnagraph-samples --bins)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release}
cache="${TMPDIR:-/tmp}/xnagraph-first-frame.pipelines"
export MESA_SHADER_CACHE_DISABLE=true __GL_SHADER_DISK_CACHE=0 XNAGRAPH_PIPELINE_CACHE=$cache
frame="${TMPDIR:-/tmp}/xnagraph-first-frame.png"
ms() { local start; start=$(date +%s%N); "$@" >/dev/null 2>&1 || echo "failed: $*" >&2; echo $(( ($(date +%s%N) - start) / 1000000 )); }
for sample in model3d breakout; do
  args=(--frames 1 --out "$frame")
  [ "$sample" = breakout ] && args=(--headless "${args[@]}")
  for round in 1 2 3; do
    rm -f "$cache"
    cold=$(ms "$bin/$sample" "${args[@]}")
    bytes=$(stat -c %s "$cache" 2>/dev/null || echo 0)
    cached=$(ms "$bin/$sample" "${args[@]}")
    printf '%s\tround %s\tcold %s ms\tcached %s ms\tcache file %s bytes\n' "$sample" "$round" "$cold" "$cached" "$bytes"
  done
done
rm -f "$cache" "$frame"
