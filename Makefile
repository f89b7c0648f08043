# bspcost: static cost estimator for BSP programs.
#
#   make            build $(O)/bspcost (O defaults to build)
#   make check      unit, out-of-memory (make oom's, plain only), diagnostics,
#                   golden and resilience tests, and the same suite built with
#                   AddressSanitizer + UndefinedBehaviorSanitizer at the same
#                   time; make fuzz-smoke and the plain pass's oom, modes,
#                   names, messages and stress sections after whichever pass
#                   ends first, each taken by the first core free
#   make oom        the library's allocations failed one at a time through
#                   loading and analyses, each to fail with a message
#                   (tests/oom/oom.c)
#   make bench      counting-engine and example benchmarks (figures, not assertions)
#   make fuzz       the libFuzzer harnesses (tests/fuzz/), built with clang into
#                   $(O)-fuzz, each run for FUZZ_SECONDS (default 60) on one core
#   make fuzz-smoke tests/fuzz/regressions replayed, then each harness for a
#                   fixed 5 s from a fixed seed (without clang: says so, passes)
#   make stress N=300 SEED=1
#                   N random specifications from seed SEED through tests/stress/stress.py
#                   (--verify on two grids, values against tests/brute/bspenum.py)
#   make golden-update (or update-goldens)
#                   rewrites the golden outputs that differ (a format changed
#                   on purpose) and shows what changed: `git diff --stat` of
#                   tests/golden, then its diff (review it before a commit)
#   make probe      $(O)/bspcost-probe, the MPI program that measures a machine
#                   and writes its profile (built by make too when mpicc is found)
#   make install    honours PREFIX and DESTDIR: the command, the library
#                   (bspcost.h, libbspcost.a and .so, bspcost.pc) and the manuals
#
# O=DIR puts every generated file under DIR, so several builds (plain, sanitized,
# one per developer) can share a source tree.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share/bspcost
O       ?= build
CC      ?= cc
FLEX    ?= flex
BISON   ?= bison
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror=implicit-function-declaration
CPPFLAGS += -pthread -D_POSIX_C_SOURCE=200809L -I. -I$(O)/grammar -I/usr/include/flint
LDLIBS  += -lisl -lflint -lgmp -lm -pthread
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# The fuzzing build: every object with libFuzzer's coverage and the sanitizers,
# the harnesses linked with libFuzzer's main.
FUZZ_CC ?= clang
FUZZ_FLAGS = $(SAN_FLAGS) -fsanitize=fuzzer-no-link
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5
# bspcost-probe (probe/): an MPI program, built when this MPI compiler is
# found (Debian: openmpi-bin libopenmpi-dev); not in the sanitized pass (Open
# MPI's own allocations would be LeakSanitizer's findings)
MPICC ?= mpicc
PROBE := $(if $(SAN),,$(if $(shell command -v $(MPICC) 2> /dev/null),$(O)/bspcost-probe))

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
# libbspcost.so.$(SOMAJOR): the library's interface is analyzer/api/bspcost.h
# alone (every other symbol is hidden: -fvisibility=hidden)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
LIB_CFLAGS = -fPIC -fvisibility=hidden

