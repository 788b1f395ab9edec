#!/usr/bin/env bash
# What the engine's Cargo features buy: the cold release build of a minimal windowed game
# (benches/minimal-game, a package of its own as a game outside this repository would be: a
# window, a PNG texture, SpriteBatch) with the engine's default features, then with every
# feature (`full`), one after the other, each in a fresh target directory (the crates' sources
# already downloaded). Prints one JSON line per build: the features, the wall time in seconds and
# the number of crates compiled.
#
#   benches/build-time.sh            # both builds
#   benches/build-time.sh default    # only the default features
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
manifest=benches/minimal-game/Cargo.toml
cargo fetch --locked -q --manifest-path "$manifest"
for features in "${@:-default full}"; do
  for set in $features; do
    target=$(mktemp -d)
    log="$target.log"
    args=()
    [ "$set" = default ] || args=(--features "$set")
    start=$(date +%s%N)
    CARGO_TARGET_DIR="$target" cargo build --release --locked --manifest-path "$manifest" \
      "${args[@]}" 2>"$log"
    end=$(date +%s%N)
    crates=$(grep -c '^ *Compiling ' "$log" || true)
    tenths=$(((end - start) / 100000000))
    printf '{"build":"minimal game, release, cold","features":"%s","seconds":%d.%d,"crates":%d}\n' \
      "$set" $((tenths / 10)) $((tenths % 10)) "$crates"
    rm -rf "$target" "$log"
  done
done
