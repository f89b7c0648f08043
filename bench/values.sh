#!/bin/sh
# Exact values at real sizes (every size and axis given, `--values`): the wall
# time of each example at n = 2^10, 2^16, 2^20, 2^30 (every size parameter set
# to n) on grids of 4, 64, 1024 and 4096 processes, one thread, median of 3;
# then the independent brute-force enumerator (tests/brute/bspenum.py) on the
# same counts at small n, where it finishes, for the ratio.  Figures, not
# assertions: compare the columns of one run, as these machines are noisy.
BIN=${1:?usage: sh bench/values.sh path/to/bspcost}
BRUTE_LIMIT=${BRUTE_LIMIT:-30}
median3() { sort -n | sed -n 2p; }
wall() { # wall ARGS...: milliseconds of one run, or "refused" / "failed"
	s=$(date +%s%N)
	"$BIN" "$@" > "$tmp/out" 2> "$tmp/err"
	st=$?
	e=$(date +%s%N)
	if [ $st -eq 2 ]; then echo "assume"; return; fi
	if [ $st -ne 0 ]; then echo "FAIL"; return; fi
	echo "$s $e" | awk '{ printf "%.1f\n", ($2 - $1) / 1e6 }'
}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# NAME AXES PARAMS: the examples, their number of axes and their sizes
examples='
broadcast 1 n
stencil1d 1 n
stencil2d 2 n,m
transpose 2 m,n
matmul 2 m,n,o
matmul2 2 m,n,o
pdgemm 2 m,n,k
'
# A grid of P processes: P, or the square (or 2:1) shape for two axes, named
# by the specification's own axes.
shape() { # shape AXES P NAMES
	if [ "$1" -eq 1 ]; then
		echo "-D $3=$2"
	else
		a=1
		while [ $((a * a * 2)) -le "$2" ]; do a=$((a * 2)); done
		b=$(($2 / a))
		set -- $(echo "$3" | tr ',' ' ')
		echo "-D $1=$b -D $2=$a"
	fi
}
axes_of() { sed -n 's/^grid *\([^;]*\);.*/\1/p' "examples/$1.bsp" | tr -d ' '; }
defs() { # defs PARAMS VALUE
	for p in $(echo "$1" | tr ',' ' '); do printf -- '-D %s=%s ' "$p" "$2"; done
}

echo "exact values, one thread, milliseconds (median of 3); every size = n"
printf '%-10s %6s' "example" "procs"
for e in 10 16 20 30; do printf ' %9s' "n=2^$e"; done
printf '\n'
echo "$examples" | while read -r name naxes params; do
	[ -n "$name" ] || continue
	for p in 4 64 1024 4096; do
		printf '%-10s %6s' "$name" "$p"
		for e in 10 16 20 30; do
			n=$(echo "2^$e" | bc)
			# shellcheck disable=SC2046  # split on purpose
			t=$(for i in 1 2 3; do
				wall --values -j 1 -f csv $(defs "$params" "$n") \
				     $(shape "$naxes" "$p" "$(axes_of "$name")") -D g=4 -D l=1000 \
				     "examples/$name.bsp"
			    done | median3)
			printf ' %9s' "$t"
		done
		printf '\n'
	done
done
echo "(assume: the sizes break the specification's assumptions there)"

echo
echo "the same counts by brute-force enumeration (tests/brute/bspenum.py), 4 processes,"
echo "against the values (--values, one thread); limit ${BRUTE_LIMIT} s"
printf '%-10s %6s %12s %12s %9s\n' "example" "n" "brute ms" "values ms" "ratio"
echo "$examples" | while read -r name naxes params; do
	[ -n "$name" ] || continue
	for n in 64 1024 65536; do
		# shellcheck disable=SC2046
		set -- $(defs "$params" "$n") $(shape "$naxes" 4 "$(axes_of "$name")") -D g=4 -D l=1000
		v=$(for i in 1 2 3; do wall --values -j 1 -f csv "$@" "examples/$name.bsp"; done | median3)
		s=$(date +%s%N)
		if timeout "$BRUTE_LIMIT" python3 tests/brute/bspenum.py "$@" "examples/$name.bsp" \
			> /dev/null 2>&1; then
			e=$(date +%s%N)
			b=$(echo "$s $e" | awk '{ printf "%.0f", ($2 - $1) / 1e6 }')
			r=$(echo "$b $v" | awk '{ if ($2 > 0) printf "%.0fx", $1 / $2; else print "-" }')
		else
			b="> ${BRUTE_LIMIT}000"
			r="-"
		fi
		printf '%-10s %6s %12s %12s %9s\n' "$name" "$n" "$b" "$v" "$r"
	done
done
echo "(> limit: the enumeration did not finish; it grows with n (one axis) to n^3, the values do not)"

echo
echo "targets (issue 9), default threads, milliseconds (median of 3)"
target() { # target LABEL ARGS...
	label=$1
	shift
	t=$(for i in 1 2 3; do wall --values -f csv -D g=4 -D l=1000 "$@"; done | median3)
	printf '%-58s %9s\n' "$label" "$t"
}
for n in 1024 1048576; do
	target "matmul, 16 candidates, m=n=o=$n on 4x4" \
		-D m=$n -D n=$n -D o=$n -D M=4 -D N=4 examples/matmul.bsp
done
for P in 65536; do
	target "stencil1d, 2 candidates, n=2^40, P=$P" -D n=1099511627776 -D P=$P examples/stencil1d.bsp
	target "broadcast, 2 candidates, n=2^40, P=$P" -D n=1099511627776 -D P=$P examples/broadcast.bsp
done
for s in 2x2 2x4 4x4 4x8 8x8; do
	M=${s%x*} N=${s#*x}
	target "pdgemm, m=n=k=2048 on $s" -D m=2048 -D n=2048 -D k=2048 -D M=$M -D N=$N \
		examples/pdgemm.bsp
done
# every shape of 4096 processes that the assumptions (n >= 2M, m >= 2N) allow
M=2
while [ $M -le 2048 ]; do
	N=$((4096 / M))
	target "stencil2d, 4 candidates, n=m=4096 on ${M}x${N}" \
		-D n=4096 -D m=4096 -D M=$M -D N=$N examples/stencil2d.bsp
	M=$((M * 2))
done
# -p and sweeps (issue 10): every shape of the count, every candidate, at every point
echo "rankings (issue 10), default threads, milliseconds (one run each)"
rank() { # rank LABEL ARGS...
	label=$1
	shift
	printf '%-58s %9s\n' "$label" "$(wall -f csv "$@")"
}
rank "-p 4096 stencil2d, n=m=4096 (13 shapes x 4)" \
	-p 4096 -D n=4096 -D m=4096 -D g=4 -D l=100 examples/stencil2d.bsp
rank "-p 4096 matmul, m=n=o=4096 (13 shapes x 16)" \
	-p 4096 -D m=4096 -D n=4096 -D o=4096 -D g=4 -D l=100 examples/matmul.bsp
rank "-p 65536 stencil2d, m=65536, n=1024..131072*2 (8 points)" \
	--timeout 600 -p 65536 -D n=1024..131072*2 -D m=65536 -D g=4 -D l=100 examples/stencil2d.bsp
rank "-p 64 matmul, m=o=4096, n=512..4096*2 (4 points)" \
	-p 64 -D n=512..4096*2 -D m=4096 -D o=4096 -D g=4 -D l=100 examples/matmul.bsp
