#!/usr/bin/env bash
# A bounded fuzz run of the capture reader (xnagraph_benches::fuzz), from the repository root:
#
#   benches/fuzz.sh [SECONDS] [--regenerate]
#
# SECONDS (default 180) bounds the run. --regenerate first rewrites the seeds in
# benches/fuzz/corpus from real captures (a sprite scene with a render target, a geometry
# scene with static and dynamic vertex and index buffers, and a scene of custom geometry
# effects, instanced draws and occlusion queries, a preserved depth/stencil target whose
# content is in the snapshot, a preserved 4x target whose samples are in the snapshot, and a
# preserved 4x depth/stencil target whose every depth and stencil sample is). The fuzzer runs in the dev profile, so arithmetic overflow and debug
# assertions are checked. It prints a JSON summary (executions, accepted and refused inputs,
# findings, slowest read) and writes each finding's input to target/fuzz-findings; the exit
# status is 1 when anything was found.
set -euo pipefail
seconds=180
regenerate=0
for arg in "$@"; do
    case "$arg" in
        --regenerate) regenerate=1 ;;
        *) seconds="$arg" ;;
    esac
done
if [ "$regenerate" = 1 ]; then
    cargo test -p xnagraph-benches --test capture --test capture_geometry --test capture_effects \
        --test capture_depth --test capture_samples \
        -- --ignored write_fuzz_seed
fi
cargo run -q -p xnagraph-benches --bin xnagraph-fuzz-capture -- \
    --corpus benches/fuzz/corpus --findings target/fuzz-findings --seconds "$seconds"
