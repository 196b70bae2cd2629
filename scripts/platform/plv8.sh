#!/usr/bin/env bash
# The genuine plv8 3.2.2, built from its source archive against Debian's libnode (V8 10.2) for the
# PostgreSQL that $1 (a pg_config) names, and installed into that PostgreSQL's tree.
#
#   scripts/platform/plv8.sh /path/to/pg_config
#
# plv8's own build fetches and compiles V8 11.5 (git submodules, CMake): not possible offline. It is
# pointed at libnode instead: deps/v8-cmake/v8/include holds Node's V8 headers, and each V8 library
# its Makefile links (-lv8_base_without_compiler, ...) is a link to libnode.so, which is installed
# beside the module (rpath $ORIGIN), as plv8-compat does. plv8-3.2.2-libnode.patch holds the
# differences, each guarded by version: the version-string header Node lacks, V8 10's OOM callback,
# PostgreSQL 17's removed no-ops and 18's TupleDesc. EXECUTION_TIMEOUT=1 defines
# plv8.execution_timeout, which svc sets. Builds are cached per PostgreSQL major version.
#
# Where a plv8-compat is installed in that tree, it is replaced (its files removed first).
source "$(dirname "$0")/lib.sh"
pg_config="${1:?usage: plv8.sh PG_CONFIG}"
archive=$(vendor_archive plv8-3.2.2.tar.gz fddded725e2ddfe02d4be965b79c0706c49bea778e337d6f856844d4aa9f553f)
libnode=$(libnode_root)
libnode_so=$(ls "$libnode"/usr/lib/*/libnode.so.108)
patch_file="$root/scripts/platform/plv8-3.2.2-libnode.patch"
version=$("$pg_config" --version)
major=$(echo "$version" | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
build="$cache/plv8-3.2.2-pg$major"
want="$(inputs_sum "$archive" "$patch_file" "$0") $version"

if [ "$(cat "$build/.svc-built" 2>/dev/null)" != "$want" ]; then
  log "building plv8 3.2.2 against libnode for $version"
  need_packages patch g++ make
  rm -rf "$build"
  mkdir -p "$build"
  tar -xzf "$archive" -C "$build" --strip-components=1
  (
    cd "$build"
    patch -s -p1 <"$patch_file"
    mkdir -p deps/v8-cmake/v8 deps/v8-cmake/build
    ln -s "$libnode/usr/include/node" deps/v8-cmake/v8/include
    for lib in v8_base_without_compiler v8_compiler v8_snapshot v8_inspector v8_libplatform v8_libsampler \
      v8_torque_generated v8_libbase; do
      ln -s "$libnode_so" "deps/v8-cmake/build/lib$lib.so"
    done
    touch deps/v8-cmake/build/libv8_libbase.a # the target that would build V8
    make -j"$(nproc)" PG_CONFIG="$pg_config" EXECUTION_TIMEOUT=1 LDFLAGS_SL="-Wl,-rpath,'\$\$ORIGIN'" with_llvm=no
  ) >"$build/build.log" 2>&1 || { tail -30 "$build/build.log" >&2; die "plv8 build failed ($build/build.log)"; }
  echo "$want" >"$build/.svc-built"
fi

pkglibdir=$("$pg_config" --pkglibdir)
extdir=$("$pg_config" --sharedir)/extension
if [ -f "$extdir/plv8.control" ] && grep -q plv8-compat "$extdir/plv8.control"; then
  log "removing plv8-compat from $extdir"
  rm -f "$extdir"/plv8.control "$extdir"/plv8--*.sql "$pkglibdir/plv8_compat.so"
fi
make -s -C "$build" install PG_CONFIG="$pg_config" EXECUTION_TIMEOUT=1 with_llvm=no >"$build/install.log" 2>&1 ||
  { tail -20 "$build/install.log" >&2; die "plv8 install failed"; }
install -m 755 "$libnode_so" "$pkglibdir/libnode.so.108"
log "plv8 3.2.2 installed into $pkglibdir"
