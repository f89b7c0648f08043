#!/bin/sh
# --hierarchy (Soviani and Singh's H(i)): wall time and peak memory of
# examples/stencil2d.bsp's four candidates on grids of 2^k processes, at
# values (each level counted once with the clusters' coordinates symbolic,
# then read at each cluster) against H(i)'s formulas in the sizes (each
# cluster counted on its own: 2^(k+1) - 2 of them); and -p 16 ranking every
# shape, numbering and candidate by the D-BSP cost.  Figures, not
# assertions: compare the columns of one run, as these machines are noisy.
BIN=${1:?usage: sh bench/hierarchy.sh path/to/bspcost}
run() { # run ARGS...: "seconds peak-KB" of one run
	/usr/bin/time -f '%e %M' "$BIN" "$@" 2>&1 > /dev/null | tail -n 1
}
printf '%-24s %12s %12s %14s %12s\n' "stencil2d, grid" "values s" "values KB" "formulas s" \
	"formulas KB"
for g in 2x4 4x4 8x4 8x8; do
	set -- $(run --hierarchy --grid "$g" -D n=256 -D m=256 examples/stencil2d.bsp)
	vs=$1 vk=$2
	set -- $(run --hierarchy --grid "$g" examples/stencil2d.bsp)
	printf '%-24s %12s %12s %14s %12s\n' "$g" "$vs" "$vk" "$1" "$2"
done
for g in 16x16 64x64; do
	set -- $(run --hierarchy --grid "$g" -D n=1024 -D m=1024 examples/stencil2d.bsp)
	printf '%-24s %12s %12s %14s %12s\n' "$g" "$1" "$2" "-" "-"
done
set -- $(run -p 16 --hierarchy --topology pruned-butterfly -D n=32 -D m=32 examples/stencil2d.bsp)
printf '%-50s %8s s %10s KB\n' "-p 16 --hierarchy --topology pruned-butterfly" "$1" "$2"
