# svc, built by PGXS convention (like pgvector): `make`, `make install` (as root), `make installcheck`
# against a running server. plv8-compat, the plv8 handler for machines without plv8, is built and
# installed from here too, unless a real plv8 is already installed in the same PostgreSQL (then
# neither built nor installed: `make install` works with either handler).
PG_CONFIG ?= pg_config
LIBNODE_ROOT ?= $(CURDIR)/.deps/libnode
# plv8-compat is built in its folder; PLV8_COMPAT_BUILD (an absolute folder) builds it there instead,
# so that builds for other PostgreSQL versions (scripts/platform/legs.sh) leave the default one alone.
PLV8_COMPAT_BUILD ?=
ifeq ($(PLV8_COMPAT_BUILD),)
PLV8_COMPAT = $(MAKE) -C plv8-compat PG_CONFIG=$(PG_CONFIG) LIBNODE_ROOT=$(LIBNODE_ROOT)
else
# Its sources are copied there (times kept, so make rebuilds what changed): a VPATH build would
# pick up the objects in plv8-compat/src built for the default PostgreSQL.
PLV8_COMPAT = mkdir -p $(PLV8_COMPAT_BUILD)/src && cp -p plv8-compat/src/*.cc plv8-compat/src/*.h $(PLV8_COMPAT_BUILD)/src/ && \
	cp -pr plv8-compat/Makefile plv8-compat/*.sql plv8-compat/*.control plv8-compat/sql plv8-compat/expected $(PLV8_COMPAT_BUILD)/ && \
	$(MAKE) -C $(PLV8_COMPAT_BUILD) PG_CONFIG=$(PG_CONFIG) LIBNODE_ROOT=$(LIBNODE_ROOT)
endif

# The svc extension script is generated from src/extension (and the grammar compiler it bundles).
EXTENSION = svc
EXTVERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" svc.control)
UPGRADES = $(patsubst src/extension/migrations/%.sql,extension/svc--%.sql,$(wildcard src/extension/migrations/*--$(EXTVERSION).sql))
DATA_built = extension/svc--$(EXTVERSION).sql $(UPGRADES)
# Full scripts of earlier releases, so old versions install and upgrade paths can be tested.
DATA = $(wildcard extension/releases/svc--*.sql)

# svc's native part (src/native): svc.so, the C functions an exact scan calls once per row
# (svc_cosine_distance) and the relay before svc's JavaScript and administrators' functions
# (svc_relay). The SQL declares them at MODULE_PATHNAME (svc.control's module_pathname).
MODULE_big = svc
OBJS = src/native/distance.o src/native/reals.o src/native/relay.o
# No LLVM bitcode: JIT inlining gains nothing on a loop this small, and it would need clang.
override with_llvm = no
# The same distances on every machine: no fused multiply-add where the CPU has one (GCC fuses by default).
# The same bytes from every clone: no path of this one in the debug info (check-installed compares
# the module with the installed one, which another clone of the same commit may have installed).
PG_CFLAGS = -ffp-contract=off -ffile-prefix-map=$(CURDIR)=.

# pg_regress suite of svc's SQL surface (test/regress/sql, expected/): `make installcheck` against a
# running server runs it after plv8-compat's.
REGRESS = surface errors_arguments errors_queue errors_prompts errors_summarize errors_vectorizers errors_streaming
REGRESS_OPTS = --inputdir=test/regress --outputdir=.tmp/regress
REGRESS_PREP = .tmp/regress

PLV8_CONTROL := $(shell $(PG_CONFIG) --sharedir)/extension/plv8.control
# A plv8.control without our marker belongs to a real plv8, which is used instead of plv8-compat.
REAL_PLV8 := $(shell test -f $(PLV8_CONTROL) && ! grep -q plv8-compat $(PLV8_CONTROL) && echo yes)

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

.PHONY: plv8-compat plv8-compat-install plv8-compat-installcheck check-installed svc-installcheck

ifneq ($(REAL_PLV8),yes)
all: plv8-compat
installcheck: plv8-compat-installcheck
endif
install: plv8-compat-install

# The objects are built in the tree, for one PostgreSQL at a time: when PG_CONFIG names another one
# than the last build's (scripts/platform/legs.sh builds for 18 in this tree), they are rebuilt, never
# reused (a module built for 15 does not load into 18). The stamp changes only when the server does.
NATIVE_BUILT_FOR = .tmp/native/built-for
NATIVE_PG := $(shell $(PG_CONFIG) --version) $(shell $(PG_CONFIG) --includedir-server)
$(OBJS): $(NATIVE_BUILT_FOR)
$(NATIVE_BUILT_FOR): FORCE
	@mkdir -p $(dir $@) && echo '$(NATIVE_PG)' | cmp -s - $@ || echo '$(NATIVE_PG)' > $@
.PHONY: FORCE

$(DATA_built) &: svc.control scripts/build-extension.ts $(wildcard src/extension/*.ts src/extension/*.sql src/extension/sql/*.sql src/extension/migrations/*.sql src/queue/*.ts src/automaton/*.ts src/grammar/*.ts src/vectorizer/*.ts src/prompt/*.ts src/decode/sampling.ts src/decode/stop.ts)
	node_modules/.bin/tsx scripts/build-extension.ts

plv8-compat:
	$(PLV8_COMPAT)

ifeq ($(REAL_PLV8),yes)
plv8-compat-install:
	@echo "plv8 is installed in $(dir $(PLV8_CONTROL)) (a real one): plv8-compat is not installed over it"
else
plv8-compat-install: plv8-compat
	$(PLV8_COMPAT) install
endif

plv8-compat-installcheck:
	$(PLV8_COMPAT) installcheck

.tmp/regress:
	mkdir -p $@

# svc's suite alone (PGXS's installcheck without plv8-compat's).
svc-installcheck: $(REGRESS_PREP)
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(REGRESS)

# Exits 0 when what `make` built is what is installed (or a real plv8 is there), so setup can skip
# `make install` and the root privileges it needs.
check-installed:
ifneq ($(REAL_PLV8),yes)
	@set -e; for f in plv8-compat/*.so; do cmp -s $$f $(pkglibdir)/$$(basename $$f); done; \
	for f in plv8-compat/*.control plv8-compat/*.sql; do cmp -s $$f $(datadir)/extension/$$(basename $$f); done
endif
	@set -e; cmp -s svc$(DLSUFFIX) $(pkglibdir)/svc$(DLSUFFIX); for f in svc.control $(DATA_built) $(DATA); do cmp -s $$f $(datadir)/extension/$$(basename $$f); done
