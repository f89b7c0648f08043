#!/bin/sh
# One pass of the bspcost test suite against the build directory $1.
#
# Sections (each case counts once):
#   unit        every cmocka binary $O/tests/test_*, read as TAP
#   oom         $O/tests/oom (make oom): the library's allocations failed one
#               at a time through fourteen questions (tests/oom/oom.c says which
#               and in what order), each to fail with a message or succeed,
#               never crash; read as TAP, one case per question (the plain
#               pass only: sanitized, its leak check after each failure makes
#               it 25 minutes; make oom O=build-san ... runs it, the header
#               of tests/oom/oom.c says how)
#   diag        tests/diag/NAME.bsp: `bspcost --check` must print exactly
#               tests/diag/NAME.err on stderr and exit with NAME.status (default 1)
#   golden      tests/golden/NAME.args: `bspcost ARGS` (stdin from NAME.in if present)
#               must print exactly NAME.out (and NAME.err on stderr, if present)
#               and exit with NAME.status (default 0); a NAME.plain beside it
#               (its reason inside) leaves the case to the plain pass: a run
#               of tens of seconds under the sanitizers whose code the other
#               cases run too
#   resilience  tests/resilience/*.sh: each script exits 0 when its case passes;
#               it gets the binary as $1
#   examples    every examples/*.bsp passes --check, and --print is a fixed point
#   memory      tests/memory/*.sh, as resilience: valgrind over the examples
#   verify      each line of tests/verify.list: `bspcost --verify=6 ARGS` exits 0,
#               checks some points and reports 0 mismatches (2 points under
#               SAN; a line "plain ARGS" in the plain pass only)
#   brute       the values (every size given) and the formulas of every example,
#               at small points that mostly do not divide, against the
#               independent enumerator tests/brute/bspenum.py; each case
#               counts once, and a deliberately broken
#               bspcost (tests/brute/broken.sh) must be caught; and at real
#               sizes (n = 2^40, 65536 processes) the values against the formulas
#               (tests/brute/large.py); and a concrete grid's formulas in the
#               sizes, a loop's totals, at many sizes, and LU's totals on the
#               symbolic square grid at 52 points (tests/brute/grid_formulas.py);
#               and -p's rankings (every shape's
#               values, refusals, order, ranks and ties) against the
#               enumerator (tests/brute/rank.py); and --machine's profiles
#               against Hill et al.'s Table 1, its costs and seconds by hand
#               (tests/brute/machine.py); and --per-process's counts of every
#               process against the enumerator's (tests/brute/per_process.py);
#               and --hierarchy's H(i) and alpha by their definitions from
#               the enumerator's words between processes
#               (tests/brute/hierarchy.py), and the growth of the paper's
#               kernels' (tests/brute/hierarchy_growth.py); and --compare: Niculescu's
#               crossover condition proven, the conditions and values against
#               the enumerator (tests/brute/crossover.py); and the premises of
#               bspcost(1)'s proof that LU's total on an M x N grid has no
#               formula, each run's h against the enumerator and the sums'
#               t^2 coefficient (tests/brute/lu_no_formula.py); the last six in
#               the plain pass
#   modes       brute's comparison in the modes --h sum and --work flops, at
#               a spec's first point (the plain pass only)
#   names       every example and valid test specification with its names
#               replaced by hostile ones (floor, q, e0, n__P, ...; the plain
#               pass), and the examples by long ones (the sanitized pass): the
#               same report, modulo the names (tests/names/rename.py)
#   stress      random valid specifications (tests/stress/gen.py, seeds 1 to
#               $STRESS_COUNT, default 24; make check runs 16, its sanitized pass 6)
#               through tests/stress/stress.py: --check, --verify on the symbolic
#               grid and on a 2 / 2x2 / 2x1x2 grid, and the values of every
#               candidate at 3 small points against tests/brute/bspenum.py; each
#               case counts once.  A refusal with its reason passes and is
#               tallied; so are the known bugs of tests/stress/found/ (a seed
#               listed in tests/stress/known.list fails by one of them).  The
#               figures and the refusals by reason are printed.  Longer batches:
#               `make stress N=300 SEED=1` (see tests/stress/stress.py)
#   messages    --msgs (each superstep's msgs_in, msgs_out, msgs: values, every
#               process's, the symbolic and the concrete grid's formulas) and
#               --model nhalf and logp's costs, against the enumerator's
#               partners per process (tests/brute/messages.py; sanitized,
#               stencil1d, stencil2d and jacobi at one point)
#
# Ends with the line `N passed, N failed`; exit status 1 if anything failed.
# Run one section with TESTS=diag (or unit, golden, resilience, examples, ...).

