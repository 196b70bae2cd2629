#!/usr/bin/env bash
# svc's embedding addon (src/native/embed/batch.cc) -> build/embed/svc_embed.node: N-API (C), compiled
# against the llama.h of the llama.cpp source node-llama-cpp ships (its gitRelease.bundle) and linked
# to the prebuilt libllama/libggml node-llama-cpp loads, so the process holds one llama.cpp. One
# translation unit, ~4 s on this 2-core machine. Optional: where it cannot be built (no prebuilt CPU binaries
# for this platform, no compiler) the engine embeds through node-llama-cpp alone, with the same
# bytes. Rebuilt only when its inputs changed; the headers stay in build/embed/include (for
# bench/embed-pack.cc).
#
#   scripts/build-embed-addon.sh        (run by scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="$root/build/embed"
log() { printf '[embed-addon] %s\n' "$*" >&2; }

platform="$(node -p 'process.platform + "-" + process.arch')"
if [ "$platform" != linux-x64 ]; then log "no prebuilt node-llama-cpp CPU binaries for $platform here: skipped"; exit 0; fi
bins=$(node -p 'const p = require("path"); p.join(p.dirname(require.resolve("@node-llama-cpp/linux-x64")), "..", "bins", "linux-x64")' 2>/dev/null) && [ -d "$bins" ] ||
  { log "@node-llama-cpp/linux-x64 is not installed: skipped"; exit 0; }
libllama=$(cd "$bins" && ls libllama.*.so 2>/dev/null | head -1)
libggml=$(cd "$bins" && ls libggml.*.so 2>/dev/null | head -1)
bundle="$root/node_modules/node-llama-cpp/llama/gitRelease.bundle"
[ -n "$libllama" ] && [ -n "$libggml" ] && [ -f "$bundle" ] || { log "node-llama-cpp's libllama or llama.cpp bundle not found: skipped"; exit 0; }
napi=""
for dir in "$root/.deps/libnode/usr/include/node" /usr/include/node; do [ -f "$dir/node_api.h" ] && napi=$dir && break; done
[ -n "$napi" ] || { log "node_api.h not found (.deps/libnode or /usr/include/node): skipped"; exit 0; }
command -v g++ >/dev/null || { log "no g++: skipped"; exit 0; }

want="$(cat src/native/embed/batch.cc "$0" | sha256sum | cut -c1-16) $(sha256sum "$bundle" | cut -c1-16) $libllama $libggml $bins"
if [ -f "$out/svc_embed.node" ] && [ "$(cat "$out/.built" 2>/dev/null)" = "$want" ]; then exit 0; fi

log "building $out/svc_embed.node against $bins/$libllama"
rm -rf "$out"
mkdir -p "$out/include"
# llama.h and the ggml headers it includes, from the exact llama.cpp the binaries were built from.
git clone -q --bare "$bundle" "$out/llama.git"
git --git-dir="$out/llama.git" archive HEAD include ggml/include | tar -x -C "$out/include"
rm -rf "$out/llama.git"
nice g++ -O2 -std=c++17 -fPIC -shared -Wall -DNAPI_VERSION=8 -DNODE_GYP_MODULE_NAME=svc_embed \
  -I"$napi" -I"$out/include/include" -I"$out/include/ggml/include" src/native/embed/batch.cc \
  -L"$bins" -l:"$libllama" -l:"$libggml" -l:libggml-base.so -Wl,-rpath,"$bins" -o "$out/svc_embed.node.tmp"
mv "$out/svc_embed.node.tmp" "$out/svc_embed.node"
echo "$want" >"$out/.built"
