#!/bin/sh
# The analysis of each example (and of a SUMMA panel at an offset, whose
# maximum over the processes splits by coordinate): median wall time of 3
# runs on one thread and on the default number of threads (one per
# processor), and peak memory
# (with GNU time, when installed).  Figures, not assertions: compare the
# columns of one run, as these machines are noisy.
BIN=${1:?usage: sh bench/examples.sh path/to/bspcost}
median3() { sort -n | sed -n 2p; }
wall() { # wall ARGS...: seconds of one run
	s=$(date +%s.%N)
	"$BIN" "$@" > /dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.3f\n", $2 - $1 }'
}
printf '%-34s %8s %8s %9s\n' "example" "-j 1 s" "-j N s" "peak MiB"
for args in examples/broadcast.bsp examples/matmul.bsp examples/matmul2.bsp \
	    examples/stencil1d.bsp examples/stencil2d.bsp examples/transpose.bsp examples/fft.bsp \
	    "--grid 8 examples/stencil1d.bsp" "--grid 2x3 examples/stencil2d.bsp" \
	    tests/brute/specs/summa_panel.bsp; do
	# shellcheck disable=SC2086  # split on purpose
	one=$(for i in 1 2 3; do wall -j 1 $args; done | median3)
	# shellcheck disable=SC2086
	all=$(for i in 1 2 3; do wall $args; done | median3)
	rss=-
	if [ -x /usr/bin/time ]; then
		# shellcheck disable=SC2086
		rss=$(/usr/bin/time -f %M "$BIN" $args 2>&1 > /dev/null | tail -n 1 |
			awk '{ printf "%.1f", $1 / 1024 }')
	fi
	printf '%-34s %8s %8s %9s\n' "$args" "$one" "$all" "$rss"
done
# The slow ones, one run each on the default number of threads, on the
# symbolic grid: SUMMA's panel step with cyclic rows and block columns (one
# of the four layouts of shared/targets/summa.bsp) and the whole SUMMA loop.
for args in tests/brute/specs/summa_panel_cyclic.bsp examples/summa.bsp; do
	# shellcheck disable=SC2086  # split on purpose
	printf '%-34s %8s %8s %9s\n' "$args" - "$(wall --timeout 0 $args)" -
done
# Every example and every spec of ../shared/targets (when it is there) on
# the symbolic grid, --summary, one run each on the default number of
# threads: issue 26 asks each under 2 s.
printf '\n%-34s %8s\n' "symbolic grid, --summary" "s"
for f in examples/*.bsp ../shared/targets/*.bsp; do
	[ -f "$f" ] || continue
	printf '%-34s %8s\n' "$f" "$(wall --timeout 0 --summary "$f")"
done
# Concrete grids with the sizes left free (issue 24's targets): the symbolic
# grid's formulas with the axes given their sizes, against --all-sizes (each
# process counted, formulas for every size; capped at 120 s, "-" past it).
# One run each, default threads: compare the columns of one run.
printf '\n%-34s %8s %12s\n' "concrete grid" "s" "--all-sizes s"
for args in "--grid 4x4 examples/matmul.bsp" "--grid 8x8 examples/matmul.bsp" \
	    "--grid 4x4 examples/stencil2d.bsp" "--grid 8x8 examples/stencil2d.bsp" \
	    "--grid 3x3 examples/pdgemm.bsp" "--grid 4x4 examples/pdgemm.bsp" \
	    "--grid 64 examples/stencil1d.bsp" \
	    "--grid 64x64 examples/stencil2d.bsp"; do
	# shellcheck disable=SC2086  # split on purpose
	fast=$(wall --timeout 120 $args)
	case $args in
	*8x8*|*64*) slow=- ;;   # minutes, or refused past the process limit
	# shellcheck disable=SC2086
	*) slow=$(wall --timeout 120 --all-sizes $args) ;;
	esac
	printf '%-34s %8s %12s\n' "$args" "$fast" "$slow"
done
echo "($(getconf _NPROCESSORS_ONLN) processors)"
