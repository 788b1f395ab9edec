#!/usr/bin/env bash
# A longer run of the API sequence fuzzer (xnagraph_benches::sequence), from the repository
# root, on both backends:
#
#   benches/fuzz-sequence.sh [SECONDS] [--include-known] [--no-validation]
#
# SECONDS (default 600) bounds each backend's run. Every sequence is checked against the
# model, under both compile policies and through its capture's replay, with Khronos validation
# (SDL_gpu: debug mode) unless --no-validation. --include-known also generates the operations
# of the known defects listed in benches/src/sequence/known.rs. The fuzzer runs in the dev
# profile, so arithmetic overflow and debug assertions are checked. Each backend prints a JSON
# summary (sequences, operations, checks, findings) on stdout; each finding's seed and shrunk
# sequence, as Rust calls, go to target/fuzz-sequence/<backend>-findings.txt. The exit status is
# 1 when anything was found.
set -euo pipefail
seconds=600
extra=()
validation=(--validation)
for arg in "$@"; do
    case "$arg" in
        --include-known) extra+=(--include-known) ;;
        --no-validation) validation=() ;;
        *) seconds="$arg" ;;
    esac
done
cargo build -q -p xnagraph-benches --bin xnagraph-fuzz-sequence
mkdir -p target/fuzz-sequence
status=0
for backend in vulkan sdlgpu; do
    ./target/debug/xnagraph-fuzz-sequence --backend "$backend" --seconds "$seconds" \
        --seed "$(date +%s)" "${validation[@]}" "${extra[@]}" \
        2> "target/fuzz-sequence/$backend-findings.txt" || status=1
done
exit "$status"
