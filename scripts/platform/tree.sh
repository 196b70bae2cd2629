#!/usr/bin/env bash
# A private copy of a PostgreSQL installation, $cache/trees/NAME, for installing what must not go
# into the installation it copies (the system's is shared; the genuine plv8 would replace
# plv8-compat there). PostgreSQL finds its files relative to its binaries, so the copy is a working
# installation: its pg_config names its own directories, `make install PG_CONFIG=...` installs into
# it, and its initdb and postgres load from it. Prints its pg_config.
#
#   scripts/platform/tree.sh BASE_PG_CONFIG NAME
#
# Debian's layout (/usr/lib/postgresql/N, /usr/share/postgresql/N, /usr/include/postgresql) is copied
# under the tree's usr/; a --prefix build is copied whole. The copy is made again when the base
# changed version; what was installed into it stays otherwise (each install is idempotent).
source "$(dirname "$0")/lib.sh"
base="${1:?usage: tree.sh BASE_PG_CONFIG NAME}"
name="${2:?usage: tree.sh BASE_PG_CONFIG NAME}"
tree="$cache/trees/$name"
bindir=$("$base" --bindir)
want="$("$base" --version) $bindir"
if [ "$(cat "$tree/.svc-built" 2>/dev/null)" != "$want" ]; then
  log "copying $(dirname "$bindir") into $tree"
  rm -rf "$tree"
  if [[ "$bindir" =~ ^/usr/lib/postgresql/([0-9]+)/bin$ ]]; then
    major=${BASH_REMATCH[1]}
    mkdir -p "$tree/usr/lib/postgresql" "$tree/usr/share/postgresql" "$tree/usr/include"
    cp -a "/usr/lib/postgresql/$major" "$tree/usr/lib/postgresql/"
    cp -a "/usr/share/postgresql/$major" "$tree/usr/share/postgresql/"
    cp -a /usr/include/postgresql "$tree/usr/include/"
    pg_config="$tree/usr/lib/postgresql/$major/bin/pg_config"
  else
    mkdir -p "$(dirname "$tree")"
    cp -a "$(dirname "$bindir")" "$tree"
    pg_config="$tree/bin/pg_config"
  fi
  # The cluster runs as postgres when we are root: it must read the tree.
  chmod -R a+rX "$tree"
  echo "$want" >"$tree/.svc-built"
fi
if [[ "$bindir" =~ ^/usr/lib/postgresql/([0-9]+)/bin$ ]]; then
  printf '%s\n' "$tree/usr/lib/postgresql/${BASH_REMATCH[1]}/bin/pg_config"
else
  printf '%s\n' "$tree/bin/pg_config"
fi
