#!/usr/bin/env bash
# Regenerates docs/report.png, the README's picture of a replay report: captures 30 frames of
# the capture example (headless), writes their report with xnagraph-replay, and has headless
# Chromium photograph the page. Needs what .ci/setup installs (chromium among it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/report-screenshot
mkdir -p "$out"
capture="${TMPDIR:-/tmp}/xnagraph-capture-example.xgc"
cargo run -q --release -p xnagraph --example capture -- --headless --frames 30
cargo run -q --release -p xnagraph-benches --bin xnagraph-replay -- \
  report "$capture" --out "$out/report.html" --frame 20 --repeat 3
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1300,1500 \
  --screenshot="$PWD/docs/report.png" "file://$PWD/$out/report.html" 2>/dev/null
bytes=$(stat -c %s "$out/report.html")
echo "wrote docs/report.png from $out/report.html ($bytes bytes)"
# A report is one file people pass around: it stays small.
[ "$bytes" -lt $((5 << 20)) ] || { echo "the report is over 5 MB" >&2; exit 1; }
