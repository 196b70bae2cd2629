# Shared by scripts/platform/*.sh (sourced, not run): where builds are cached, logging, root.
#
# Builds are cached in $SVC_DEPS_CACHE when it is set (.ci/run points it at ~/.cache/svc, outside the
# clone, so a fresh clone on the same machine reuses them), else in the clone's .deps. Each build
# lives in its own directory with a stamp naming what it was built from; a changed input rebuilds.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${SVC_DEPS_CACHE:-$root/.deps}"
# Source archives of plv8 and pgvector (test dependencies): $SVC_VENDOR, else ../shared/vendor beside
# the clone, else beside the repository it was cloned from (CI clones the working repository).
vendor_dir() {
  local origin
  origin=$(git -C "$root" config --get remote.origin.url 2>/dev/null || true)
  for d in "${SVC_VENDOR:-}" "$root/../shared/vendor" "${origin:+$origin/../shared/vendor}"; do
    [ -n "$d" ] && [ -d "$d" ] && { (cd "$d" && pwd); return 0; }
  done
  return 1
}
vendor=$(vendor_dir || true)
mkdir -p "$cache"
log() { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*" >&2; }
die() { log "$*"; exit 1; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "needs root for: $*"
  fi
}

# Installs the Debian packages named that are missing.
need_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The source archive $1 (a file name) from the vendor folder, checked against the sha256 $2. Users
# building by hand take the same archives from the projects' releases.
vendor_archive() {
  local file="$vendor/$1"
  [ -n "$vendor" ] && [ -f "$file" ] || die "$1 not found (set SVC_VENDOR to the folder holding it)"
  echo "$2  $file" | sha256sum -c --quiet - >&2 || die "$file: sha256 differs from $2"
  printf '%s\n' "$file"
}

# Sum of the named files' contents (a stamp: rebuild when a build input changed).
inputs_sum() { cat "$@" | sha256sum | cut -c1-16; }

# libnode (V8 10.2) as setup unpacks it.
libnode_root() {
  local l="${LIBNODE_ROOT:-$root/.deps/libnode}"
  [ -f "$l/usr/include/node/v8.h" ] || die "libnode is not unpacked in $l: run scripts/setup.sh first"
  printf '%s\n' "$l"
}