SRCS := $(wildcard grammar/*.c analyzer/*/*.c distributions/*.c)
# the command line's own objects (cli/): the binary's, not the library's
CLI_OBJS := $(patsubst %.c,$(O)/%.o,$(wildcard cli/*.c))
GEN_C := $(O)/grammar/parser.c $(O)/grammar/lexer.c
OBJS := $(patsubst %.c,$(O)/%.o,$(SRCS)) $(GEN_C:.c=.o)
DEPS := $(OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(O)/main.d

TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(TEST_SRCS))
BENCH_SRCS := $(wildcard bench/*.c)
BENCH_BINS := $(patsubst bench/%.c,$(O)/bench/%,$(BENCH_SRCS))
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(FUZZ_SRCS))

.PHONY: all check check-one bench stress oom install uninstall clean tests fuzz fuzz-bins fuzz-smoke update-goldens golden-update probe
.SUFFIXES:
.DELETE_ON_ERROR:

all: $(O)/bspcost $(O)/libbspcost.so $(PROBE)

$(O)/bspcost: $(O)/main.o $(CLI_OBJS) $(O)/libbspcost.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The machine probe: MPI and the C library only, no part of bspcost's.
$(O)/bspcost-probe: probe/bspcost_probe.c
	@mkdir -p $(@D)
	$(MPICC) -DBSPCOST_VERSION='"$(VERSION)"' $(WARN) $(CFLAGS) -o $@ $< -lm

probe:
	@command -v $(MPICC) > /dev/null 2>&1 || { echo "make probe: $(MPICC) not found (Debian: apt-get install openmpi-bin libopenmpi-dev)"; exit 1; }
	@$(MAKE) --no-print-directory $(O)/bspcost-probe

$(O)/libbspcost.a: $(OBJS)
	rm -f $@
	ar rcs $@ $^

# The shared library: the same objects (position-independent), the symbols of
# bspcost.h exported.
$(O)/libbspcost.so.$(VERSION): $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libbspcost.so.$(SOMAJOR) -o $@ $^ $(LDLIBS)

$(O)/libbspcost.so: $(O)/libbspcost.so.$(VERSION)
	ln -sf libbspcost.so.$(VERSION) $(O)/libbspcost.so.$(SOMAJOR)
	ln -sf libbspcost.so.$(VERSION) $@

$(O)/grammar/parser.c $(O)/grammar/parser.h: grammar/parser.y
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror --defines=$(O)/grammar/parser.h -o $(O)/grammar/parser.c $<

$(O)/grammar/lexer.c $(O)/grammar/lexer.h: grammar/lexer.l
	@mkdir -p $(@D)
	$(FLEX) --header-file=$(O)/grammar/lexer.h -o $(O)/grammar/lexer.c $<

# The objects follow the flags written here (-fPIC among them).
$(OBJS) $(CLI_OBJS) $(O)/main.o: Makefile

# Generated sources need both generated headers before they compile.
$(O)/grammar/parser.o $(O)/grammar/lexer.o: $(O)/grammar/parser.h $(O)/grammar/lexer.h
$(patsubst %.c,$(O)/%.o,$(wildcard grammar/*.c)): $(O)/grammar/parser.h $(O)/grammar/lexer.h
$(O)/main.o $(CLI_OBJS): $(O)/grammar/parser.h $(O)/grammar/lexer.h

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DBSPCOST_VERSION='"$(VERSION)"' -DBSPCOST_DATADIR='"$(DATADIR)"' $(WARN) $(LIB_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(O)/%.o: $(O)/%.c
	$(CC) $(CPPFLAGS) $(WARN) $(LIB_CFLAGS) $(CFLAGS) -Wno-unused-function -Wno-sign-compare -MMD -MP -c -o $@ $<

$(O)/tests/%: tests/unit/%.c $(O)/libbspcost.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $< $(O)/libbspcost.a $(LDLIBS) -lcmocka

# make oom: the library's allocations failed one at a time (tests/oom/oom.c,
# whose header gives the schedule; malloc, calloc, realloc, strdup, strndup,
# asprintf, vasprintf and open_memstream wrapped at link time), each call to
# fail with a message or succeed, never crash: about 85 s, in make check's
# plain pass (tests/run.sh's oom section).  Built with the sanitizers
# (O=build-san CFLAGS='$(SAN_FLAGS)' LDFLAGS=-fsanitize=address,undefined),
# LeakSanitizer looks for a leak after each failure: about 25 minutes, not
# in make check.
OOM_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup \
	-Wl,--wrap=asprintf,--wrap=vasprintf,--wrap=open_memstream
$(O)/tests/oom: tests/oom/oom.c $(O)/libbspcost.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) $(OOM_WRAP) \
		-o $@ $< $(O)/libbspcost.a $(LDLIBS) -lcmocka

oom: $(O)/tests/oom
	OOM_TRACE=$(OOM_TRACE) $(O)/tests/oom

$(O)/bench/%: bench/%.c $(O)/libbspcost.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $< $(O)/libbspcost.a $(LDLIBS)

# Only with O=...-fuzz CC=clang CFLAGS='$(FUZZ_FLAGS)', as fuzz and fuzz-smoke ask.
$(O)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(O)/libbspcost.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(O)/libbspcost.a $(LDLIBS)

# The library's own programs, linked with the static library as a program
# outside the tree would: bspcost.h alone (the installed library:
# tests/resilience/install.sh).
$(O)/tests/api_render: tests/api/render.c analyzer/api/bspcost.h $(O)/libbspcost.a
	@mkdir -p $(@D)
	$(CC) -I. $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libbspcost.a $(LDLIBS)

$(O)/examples/api/rank_shapes: examples/api/rank_shapes.c analyzer/api/bspcost.h $(O)/libbspcost.a
	@mkdir -p $(@D)
	$(CC) -Ianalyzer/api $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libbspcost.a $(LDLIBS)

fuzz-bins: $(FUZZ_BINS)

tests: $(O)/bspcost $(TEST_BINS) $(O)/tests/oom $(O)/tests/api_render $(O)/examples/api/rank_shapes $(PROBE)

# One pass of the suite against the build in $(O); STRESS_COUNT specs in its
# stress section (fewer in the sanitized pass, where each takes longer).
STRESS_COUNT ?= 16
CHECK_TESTS ?= unit oom diag golden resilience examples verify brute modes names stress messages memory
check-one: tests
	@touch $(O).built
	TESTS='$(CHECK_TESTS)' STRESS_COUNT=$(STRESS_COUNT) sh tests/run.sh $(O)

# The whole suite, plain and under ASan + UBSan, the two passes at once (each
# is mostly one process at a time; this machine has two cores).  The jobs of
# CHECK_TAIL follow whichever pass ends first, one at a time, the next not
# yet taken (mkdir is each one's lock), the longest first, so that both
# cores stay busy to the end: sections of the plain pass (once the plain
# build is there) and the fuzzing smoke test.  Each prints its own totals;
# the last line is the total over all of them.
CHECK_TAIL = oom modes names fuzz messages stress
CHECK_LOGS = $(O).check.log $(O)-san.check.log $(foreach j,$(CHECK_TAIL),$(O)-$(j).check.log)
check:
	@rm -rf $(O).built $(CHECK_LOGS) $(CHECK_LOGS:.log=.rc) \
	   $(foreach j,$(CHECK_TAIL),$(O).lane-$(j)); \
	 tail_jobs() { for job in $(CHECK_TAIL); do \
	   mkdir $(O).lane-$$job 2> /dev/null || continue; \
	   if [ $$job = fuzz ]; then \
	     $(MAKE) --no-print-directory fuzz-smoke O=$(O) > $(O)-fuzz.check.log 2>&1; \
	   else \
	     while [ ! -e $(O).built ] && [ ! -e $(O).check.rc ]; do sleep 1; done; \
	     TESTS=$$job STRESS_COUNT=$(STRESS_COUNT) sh tests/run.sh $(O) > $(O)-$$job.check.log 2>&1; \
	   fi; \
	   echo $$? > $(O)-$$job.check.rc; done; }; \
	 ( $(MAKE) --no-print-directory check-one O=$(O) \
	   CHECK_TESTS='$(filter-out $(CHECK_TAIL),$(CHECK_TESTS))' > $(O).check.log 2>&1; \
	   echo $$? > $(O).check.rc; tail_jobs ) & \
	 ( SAN=1 $(MAKE) --no-print-directory check-one O=$(O)-san CFLAGS='$(SAN_FLAGS)' \
	   LDFLAGS='-fsanitize=address,undefined' STRESS_COUNT=6 > $(O)-san.check.log 2>&1; \
	   echo $$? > $(O)-san.check.rc; tail_jobs ) & \
	 wait; \
	 rm -rf $(O).built $(foreach j,$(CHECK_TAIL),$(O).lane-$(j)); \
	 tail -n 40 $(O).check.log; \
	 tail -n 40 $(O)-san.check.log; \
	 for log in $(foreach j,$(CHECK_TAIL),$(O)-$(j).check.log); do tail -n 12 $$log; done; \
	 sh tests/total.sh $(CHECK_LOGS); \
	 rc=0; for f in $(CHECK_LOGS:.log=.rc); do test "$$(cat $$f 2> /dev/null)" = 0 || rc=1; done; \
	 exit $$rc

# Fuzzing (tests/fuzz/run.sh): a build of its own in $(O)-fuzz, with clang.
# Without a clang that links -fsanitize=fuzzer, both say so and succeed: the
# build installs nothing (.ci/run installs clang for CI).
fuzz:
	@MAKE='$(MAKE)' sh tests/fuzz/run.sh $(O)-fuzz '$(FUZZ_CC)' '$(FUZZ_FLAGS)' long $(FUZZ_SECONDS)

fuzz-smoke:
	@MAKE='$(MAKE)' sh tests/fuzz/run.sh $(O)-fuzz '$(FUZZ_CC)' '$(FUZZ_FLAGS)' smoke $(FUZZ_SMOKE_SECONDS)

# Rewrites the golden outputs that differ (a format changed on purpose): the
# exit statuses are still checked; read `git diff tests/golden` before a commit.
update-goldens golden-update: $(O)/bspcost
	GOLDEN_UPDATE=1 TESTS=golden sh tests/run.sh $(O)
	@if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then \
		git --no-pager diff --stat -- tests/golden; \
		git --no-pager diff -- tests/golden; \
		git status --short -- tests/golden | grep '^??' || true; \
	fi

bench: $(O)/bspcost $(BENCH_BINS)
	sh bench/run.sh $(O)

# A long batch of random specifications (exit status 1 on any failure; the
# known bugs of tests/stress/found/ are tallied, not failed).
N    ?= 200
SEED ?= 1
stress: $(O)/bspcost
	python3 tests/stress/stress.py $(O)/bspcost --seed $(SEED) --count $(N) $(STRESS_FLAGS)

install: $(O)/bspcost $(O)/libbspcost.a $(O)/libbspcost.so $(PROBE)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)
	install -m 755 $(O)/bspcost $(DESTDIR)$(BINDIR)/bspcost
	install -m 644 man/bspcost.1 $(DESTDIR)$(MANDIR)/man1/bspcost.1
	install -m 644 man/bspcost.3 $(DESTDIR)$(MANDIR)/man3/bspcost.3
	install -m 644 man/bspcost.5 $(DESTDIR)$(MANDIR)/man5/bspcost.5
	install -m 644 analyzer/api/bspcost.h $(DESTDIR)$(INCLUDEDIR)/bspcost.h
	install -m 644 $(O)/libbspcost.a $(DESTDIR)$(LIBDIR)/libbspcost.a
	install -m 755 $(O)/libbspcost.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libbspcost.so.$(VERSION)
	ln -sf libbspcost.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libbspcost.so.$(SOMAJOR)
	ln -sf libbspcost.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libbspcost.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' bspcost.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/bspcost.pc
	if [ -x $(O)/bspcost-probe ]; then \
	  install -m 755 $(O)/bspcost-probe $(DESTDIR)$(BINDIR)/bspcost-probe; \
	  install -m 644 man/bspcost-probe.1 $(DESTDIR)$(MANDIR)/man1/bspcost-probe.1; fi
	install -d $(DESTDIR)$(DATADIR)/examples $(DESTDIR)$(DATADIR)/machines
	install -m 644 examples/*.bsp $(DESTDIR)$(DATADIR)/examples/
	install -m 644 machines/*.machine $(DESTDIR)$(DATADIR)/machines/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/bspcost $(DESTDIR)$(MANDIR)/man1/bspcost.1 $(DESTDIR)$(MANDIR)/man5/bspcost.5
	rm -f $(DESTDIR)$(MANDIR)/man3/bspcost.3 $(DESTDIR)$(INCLUDEDIR)/bspcost.h
	rm -f $(DESTDIR)$(LIBDIR)/libbspcost.a $(DESTDIR)$(LIBDIR)/libbspcost.so \
		$(DESTDIR)$(LIBDIR)/libbspcost.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libbspcost.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/pkgconfig/bspcost.pc
	rm -f $(DESTDIR)$(BINDIR)/bspcost-probe $(DESTDIR)$(MANDIR)/man1/bspcost-probe.1
	rm -f $(patsubst examples/%,$(DESTDIR)$(DATADIR)/examples/%,$(wildcard examples/*.bsp))
	rm -f $(patsubst machines/%,$(DESTDIR)$(DATADIR)/machines/%,$(wildcard machines/*.machine))
	-rmdir $(DESTDIR)$(DATADIR)/examples $(DESTDIR)$(DATADIR)/machines $(DESTDIR)$(DATADIR) 2>/dev/null

clean:
	rm -rf $(O) $(O)-san $(O)-fuzz $(CHECK_LOGS) $(CHECK_LOGS:.log=.rc) $(O).built $(O)-san.built \
		$(foreach j,$(CHECK_TAIL),$(O).lane-$(j)) $(O)-tail.check.log $(O)-tail.check.rc

-include $(DEPS)
