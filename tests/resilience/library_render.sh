# libbspcost answers as the command line does: the same question asked
# through the library (tests/api/render.c: bspcost_analyze or bspcost_rank,
# then bspcost_*_render in every format) prints the same bytes as
# `bspcost -f FORMAT` with the same options (every format for three
# questions, text and JSON for the others), and fails with the same status
# and messages.  Symbolic and concrete grids, values, loops and
# doubling loops, --assume, a machine, two process counts, each process's
# counts (--per-process), comparisons (--compare), the errors of a
# specification and of a request.
. "$(dirname "$0")/lib.inc"
# the sanitized pass runs the library's paths in test_api; the bytes are
# compared here once
if [ -n "${SAN:-}" ]; then
	echo "skipped under the sanitizers: test_api runs the library there"
	exit 0
fi
O=$(dirname "$BIN")
API=$O/tests/api_render
[ -x "$API" ] || fail "$API is not built (make tests)"
n=0
# one case: the library's arguments (NAME=VALUE for -D), then the CLI's,
# then the formats compared (every one, or text and JSON)
same() {
	api_args=$1
	cli_args=$2
	formats=${3:-text json}
	rm -rf "$dir/api" && mkdir "$dir/api"
	# shellcheck disable=SC2086  # the arguments are split as written
	# (the bundled profiles: the program is not beside machines/)
	BSPCOST_MACHINES=$PWD/machines "$API" "$dir/api" $api_args 2> "$dir/api.err"
	api_st=$?
	for f in $formats; do
		# shellcheck disable=SC2086
		eval "set -- $cli_args"
		"$BIN" -f "$f" "$@" > "$dir/cli.$f" 2> "$dir/cli.err"
		cli_st=$?
		[ "$api_st" -eq "$cli_st" ] ||
			fail "$cli_args: the library's status $api_st, the command line's $cli_st"
		cmp -s "$dir/cli.$f" "$dir/api/$f" || {
			diff -u "$dir/cli.$f" "$dir/api/$f" | head -n 20
			fail "$cli_args -f $f: the library renders other bytes"
		}
		n=$((n + 1))
	done
	# what went wrong, said in the same words (the analysis' messages; the
	# command line's usage errors add their "Try" line)
	if [ "$cli_st" -ne 0 ]; then
		grep -v "^Try 'bspcost --help'" "$dir/cli.err" > "$dir/cli.msg"
		cmp -s "$dir/cli.msg" "$dir/api/message" || {
			diff -u "$dir/cli.msg" "$dir/api/message" | head -n 20
			fail "$cli_args: the library's message differs"
		}
	fi
}
all="text json csv markdown latex"
same "examples/stencil1d.bsp" "examples/stencil1d.bsp" "$all"
same "examples/reduce.bsp" "examples/reduce.bsp"
same "examples/jacobi.bsp" "examples/jacobi.bsp"
same "examples/transpose.bsp n=64 m=32" "-D n=64 -D m=32 examples/transpose.bsp"
same "examples/stencil2d.bsp --grid 2x2" "--grid 2x2 examples/stencil2d.bsp"
same "examples/stencil2d.bsp --assume M==N" "--assume M==N examples/stencil2d.bsp"
same "examples/jacobi.bsp n=64 T=3 P=4 g=2 l=50" "-D n=64 -D T=3 -D P=4 -D g=2 -D l=50 examples/jacobi.bsp" \
	"$all"
same "examples/stencil1d.bsp n=1024 P=8 --machine sp2-switch" \
	"-D n=1024 -D P=8 --machine sp2-switch examples/stencil1d.bsp"
same "examples/matmul.bsp -p 4 -p 6 m=64 n=64 o=64 g=1 l=100" \
	"-p 4,6 -D m=64 -D n=64 -D o=64 -D g=1 -D l=100 examples/matmul.bsp" "$all"
same "examples/stencil2d.bsp -p 8 n=256 m=256 --machine sp2-switch" \
	"-p 8 -D n=256 -D m=256 --machine sp2-switch examples/stencil2d.bsp"
same "examples/stencil2d.bsp -p 16 n=256 m=256 --machine now-p8" \
	"-p 16 -D n=256 -D m=256 --machine now-p8 examples/stencil2d.bsp"
same "examples/stencil2d.bsp -p 8 n=256 m=256" "-p 8 -D n=256 -D m=256 examples/stencil2d.bsp"
# --per-process: each process's counts (no LaTeX report)
same "examples/stencil2d.bsp --per-process n=12 m=10 M=2 N=3" \
	"--per-process -D n=12 -D m=10 -D M=2 -D N=3 examples/stencil2d.bsp" "text json csv markdown"
same "examples/jacobi.bsp --per-process n=32 T=3 P=4" "--per-process -D n=32 -D T=3 -D P=4 examples/jacobi.bsp"
# --compare: where each costs less; at values, the difference term by term
same "examples/stencil1d.bsp --compare d=block d=cyclic" \
	"--compare d=block d=cyclic examples/stencil1d.bsp" "$all"
same "examples/matmul.bsp --compare d0=block,d1=block,d2=block,d3=block d0=cyclic,d1=block,d2=block,d3=block m=64 n=64 o=64 M=2 N=4 g=2 l=100" \
	"--compare d0=block,d1=block,d2=block,d3=block d0=cyclic,d1=block,d2=block,d3=block -D m=64 -D n=64 -D o=64 -D M=2 -D N=4 -D g=2 -D l=100 examples/matmul.bsp"
same "examples/stencil1d.bsp --compare d=block d=nope" "--compare d=block d=nope examples/stencil1d.bsp" text
# failures: a specification with errors, a name it does not have, values
# that break its assumptions
same "tests/diag/axis_twice_named.bsp" "tests/diag/axis_twice_named.bsp" text
same "examples/stencil1d.bsp zz=3" "-D zz=3 examples/stencil1d.bsp" text
same "examples/stencil1d.bsp n=2 P=8" "-D n=2 -D P=8 examples/stencil1d.bsp" text
echo "$n renders compared"
