#!/bin/sh
# Loops of supersteps (examples/lu.bsp, examples/jacobi.bsp): wall time with
# every value given, the loop's variable a parameter: the maxima over the
# processes counted once at the values (cost_loop_maxima); the values alone
# (--values: no formulas, the symbolic grid's being most of the first
# column); against every process counted on its own (what --per-process
# takes, its table aside), and against the same loop counted iteration by iteration (the body wrapped in
# a loop of one run, which the fast paths do not take: nested loops are
# counted one iteration at a time); the symbolic sums; LU's -p 64 and -p 4096
# decisions; cyclic(nb) against a literal block size; Cannon on 8x8.
# Figures, not assertions: compare the columns of one run, as these machines
# are noisy.
BIN=${1:?usage: sh bench/loops.sh path/to/bspcost}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
wall() { # wall ARGS...: seconds of one run
	s=$(date +%s.%N)
	"$BIN" "$@" > /dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.2f\n", $2 - $1 }'
}
# LU with its loop nested in a loop of one run: counted iteration by iteration
sed 's/^for k < n - 1 {/for z < 1 { for k < n - 1 {/; $ s/^}$/} }/' examples/lu.bsp > "$tmp/lu_each.bsp"
printf '%-28s %9s %9s %12s %8s %14s %8s\n' "LU, 4 candidates, grid 8x8" "maxima s" "values s" \
	"each proc s" "ratio" "by iteration s" "ratio"
for n in 64 256 1024 4096 65536; do
	a=$(wall --grid 8x8 -D n=$n -D g=4 -D l=1000 examples/lu.bsp)
	v=$(wall --values --grid 8x8 -D n=$n -D g=4 -D l=1000 examples/lu.bsp)
	p=$(wall --per-process --grid 8x8 -D n=$n -D g=4 -D l=1000 examples/lu.bsp)
	rp=$(echo "$a $p" | awk '{ printf "%.1f", $2 / $1 }')
	if [ "$n" -le 256 ]; then
		b=$(wall --grid 8x8 -D n=$n -D g=4 -D l=1000 "$tmp/lu_each.bsp")
		r=$(echo "$a $b" | awk '{ printf "%.1f", $2 / $1 }')
	else
		b="(skipped)"; r=-
	fi
	printf '%-28s %9s %9s %12s %8s %14s %8s\n' "n = $n" "$a" "$v" "$p" "$rp" "$b" "$r"
done
printf '%-40s %10s\n' "Jacobi, symbolic grid (T sweeps summed)" "$(wall examples/jacobi.bsp)"
printf '%-40s %10s\n' "Jacobi, --grid 64, n = 2^20, T = 10^6" \
	"$(wall --grid 64 -D n=1048576 -D T=1000000 -D g=4 -D l=1000 examples/jacobi.bsp)"
printf '%-40s %10s\n' "LU -p 64, n = 4096 (7 shapes)" \
	"$(wall -p 64 -D n=4096 -D g=4 -D l=20000 examples/lu.bsp)"
printf '%-40s %10s\n' "LU -p 4096, n = 4096 (13 shapes)" \
	"$(wall -p 4096 -D n=4096 -D g=4 -D l=20000 examples/lu.bsp)"
# cyclic(nb): the block size a size, counted at values by k like a literal one
sed 's/cyclic(nb)/cyclic(16)/g; s/^param n, nb;/param n;/; s/, nb >= 1;/;/' examples/lu_blocks.bsp > "$tmp/lu16.bsp"
printf '%-40s %10s %14s\n' "LU block-cyclic 16, grid 4x4, n = 512" "cyclic(nb) s" "cyclic(16) s"
printf '%-40s %10s %14s\n' "" "$(wall --grid 4x4 -D n=512 -D nb=16 -D g=4 -D l=1000 examples/lu_blocks.bsp)" \
	"$(wall --grid 4x4 -D n=512 -D g=4 -D l=1000 "$tmp/lu16.bsp")"
printf '%-40s %10s\n' "Cannon against broadcast, --grid 8x8" "$(wall --grid 8x8 examples/cannon.bsp)"
echo "($(getconf _NPROCESSORS_ONLN) processors)"
