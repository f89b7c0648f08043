#!/bin/sh
# --format markdown renders as GitHub Flavored Markdown (tests/render/md_cells.py):
# every table row has the header's number of cells, no code span is cut, and
# formulas with '||' come out whole.  Over every example, symbolic and with
# values, candidates with no formula, values that break a formula's
# assumption, a machine, and -p's ranking.  Needs cmark-gfm (Debian's
# cmark-gfm package, which the README's first command installs).  Under the
# sanitizers (SAN=1) it passes at once: the goldens run the Markdown code
# there, and rendering adds nothing a sanitizer could see.
BIN=$1
command -v cmark-gfm > /dev/null 2>&1 || {
	echo "cmark-gfm is not installed (apt-get install cmark-gfm): the Markdown cannot be rendered"
	exit 1
}
if [ -n "${SAN:-}" ]; then
	echo "skipped under the sanitizers: the plain pass renders the reports"
	exit 0
fi
BSPCOST_MACHINES=${BSPCOST_MACHINES:-$(pwd)/machines}
export BSPCOST_MACHINES
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
check() { # check NAME [--code TEXT]... -- BSPCOST-ARGS...
	name=$1; shift
	codes=""
	while [ "$1" != "--" ]; do codes="$codes $1"; shift; done
	shift
	"$BIN" --format markdown "$@" > "$tmp/$name.md" 2> "$tmp/err"
	st=$?
	# exit 1: some candidate has no formula, which the report says
	[ "$st" -le 1 ] || { echo "$name: bspcost exit $st"; cat "$tmp/err"; fail=1; return; }
	n=$((n + 1))
	# shellcheck disable=SC2086  # the --code pairs, each formula one word
	eval "python3 tests/render/md_cells.py \"\$tmp/\$name.md\" $codes" || fail=1
}
# (every example but matmul's and stencil3d's, the longest to analyze, whose
# tables are the same cells as stencil2d's, both compiled in LaTeX; and
# lu_blocks's, 20 s, whose cells, a loop's sums refused and one run's
# formulas kept, are lu's)
for e in examples/*.bsp; do
	case $e in examples/matmul.bsp | examples/stencil3d.bsp | examples/lu_blocks.bsp) continue ;; esac
	check "$(basename "$e" .bsp)" -- "$e"
done
check stencil1d_values -- -D n=1001 -D P=4 -D g=5/2 -D l=100 examples/stencil1d.bsp
check stencil1d_machine -- --machine sp2-switch -D n=1001 -D P=4 examples/stencil1d.bsp
check matmul_values -- -D m=64 -D n=64 -D o=64 -D M=2 -D N=2 -D g=1 -D l=1 examples/matmul.bsp
check transpose_values -- -D m=64 -D n=64 -D M=2 -D N=2 examples/transpose.bsp
check offset_2_31 --code "'n*(P-1)/P if 2147483647*P >= n; 2147483648*P - 2147483648 if (n >= 2147483648*P && P >= 2) || P == 1'" \
	-- tests/specs/bounds/offset_2_31.bsp
check element_size -- -D n=8 -D m=6 -D M=2 -D N=2 tests/brute/specs/element_size.bsp
check rank_stencil1d -- -p 16 -D n=1000 -D g=4 -D l=50 examples/stencil1d.bsp
check rank_machine -- -p 4 --machine sp2-switch -D n=1000 examples/stencil1d.bsp
check every_machine -- -p 16 -D m=1024 -D n=1024 examples/stencil2d.bsp
check every_machine_gl -- -p 8 -D m=128 -D n=128 -D k=256 examples/pdgemm.bsp
check sweep -- -p 16 -D n=64..256*2 -D m=64 -D g=4 -D l=50 examples/stencil2d.bsp
check per_process -- --per-process -D M=2 -D N=3 -D n=12 -D m=10 examples/stencil2d.bsp
check hierarchy_formulas --code "'max(floor(m/2)*(n-floor(n/2)), floor(n/2)*(m-floor(m/2)))'" \
	-- --hierarchy --all-sizes --grid 2x2 --numbering morton examples/transpose.bsp
echo "$n reports rendered"
exit $fail
