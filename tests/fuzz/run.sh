#!/bin/sh
# Builds the libFuzzer harnesses and runs them: make fuzz and make fuzz-smoke.
#
#   sh tests/fuzz/run.sh BUILD CC FLAGS MODE SECONDS
#
# BUILD is the fuzzing build directory (build-fuzz), CC a clang, FLAGS the
# CFLAGS of every object (the Makefile's FUZZ_FLAGS).  The seed corpus is
# gathered into BUILD/corpus/seeds from the specifications the tests already
# keep (examples, tests/diag, tests/specs, tests/brute/specs) and from
# tests/fuzz/corpus, which holds only what those lack.
#
# MODE long (make fuzz): each harness for SECONDS, from the seeds and what
#   earlier long runs found (BUILD/corpus/NAME, kept between runs).
# MODE smoke (make fuzz-smoke, part of make check): first every file of
#   tests/fuzz/regressions/NAME replayed once through harness NAME, then each
#   harness for SECONDS from the seeds alone (each seed runs once first) with a
#   fixed seed, so that every run tries the same inputs in the same order (a
#   slower machine tries fewer of them).  fuzz_analyze's seeds there leave out
#   examples/ and tests/brute/specs/: make check's sanitized pass analyzes
#   those itself (goldens, brute force, names), and through the harness they
#   took 195 of its 233 s of seeds (pivots2d 72 s, stencil3d and lu 25 s).
#   It fails only on a finding: a crash, a sanitizer report, a leak, a broken
#   property of the harness, or one input that runs longer
#   than the -timeout below; never because the machine is slow.
#
# One process per harness (one core: the machine is shared).  Crashing inputs
# are saved in BUILD/artifacts/.  Ends with `N passed, N failed`.

BUILD=${1:?usage: run.sh BUILD CC FLAGS long|smoke SECONDS}
CC=$2
FLAGS=$3
MODE=$4
SECONDS_EACH=$5
MAKE=${MAKE:-make}

# Longest input and longest single execution, per harness.  An analysis has
# per-candidate time limits of one second (fuzz_analyze.c); a minute is far
# beyond any input that honours them, even under the sanitizers on a busy
# machine.
max_len_check=4096
max_len_analyze=2048
timeout_check=10
timeout_analyze=60

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# A clang that links -fsanitize=fuzzer, or a clear skip: nothing is installed
# here (.ci/run installs clang for CI).
printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }\n' \
	> "$tmp/probe.c"
if ! command -v "$CC" > /dev/null 2>&1; then
	echo "fuzz: skipped: $CC not found (Debian: apt-get install clang)"
	echo "0 passed, 0 failed"
	exit 0
fi
if ! "$CC" -fsanitize=fuzzer,address,undefined -o "$tmp/probe" "$tmp/probe.c" > "$tmp/probe.log" 2>&1; then
	echo "fuzz: skipped: $CC cannot link -fsanitize=fuzzer (Debian: apt-get install clang libclang-rt-dev)"
	sed 's/^/  | /' "$tmp/probe.log" | head -n 5
	echo "0 passed, 0 failed"
	exit 0
fi

echo "fuzz: building the harnesses in $BUILD with $CC"
if ! $MAKE --no-print-directory fuzz-bins O="$BUILD" CC="$CC" CFLAGS="$FLAGS" > "$tmp/build.log" 2>&1; then
	tail -n 30 "$tmp/build.log"
	echo "FAIL: building the fuzzing harnesses"
	echo "0 passed, 1 failed"
	exit 1
fi

seeds=$BUILD/corpus/seeds
rm -rf "$seeds" "$seeds-light"
mkdir -p "$seeds" "$seeds-light" "$BUILD/artifacts"
for f in examples/*.bsp tests/diag/*.bsp tests/specs/*.bsp tests/brute/specs/*.bsp tests/fuzz/corpus/*; do
	[ -f "$f" ] || continue
	# one flat directory: the origin in the name keeps tests/diag/x.bsp and
	# examples/x.bsp apart
	cp "$f" "$seeds/$(echo "$f" | tr / _)"
	case $f in
	examples/* | tests/brute/specs/*) ;;
	*) cp "$f" "$seeds-light/$(echo "$f" | tr / _)" ;;
	esac
done

pass=0
fail=0
ok()     { pass=$((pass + 1)); }
not_ok() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run_fuzzer NAME ARGS...: runs harness NAME; its log in $tmp/NAME.log.
run_fuzzer() {
	name=$1
	shift
	eval "max_len=\$max_len_$name timeout=\$timeout_$name"
	"$BUILD/fuzz/fuzz_$name" -dict=tests/fuzz/bsp.dict -max_len="$max_len" \
		-timeout="$timeout" -rss_limit_mb=2048 -artifact_prefix="$BUILD/artifacts/$name-" \
		"$@" > "$tmp/$name.log" 2>&1
}

# The log's last lines after a failure; libFuzzer's statistics after a run.
show_failure() { grep -v '^#[0-9]' "$tmp/$1.log" | tail -n 40 | sed 's/^/  | /'; }
show_stats() {
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$1.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$tmp/$1.log")
	echo "fuzz: $1: $execs executions, $rate/s (the seeds run first, however long they take)"
}

for name in check analyze; do
	if [ "$MODE" = smoke ]; then
		for r in tests/fuzz/regressions/"$name"/*; do
			[ -f "$r" ] || continue
			if run_fuzzer "$name" "$r"; then
				ok
			else
				not_ok "fuzz_$name: $r"; show_failure "$name"
			fi
		done
		mkdir -p "$tmp/corpus-$name"
		from=$seeds
		[ "$name" = check ] || from=$seeds-light
		set -- "$tmp/corpus-$name" "$from" -seed=1
	else
		mkdir -p "$BUILD/corpus/$name"
		set -- "$BUILD/corpus/$name" "$seeds"
	fi
	echo "fuzz: fuzz_$name for $SECONDS_EACH s"
	if run_fuzzer "$name" -max_total_time="$SECONDS_EACH" -print_final_stats=1 "$@"; then
		ok
		show_stats "$name"
	else
		not_ok "fuzz_$name found a failing input (saved in $BUILD/artifacts/)"
		show_failure "$name"
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
