#!/usr/bin/env bash
# svc on the platforms users run beside the default one (the system's PostgreSQL 15 with plv8-compat,
# which `npm test` covers): each leg is a private PostgreSQL tree (scripts/platform/tree.sh) with a
# plv8 handler, pgvector and svc installed by `make install`, and the suites run against it by putting
# its bin first on PATH (every test, pg_regress included, takes the server from pg_config).
#
#   scripts/platform/legs.sh                 # every leg
#   scripts/platform/legs.sh pg15-plv8 pg18  # the legs named
#
# Legs:
#   pg15-plv8   PostgreSQL 15 (a copy of the system's) + the genuine plv8 3.2.2: svc's pg_regress
#               surface, its SQL integration tests (test/extension) and the end-to-end smoke test
#   pg18        PostgreSQL 18 (built from sid's source package) + plv8-compat: plv8-compat's own
#               suite (test/plv8-compat.test.ts on its build for 18), the surface, the sessions matrix
#               (test/extension/sessions.test.ts) and the smoke test
#   pg18-plv8   PostgreSQL 18 + the genuine plv8 3.2.2: the surface, the sessions matrix and the smoke test
#
# Builds are cached in $SVC_DEPS_CACHE (default .deps); cold, PostgreSQL 18 takes 2.5-10 min, plv8
# under a minute, pgvector 10 s. The genuine plv8 and pgvector come from source archives
# (scripts/platform/lib.sh says where they are looked for); a leg whose archive is missing is
# reported and skipped. Exits non-zero when a leg that ran failed.
source "$(dirname "$0")/lib.sh"
cd "$root"
legs=("$@")
[ ${#legs[@]} -gt 0 ] || legs=(pg15-plv8 pg18 pg18-plv8)

# Left out on the genuine plv8: tests named "plv8-compat: ..." pin plv8-compat's own behaviour (what
# it makes superuser-only, for one), not svc's; and a jsonb argument with a "__proto__" key, which the
# genuine plv8's direct jsonb conversion (JSONB_DIRECT_CONVERSION, its default) turns into the
# object's prototype instead of a member (docs/install.md, "Which plv8"; a text schema keeps it).
GENUINE_PATTERN='^(?!.*(plv8-compat: |a __proto__ key is an annotation))'

run_leg() {
  local leg=$1 base handler pg tree_config tests=() pattern=''
  case $leg in
    pg15-plv8) base=/usr/lib/postgresql/15/bin/pg_config handler=genuine pg=15
      tests=(test/extension test/platform) ;;
    pg18) base=$(bash scripts/platform/pg18.sh) handler=compat pg=18
      tests=(test/plv8-compat.test.ts test/extension/regress.test.ts test/extension/sessions.test.ts test/platform) ;;
    pg18-plv8) base=$(bash scripts/platform/pg18.sh) handler=genuine pg=18
      tests=(test/extension/regress.test.ts test/extension/sessions.test.ts test/platform) ;;
    *) die "unknown leg $leg (pg15-plv8, pg18, pg18-plv8)" ;;
  esac
  if [ -z "$vendor" ] && [ "$handler" = genuine ]; then
    log "$leg: skipped (no plv8 source archive; set SVC_VENDOR)"
    return 0
  fi
  tree_config=$(bash scripts/platform/tree.sh "$base" "$leg")
  local bindir
  bindir=$(dirname "$tree_config")
  if [ "$handler" = genuine ]; then
    bash scripts/platform/plv8.sh "$tree_config"
    pattern=$GENUINE_PATTERN
  fi
  [ -z "$vendor" ] || bash scripts/platform/pgvector.sh "$tree_config"
  # svc (and plv8-compat, built in its own folder for this PostgreSQL, unless plv8 is the genuine one).
  make -s --no-print-directory install PG_CONFIG="$tree_config" PLV8_COMPAT_BUILD="$cache/build/plv8-compat-$leg" >/dev/null
  log "$leg: $("$tree_config" --version), plv8 $handler; running ${tests[*]}"
  env PATH="$bindir:$PATH" SVC_EXPECT_PG="$pg" SVC_EXPECT_PLV8="$handler" PLV8_COMPAT_BUILD="$cache/build/plv8-compat-$leg" \
 node --experimental-vm-modules node_modules/jest/bin/jest.js ${pattern:+--testNamePattern "$pattern"} "${tests[@]}"
}

failed=()
for leg in "${legs[@]}"; do
  started=$SECONDS
  if run_leg "$leg"; then log "$leg: passed in $((SECONDS - started)) s"
  else log "$leg: FAILED after $((SECONDS - started)) s"; failed+=("$leg")
  fi
done
[ ${#failed[@]} -eq 0 ] || die "failed legs: ${failed[*]}"