O=${1:-build}
BIN=$O/bspcost
# --machine NAME finds the profiles of machines/ whatever the build directory
BSPCOST_MACHINES=$(pwd)/machines
export BSPCOST_MACHINES
# The run's deadline (bspcost(1), --timeout): no result here may depend on the
# machine's speed, so the suite's runs get ten times the default, a guard
# against a run without end only; the deadline's own tests give theirs.
BSPCOST_TIMEOUT=${BSPCOST_TIMEOUT:-600}
export BSPCOST_TIMEOUT
TESTS=${TESTS:-unit oom diag golden resilience examples verify brute modes names stress messages memory}
pass=0
fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
# the enumerator's results, kept for the run: the scripts that ask for the
# same point (compare.py's modes and grids, rank.py, ...) enumerate it once
BSPENUM_CACHE=$tmp/bspenum
mkdir "$BSPENUM_CACHE" || exit 2
export BSPENUM_CACHE

ok()     { pass=$((pass + 1)); }
not_ok() { fail=$((fail + 1)); echo "FAIL: $*"; }

run_unit() {
	# test_count_random's sets: 500 of its default 2000 in the plain pass
	# (about 12 s rather than 50), 60 under the sanitizers (SAN=1, about
	# 13 s), the same code; `BSPCOST_RANDOM_SETS=20000 build/tests/test_count_random`
	# for a longer run
	if [ -n "${SAN:-}" ]; then BSPCOST_RANDOM_SETS=${BSPCOST_RANDOM_SETS:-60}; else
		BSPCOST_RANDOM_SETS=${BSPCOST_RANDOM_SETS:-500}; fi
	export BSPCOST_RANDOM_SETS
	for t in "$O"/tests/test_*; do
		[ -x "$t" ] || continue
		run_tap "$t"
	done
}

# A cmocka binary's cases, read as TAP; with a second argument, its figures
# (its comments "# WHAT: ...") said too.
run_tap() {
	CMOCKA_MESSAGE_OUTPUT=TAP "$1" > "$tmp/tap" 2>&1
	st=$?
	p=$(grep -c '^ok ' "$tmp/tap")
	f=$(grep -c '^not ok ' "$tmp/tap")
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$f" -gt 0 ] || [ "$st" -ne 0 ] || [ "$p" -eq 0 ]; then
		[ "$f" -gt 0 ] || fail=$((fail + 1))
		echo "FAIL: $1 (exit $st)"
		grep -v '^ok ' "$tmp/tap" | head -n 40
	elif [ -n "${2:-}" ]; then
		grep '^# [a-z].*: ' "$tmp/tap" | sed 's/^/  /'
	fi
}

run_oom() {
	[ -z "${SAN:-}" ] || return 0
	if [ ! -x "$O/tests/oom" ]; then
		not_ok "$O/tests/oom: not built (make tests builds it)"
		return
	fi
	run_tap "$O/tests/oom" figures
}

