#!/usr/bin/env bash
# Compiles every stock GLSL stage to SPIR-V and validates it.
#   shaders/build.sh          rewrite shaders/spirv/ from shaders/glsl/
#   shaders/build.sh --check  rebuild into a temporary folder and fail if it differs from the
#                             committed SPIR-V (what CI runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/spirv"
if [ "${1:-}" = "--check" ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
for src in "$here"/glsl/*.vert "$here"/glsl/*.frag; do
  name=$(basename "$src")
  glslc --target-env=vulkan1.0 -O -o "$out/$name.spv" "$src"
  spirv-val --target-env vulkan1.0 "$out/$name.spv"
done
if [ "${1:-}" = "--check" ]; then
  diff -r "$here/spirv" "$out"
  echo "shaders: committed SPIR-V matches its GLSL and validates"
fi
