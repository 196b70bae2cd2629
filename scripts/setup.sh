#!/usr/bin/env bash
# One idempotent setup for a fresh Debian 12 machine with Node 20: Debian packages, the project-local
# libnode108 (V8 for plv8-compat), npm dependencies, and plv8-compat built and installed into the
# PostgreSQL that pg_config names. A second run only checks and returns.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
deps="$root/.deps"
mkdir -p "$deps"
log() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else log "needs root for: $*"; exit 1
  fi
}

# 1. Debian packages: the PostgreSQL 15 server and headers, the compilers `make` builds svc.so (C) and
#    plv8-compat (C++) with (a slim image has none), and the libraries libnode.so.108 links.
apt_packages=(postgresql-15 postgresql-server-dev-15 make gcc g++ libuv1 libicu72 libc-ares2 libnghttp2-14 libbrotli1)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. libnode108 and libnode-dev, unpacked into .deps/libnode. Never installed system-wide: libnode-dev
#    conflicts with the nodejs package and would replace /usr/include/node (Node 20's V8 11.3).
libnode="$deps/libnode"
if [ ! -f "$libnode/usr/include/node/v8.h" ] || ! ls "$libnode"/usr/lib/*/libnode.so.108 >/dev/null 2>&1; then
  log "unpacking libnode108 + libnode-dev into $libnode"
  mkdir -p "$deps/debs"
  rm -rf "$libnode"
  (cd "$deps/debs" && rm -f ./*.deb && { apt-get download libnode108 libnode-dev 2>/dev/null ||
    { as_root apt-get update -qq && apt-get download libnode108 libnode-dev; }; })
  for deb in "$deps"/debs/*.deb; do dpkg -x "$deb" "$libnode"; done
fi

# 3. npm dependencies as package-lock.json pins them, reinstalled only when it changed. `npm ci` is
#    tried first; npm 11 refuses it when the lockfile lacks other platforms' optional binaries (the
#    registry here serves only some of them), and then `npm install --no-save` installs the same
#    pinned tree without touching the lockfile.
if [ ! -f node_modules/.svc-lock-stamp ] || ! cmp -s package-lock.json node_modules/.svc-lock-stamp; then
  log "npm ci"
  if ! npm ci --no-audit --no-fund --loglevel=error 2>"$deps/npm-ci.log"; then
    grep -q 'EUSAGE' "$deps/npm-ci.log" || { cat "$deps/npm-ci.log" >&2; exit 1; }
    log "npm ci refused the lockfile (other platforms' optional packages); npm install --no-save"
    npm install --no-save --no-audit --no-fund --loglevel=error
  fi
  cp package-lock.json node_modules/.svc-lock-stamp
fi

# 3b. svc's embedding addon (src/native/embed, scripts/build-embed-addon.sh): many texts per call into
#     node-llama-cpp's own llama.cpp. Optional: where it does not build, embeddings go through
#     node-llama-cpp alone, with the same bytes, slower.
if ! bash scripts/build-embed-addon.sh; then
  log "the embedding addon did not build: embeddings go through node-llama-cpp alone"
fi

# 4. plv8-compat and the svc extension, built here and installed into pg_config's PostgreSQL (as root,
#    only when what is installed differs from what was built; the Makefile skips plv8-compat where a
#    real plv8 is installed).
make -s --no-print-directory LIBNODE_ROOT="$libnode" >/dev/null
if ! make -s --no-print-directory check-installed LIBNODE_ROOT="$libnode" 2>/dev/null; then
  log "installing into $(pg_config --pkglibdir)"
  as_root make -s --no-print-directory install LIBNODE_ROOT="$libnode" >/dev/null
fi
# 5. pgvector (optional for svc; its paths are tested where it is installed), built from the source
#    archive in the vendor folder when there is one (scripts/platform/pgvector.sh says where it looks).
if bash scripts/platform/pgvector.sh "$(command -v pg_config)" 2>"$deps/pgvector.log"; then :
elif grep -q 'not found (set SVC_VENDOR' "$deps/pgvector.log"; then
  log "pgvector: no source archive (SVC_VENDOR); its tests are skipped unless it is installed"
else cat "$deps/pgvector.log" >&2; exit 1
fi
log "ready"