run_diag() {
	for f in tests/diag/*.bsp; do
		[ -e "$f" ] || continue
		base=${f%.bsp}
		want=1
		[ -f "$base.status" ] && want=$(cat "$base.status")
		"$BIN" --check "$f" > /dev/null 2> "$tmp/err"
		st=$?
		if [ "$st" -ne "$want" ]; then
			not_ok "$f: exit $st, expected $want"; sed 's/^/  | /' "$tmp/err" | head -n 20
		elif ! diff -u "$base.err" "$tmp/err" > "$tmp/diff"; then
			not_ok "$f: messages differ"; head -n 30 "$tmp/diff"
		else
			ok
		fi
	done
}

run_golden() {
	for a in tests/golden/*.args; do
		[ -e "$a" ] || continue
		base=${a%.args}
		[ -n "${SAN:-}" ] && [ -f "$base.plain" ] && continue
		want=0
		[ -f "$base.status" ] && want=$(cat "$base.status")
		in=/dev/null
		[ -f "$base.in" ] && in=$base.in
		# shellcheck disable=SC2046  # the args file is split like a command line
		eval "set -- $(cat "$a")"
		"$BIN" "$@" < "$in" > "$tmp/out" 2> "$tmp/err"
		st=$?
		if [ "$st" -ne "$want" ]; then
			not_ok "$a: exit $st, expected $want"; sed 's/^/  | /' "$tmp/err" | head -n 20
		elif [ -n "${GOLDEN_UPDATE:-}" ]; then
			# make update-goldens: a format changed on purpose (the exit
			# status is still held; review the diff before committing)
			cmp -s "$base.out" "$tmp/out" || { cp "$tmp/out" "$base.out"; echo "updated $base.out"; }
			[ ! -f "$base.err" ] || cmp -s "$base.err" "$tmp/err" ||
				{ cp "$tmp/err" "$base.err"; echo "updated $base.err"; }
			ok
		elif ! diff -u "$base.out" "$tmp/out" > "$tmp/diff"; then
			not_ok "$a: output differs"; head -n 40 "$tmp/diff"
		elif [ -f "$base.err" ] && ! diff -u "$base.err" "$tmp/err" > "$tmp/diff"; then
			not_ok "$a: messages differ"; head -n 40 "$tmp/diff"
		else
			ok
		fi
	done
}

run_resilience() {
	for s in tests/resilience/*.sh; do
		[ -e "$s" ] || continue
		if sh "$s" "$BIN" > "$tmp/out" 2>&1; then
			ok
		else
			not_ok "$s"; head -n 20 "$tmp/out"
		fi
	done
}

run_memory() {
	for s in tests/memory/*.sh; do
		[ -e "$s" ] || continue
		if sh "$s" "$BIN" > "$tmp/out" 2>&1; then
			ok
		else
			not_ok "$s"; head -n 40 "$tmp/out"
		fi
	done
}

run_examples() {
	for e in examples/*.bsp; do
		[ -e "$e" ] || continue
		if ! "$BIN" --check "$e" > "$tmp/out" 2>&1; then
			not_ok "$e: --check failed"; head -n 20 "$tmp/out"; continue
		fi
		ok
		if "$BIN" --print "$e" > "$tmp/p1.bsp" 2> "$tmp/err" &&
		   "$BIN" --print "$tmp/p1.bsp" > "$tmp/p2.bsp" 2>> "$tmp/err" &&
		   cmp -s "$tmp/p1.bsp" "$tmp/p2.bsp"; then
			ok
		else
			not_ok "$e: --print is not a fixed point"; cat "$tmp/err"
			diff -u "$tmp/p1.bsp" "$tmp/p2.bsp" | head -n 30
		fi
	done
}

run_verify() {
	# 2 points a candidate (97 s of the plain pass at 10, 68 s at 6, alone,
	# at 2821bd8; 180 s at 6 and 113 s at 4 beside the other pass in a slow
	# hour, 82 s at 3 at 305c16a); under the sanitizers (SAN=1) 1 (77 s at
	# 2 beside the other pass): the same code, and the plain pass draws the 2
	points=2
	[ -z "${SAN:-}" ] || points=1
	while IFS= read -r line; do
		case $line in '#'* | '') continue ;; esac
		# "plain ARGS": the plain pass only (tests/verify.list says why)
		case $line in
		'plain '*) [ -z "${SAN:-}" ] || continue; line=${line#plain } ;;
		esac
		# shellcheck disable=SC2086  # the line is split like a command line
		"$BIN" --verify=$points $line > "$tmp/out" 2>&1
		st=$?
		summary=$(grep '^verify: .*values compared' "$tmp/out")
		if [ "$st" -eq 0 ] && echo "$summary" | grep -q ' 0 mismatches$' &&
		   ! echo "$summary" | grep -q ': 0 points'; then
			ok
		else
			not_ok "--verify $line: exit $st"; grep -v '^    ' "$tmp/out" | tail -n 12
		fi
	done < tests/verify.list
	# every bundled example is verified: a new one needs its line
	for e in examples/*.bsp; do
		if grep -v '^#' tests/verify.list | grep -q "\(^\| \)$e\$"; then
			ok
		else
			not_ok "$e is not in tests/verify.list: --verify never checks it"
		fi
	done
}

# Runs a checker that ends with `N passed, N failed` and adds its totals.
run_tally() {
	t0=$(date +%s)
	"$@" > "$tmp/tally" 2>&1
	st=$?
	last=$(tail -n 1 "$tmp/tally")
	# where a section's time goes: one line per script
	echo "#   $(basename "$2")${MODES:+ $MODES}: $last ($(($(date +%s) - t0)) s)"
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		not_ok "$*: no totals (exit $st)"; tail -n 20 "$tmp/tally"
		return
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$f" -ne 0 ] || [ "$st" -ne 0 ]; then
		[ "$f" -gt 0 ] || fail=$((fail + 1))
		echo "FAIL: $*"; grep -v '^  bspenum' "$tmp/tally" | head -n 30
	fi
}

# compare.py's modes --h sum and --work flops at a spec's first point (its
# formulas and its values), in the plain pass only (they change no memory
# handling): a section of its own, which make check runs beside the other
# pass (the plain mode runs in the brute section, at every point)
run_modes() {
	[ -z "${SAN:-}" ] || return 0
	# (not every spec: the SUMMA panel's formulas take 13 s a mode: its
	# --h sum and --work flops are the same split maximum as matmul's and
	# PDGEMM's, whose other modes run; pivots2d's (5 s a mode) the same
	# maxima split by regions as pivots' and lu_rows', which run them; LU's
	# (4 s, 3 s on a square grid) loops as lu_rows', pivots_loop's and
	# work_loop's; stencil3d's (4 s) the maxima by cells as stencil2d's,
	# and so are stencil3d_grid's on three axes (1.6 s a mode); Soviani and
	# Singh's kernels' (gbroadcast, ns_fft, neighbours) a broadcast's, a
	# doubling loop's and a stencil's, as broadcast's, fft's and
	# stencil2d's; stencil_block_size_loop's (3 s a mode)
	# stencil_block_size's maxima; stencil_block_size_both's (15 s a mode)
	# the same counts as stencil_block_size's, with more pieces; lu_blocks's
	# (10 s) LU's loops in the block_size specs' digits)
	SKIP_SPECS=summa_panel,summa_panel_cyclic,pivots2d,lu,lu_square,stencil3d,stencil3d_grid,gbroadcast,ns_fft,neighbours,lu_blocks,stencil_block_size_loop,stencil_block_size_both \
	MODES_POINTS=1 MODES=hsum,flops run_tally python3 tests/brute/compare.py "$BIN"
}

run_brute() {
	# under the sanitizers (SAN=1), no --machine arithmetic, and the first
	# point of a spec (its formulas, and the values at that point): the same
	# code paths, and the plain pass compares every point; the modes --h sum
	# and --work flops are the modes section
	limit=
	grid_limit=
	# (and not the SUMMA panels: 40 s of simplifying formulas sanitized; the
	# maximum split by coordinate runs sanitized in matmul's, PDGEMM's and
	# SUMMA's analyses and in test_count_split; nor LU on a square grid,
	# whose split by a factor's sign runs sanitized in test_count_split and
	# LU's golden loop_lu_per_process on 2 x 2; nor, as PLAIN_ONLY below
	# says, pivots2d's maxima split by regions, LU's loops and stencil3d's
	# maxima by cells, 12, 11 and 7 s sanitized, whose code the other
	# specifications run: pivots', lu_rows' and stencil2d's; nor LU on
	# cyclic(nb), 10 s plain, whose block size as a size runs sanitized
	# in block_size_formulas and period_classes, nor the stencil in blocks
	# of b over both axes, 15 s plain, whose counts stencil_block_size's run
	# sanitized)
	skip=
	# (and, on concrete grids, not quotients for every size on 3 processes
	# (28 s), loops on 3 (17 s) nor pivots2d on 3 x 2 (10 s): the same
	# counting runs sanitized on the other specifications here, in the
	# --all-sizes goldens and in tests/stress's grids of 2 and 2 x 2)
	grid_all_skip=
	grid_skip=
	[ -z "${SAN:-}" ] || { limit=1; grid_limit=1; skip=summa_panel,summa_panel_cyclic,lu_square,gbroadcast,ns_fft,neighbours,pivots2d,lu,stencil3d,lu_blocks,stencil_block_size_both;
		grid_all_skip=quotients; grid_skip=loops,pivots2d; }
	SKIP_SPECS=$skip POINTS_LIMIT=$limit MODES=plain \
		run_tally python3 tests/brute/compare.py "$BIN"
	# the concrete grid's formulas for every size (--all-sizes) of the specs
	# tests/stress found wrong there, and of quotients in subscripts
	POINTS_LIMIT=$grid_limit SKIP_SPECS=$grid_all_skip \
	SPECS=prefix_sum_cyclic,existential_bound,empty_modulo,empty_triangle,parity_union,element_size,quotients MODES=grid_all \
		run_tally python3 tests/brute/compare.py "$BIN"
	# and the symbolic grid's formulas with the axes given their sizes
	# (compared where a point meets their assumptions, 2 divides n), at a
	# spec's first point (each point a grid of its own: its formulas again;
	# tests/brute/grid_formulas.py compares a concrete grid's at many sizes)
	POINTS_LIMIT=1 SKIP_SPECS=$grid_skip SPECS=stencil1d,stencil2d,matmul,summa,jacobi,broadcast,matvec,pivots,pivots2d,triangles,doubling_levels,reduce,stencil3d,loops,cannon,lu_rows,ghost_cells MODES=grid \
		run_tally python3 tests/brute/compare.py "$BIN"
	# real sizes: the values against the formulas, where those apply
	run_tally python3 tests/brute/large.py "$BIN"
	# a concrete grid's formulas in the sizes (a loop's totals) at many sizes
	CASES_LIMIT=$grid_limit run_tally python3 tests/brute/grid_formulas.py "$BIN"
	# -p: every shape of a few small process counts ranked, against the
	# enumerator; --compare: Niculescu's condition proven, the conditions
	# against the enumerator.  Not sanitized: -p's and --compare's code runs
	# under the sanitizers in their goldens, and the sanitized pass must end
	# first, for the fuzzing smoke run to overlap the plain one
	[ -n "${SAN:-}" ] || run_tally python3 tests/brute/rank.py "$BIN"
	[ -n "${SAN:-}" ] || run_tally python3 tests/brute/crossover.py "$BIN"
	# LU on 2 x N: the runs' h and the sums' t^2 coefficient, q(N) + 2/N
	[ -n "${SAN:-}" ] || run_tally python3 tests/brute/lu_no_formula.py "$BIN"
	# --machine: the profiles against Table 1, costs and seconds by hand
	[ -n "${SAN:-}" ] || run_tally python3 tests/brute/machine.py "$BIN"
	[ -n "${SAN:-}" ] || run_tally python3 tests/brute/per_process.py "$BIN"
	# --hierarchy: H(i) and alpha by Soviani and Singh's definitions from
	# the enumerator's words between every pair of processes, every
	# example, three numberings (its code sanitized in the goldens)
	[ -n "${SAN:-}" ] || run_tally python3 tests/brute/hierarchy.py "$BIN"
	# ... and the paper's kernels' H against section 4 on 16 to 4096 processes
	[ -n "${SAN:-}" ] || run_tally python3 tests/brute/hierarchy_growth.py "$BIN"
	# the comparison can fail: one value off by one is found
	if BSPCOST_REAL=$BIN SPECS=stencil1d POINTS_LIMIT=1 FORMULAS=0 \
	   python3 tests/brute/compare.py tests/brute/broken.sh > "$tmp/broken" 2>&1; then
		not_ok "tests/brute/broken.sh: a wrong h_out went unnoticed"
	elif grep -q 'h_out: bspcost' "$tmp/broken"; then
		ok
	else
		not_ok "tests/brute/broken.sh: failed, but not on h_out"; tail -n 5 "$tmp/broken"
	fi
}

run_names() {
	valid=""
	for f in tests/diag/*.bsp; do
		[ "$(cat "${f%.bsp}.status" 2>/dev/null || echo 1)" = 0 ] && valid="$valid $f"
	done
	# under the sanitizers (SAN=1), the long names only, the quick runs only,
	# of the examples but the six slowest; the plain pass the hostile ones,
	# every run, of every specification, and the long names of those six
	# (both passes make one check; the first five took 47 of the sanitized
	# pass's 59 s, 18 s plain; lu_blocks takes 7 s plain)
	slow="examples/stencil3d.bsp examples/stencil2d.bsp examples/lu.bsp examples/matmul.bsp examples/summa.bsp examples/lu_blocks.bsp"
	if [ -n "${SAN:-}" ]; then
		quick=
		for e in examples/*.bsp; do
			case " $slow " in *" $e "*) ;; *) quick="$quick $e" ;; esac
		done
		# shellcheck disable=SC2086
		QUICK=1 SCHEMES= run_tally python3 tests/names/rename.py "$BIN" $quick
		return
	fi
	# shellcheck disable=SC2086
	QUICK=1 SCHEMES= run_tally python3 tests/names/rename.py "$BIN" $slow
	QUICK=; SCHEMES=hostile; export QUICK SCHEMES
	# (every example, the names' own specifications, the weights, the valid
	# diagnostics, and of tests/brute/specs those with what the others lack:
	# negated predicates and pivots; all of them took 95 s in a slow hour)
	# shellcheck disable=SC2086
	run_tally python3 tests/names/rename.py "$BIN" examples/*.bsp tests/names/*.bsp \
		tests/specs/weights.bsp tests/brute/specs/negated_pred.bsp \
		tests/brute/specs/features.bsp tests/brute/specs/condition_quotients.bsp \
		tests/brute/specs/butterflies.bsp tests/brute/specs/pivots.bsp $valid
}

# msgs and the cost functions that price messages against the enumerator
# (tests/brute/messages.py); sanitized, stencil1d, stencil2d and jacobi at one point
run_messages() {
	run_tally python3 tests/brute/messages.py "$BIN"
}

run_stress() {
	run_tally python3 tests/stress/stress.py "$BIN" --seed 1 --count "${STRESS_COUNT:-24}" \
		--timeout 10 --known tests/stress/known.list
	grep -e '^stress: ' -e '^ *[0-9][0-9]*  [a-z]' "$tmp/tally" | sed 's/^/  /'
}

for section in $TESTS; do
	before_p=$pass; before_f=$fail; start=$(date +%s)
	"run_$section"
	echo "# $section: $((pass - before_p)) passed, $((fail - before_f)) failed ($(( $(date +%s) - start )) s)"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
