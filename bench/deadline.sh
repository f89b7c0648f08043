#!/bin/sh
# The run's deadline (--timeout S): how long after S each kind of run stops.
# Each case runs for minutes without the deadline; the figure is the wall
# time from start to exit, S included (bspcost(1): "within a fraction of a
# second in practice").  Figures only: nothing here passes or fails on time.
BIN=${1:-build/bspcost}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM

awk 'BEGIN {
	printf "param p0"; for (i = 1; i < 400; i++) printf ", p%d", i; print ";"
	print "grid P;"
	for (i = 0; i < 400; i++) printf "array A%d[p%d];\n", i, i
	for (i = 0; i < 400; i++) printf "layout A%d : block over P;\n", i
	print "superstep s {"
	for (i = 0; i < 400; i++) printf "  forall i < p%d - 1 : A%d[i] = A%d[i + 1];\n", i, i, i
	print "}"
}' > "$dir/wide.bsp"
set='[n, m] -> { [i, j, k] : 0 <= i, j, k <= n'
c=1
while [ $c -le 40 ]; do
	set="$set and ($c*i + j - k <= n + $c or $((c % 7 + 1))*i - $((c % 5 + 1))*j >= m - $c)"
	c=$((c + 1))
done
set="$set }"

now() { date +%s.%N; }
case_() {
	name=$1
	shift
	t0=$(now)
	"$BIN" "$@" > /dev/null 2>&1
	st=$?
	t1=$(now)
	printf '%-46s limit %s s  stopped after %6.2f s  (exit %d)\n' "$name" "$S" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$st"
}
for S in 2 10; do
	case_ "analysis: stencil2d --grid 256x256" --timeout $S --grid 256x256 examples/stencil2d.bsp
	case_ "analysis: timeout-overshoot.bsp 2x2x3" --timeout $S -f json --grid 2x2x3 \
		-D n=6 -D g=3 -D l=11 tests/stress/found/timeout-overshoot.bsp
	case_ "--verify=100000: stencil1d" --timeout $S --verify=100000 examples/stencil1d.bsp
	case_ "--check: 400 parameters" --timeout $S --check "$dir/wide.bsp"
	case_ "--count: 40 disjunctions" --timeout $S --count "$set"
done
