#!/usr/bin/env bash
# PostgreSQL 18 built from Debian sid's source package (no Debian 12 suite packages 16+, and sid's
# binaries need a newer glibc), installed into its own prefix in the cache: $cache/pg18. Prints the
# prefix's pg_config. Cached: a second run only prints it. Cold: 2.5-10 min on 2 cores.
#
# The source comes through a throwaway APT_CONFIG with one deb-src line for sid (checked against the
# archive's signed index; sid's Release is past Valid-Until, hence Check-Valid-Until=false).
source "$(dirname "$0")/lib.sh"
prefix="$cache/pg18"
stamp="$prefix/.svc-built"
if [ -f "$stamp" ] && [ -x "$prefix/bin/pg_config" ]; then
  printf '%s\n' "$prefix/bin/pg_config"
  exit 0
fi
need_packages bison flex build-essential libreadline-dev zlib1g-dev dpkg-dev

work="$cache/pg18-src"
rm -rf "$work" "$prefix"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/apt/parts" "$work/apt/prefs"
cat >"$work/apt/sources.list" <<SRC
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main
SRC
cat >"$work/apt/apt.conf" <<CONF
Dir::Etc::SourceList "$work/apt/sources.list";
Dir::Etc::SourceParts "$work/apt/parts";
Dir::Etc::Preferences "$work/apt/prefs/none";
Dir::Etc::PreferencesParts "$work/apt/prefs";
Dir::State::Lists "$work/apt/lists";
Dir::Cache "$work/apt/cache";
Acquire::Check-Valid-Until "false";
APT::Sandbox::User "root";
CONF
log "fetching postgresql-18's source package (sid)"
(cd "$work" && APT_CONFIG="$work/apt/apt.conf" apt-get -qq update &&
  APT_CONFIG="$work/apt/apt.conf" apt-get -qq source --download-only postgresql-18) >&2
orig=$(ls "$work"/postgresql-18_*.orig.tar.* | head -1)
tar -xf "$orig" -C "$work"
src=$(find "$work" -maxdepth 1 -type d -name 'postgresql-18*' | head -1)

log "building $(basename "$src") into $prefix (make -j$(nproc))"
(
  cd "$src"
  ./configure --quiet --prefix="$prefix" --without-icu
  make -s -j"$(nproc)"
  make -s install
  # dblink (svc requires it) and the contrib modules svc's tests load.
  for m in dblink; do make -s -C "contrib/$m" -j"$(nproc)" install; done
) >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; die "PostgreSQL 18 build failed ($work/build.log)"; }
basename "$src" >"$stamp"
rm -rf "$work"
printf '%s\n' "$prefix/bin/pg_config"
