#!/usr/bin/env bash
# pgvector 0.8.6, built from its source archive with PGXS for the PostgreSQL that $1 (a pg_config,
# default: the one on PATH) names, and installed into it (as root where that tree needs it). Portable
# (OPTFLAGS="": its default is -march=native). Builds are cached per PostgreSQL version; about 10 s.
#
#   scripts/platform/pgvector.sh [PG_CONFIG]
source "$(dirname "$0")/lib.sh"
pg_config="${1:-$(command -v pg_config)}"
archive=$(vendor_archive pgvector-0.8.6.tar.gz 5743dac39fdfa740533cf95e71b033bd5513b71dda194b3cf19464ccbf76f3fb)
version=$("$pg_config" --version)
major=$(echo "$version" | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
build="$cache/pgvector-0.8.6-pg$major"
want="$(inputs_sum "$archive" "$0") $version"
if [ "$(cat "$build/.svc-built" 2>/dev/null)" != "$want" ]; then
  log "building pgvector 0.8.6 for $version"
  rm -rf "$build"
  mkdir -p "$build"
  tar -xzf "$archive" -C "$build" --strip-components=1
  make -C "$build" -j"$(nproc)" PG_CONFIG="$pg_config" OPTFLAGS="" with_llvm=no >"$build/build.log" 2>&1 ||
    { tail -30 "$build/build.log" >&2; die "pgvector build failed ($build/build.log)"; }
  echo "$want" >"$build/.svc-built"
fi
# Installed only when the installed module differs from the build (so a second run needs no root).
pkglibdir=$("$pg_config" --pkglibdir)
if ! cmp -s "$build/vector.so" "$pkglibdir/vector.so" ||
  ! cmp -s "$build/vector.control" "$("$pg_config" --sharedir)/extension/vector.control"; then
  if [ -w "$pkglibdir" ]; then make_install=(make); else make_install=(as_root make); fi
  "${make_install[@]}" -s -C "$build" install PG_CONFIG="$pg_config" OPTFLAGS="" with_llvm=no >"$build/install.log" 2>&1 ||
    { tail -20 "$build/install.log" >&2; die "pgvector install failed"; }
  log "pgvector 0.8.6 installed into $pkglibdir"
fi
