#!/bin/sh
# The decision path at scale (issue: every row counted, the right winner):
#   - every example (and every spec of ../shared/targets when it is there)
#     ranked with -p at 4, 64, 4096 and 65536 processes at sizes that fit
#     65536 processes: how many rows were refused, and the wall time;
#   - the 3-D sweep at -p 4096, stencil2d at -p 65536 over 8 sizes,
#     --per-process on 32 x 32.
# Figures, not assertions (exit 1 only when a row is refused or a run fails
# for another reason than the assumptions): compare the columns of one run.
BIN=${1:?usage: sh bench/decisions.sh path/to/bspcost}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0
ms() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.0f", (e - s) / 1e6 }'; }
# timed ARGS...: runs BIN, prints "MS REFUSED" (rows refused or failed)
timed() {
	s=$(date +%s%N)
	"$BIN" -f json "$@" > "$tmp/out" 2> "$tmp/err"
	st=$?
	e=$(date +%s%N)
	r=$(python3 -c '
import json, sys
text, dec, i, n = open(sys.argv[1]).read(), json.JSONDecoder(), 0, 0
while text[i:].strip():
    while text[i].isspace():
        i += 1
    obj, i = dec.raw_decode(text, i)
    for p in obj["points"]:
        n += sum(1 for r in p.get("refused", []) if r["status"] != "outside")
print(n)' "$tmp/out" 2>/dev/null || echo "?")
	echo "$(ms "$s" "$e") $r $st"
}
# NAME FILE SIZES: sizes that every shape of up to 65536 processes can take
specs="
broadcast examples/broadcast.bsp -D n=1048576
stencil1d examples/stencil1d.bsp -D n=1048576
stencil2d examples/stencil2d.bsp -D n=131072 -D m=131072
stencil3d examples/stencil3d.bsp -D nx=131072 -D ny=131072 -D nz=64
transpose examples/transpose.bsp -D m=65536 -D n=65536
matmul examples/matmul.bsp -D m=65536 -D n=65536 -D o=65536
matmul2 examples/matmul2.bsp -D m=131072 -D n=131072 -D o=131072
matmul_variants examples/matmul_variants.bsp -D m=131072 -D n=131072 -D o=131072
matmul_replicated examples/matmul_replicated.bsp -D m=65536 -D n=65536 -D o=65536
matvec examples/matvec.bsp -D m=65536 -D n=65536
pdgemm examples/pdgemm.bsp -D m=2097152 -D n=2097152 -D k=2097152
"
T=../shared/targets
[ -d "$T" ] && specs="$specs
alltoall_hist $T/alltoall_hist.bsp -D nb=1048576
fft_transpose $T/fft_transpose.bsp -D n1=65536 -D n2=65536
lu_step $T/lu_step.bsp -D n=65536 -D k0=1000
matvec_rep $T/matvec_rep.bsp -D m=65536 -D n=65536
samplesort $T/samplesort.bsp -D k=1048576
summa $T/summa.bsp -D m=65536 -D n=65536 -D o=65536 -D kk=1024 -D b=256
"
echo "-p P with g = 4, l = 1000: wall ms / rows refused (exit status)"
printf '%-18s %14s %14s %14s %14s\n' spec 4 64 4096 65536
echo "$specs" | while read -r name file defs; do
	[ -n "$name" ] || continue
	printf '%-18s' "$name"
	for p in 4 64 4096 65536; do
		# shellcheck disable=SC2086
		set -- $(timed --timeout 120 -p "$p" $defs -D g=4 -D l=1000 "$file")
		printf ' %14s' "$1/$2 ($3)"
		[ "$2" = 0 ] || echo "refused" > "$tmp/bad"
	done
	printf '\n'
done
[ -f "$tmp/bad" ] && status=1
echo
# whole algorithms (loops of supersteps) at the sizes of their decisions,
# 4 and 64 processes (4096 and more: iteration by iteration, minutes)
loops="
lu examples/lu.bsp -D n=4096
lu_blocks examples/lu_blocks.bsp -D n=4096 -D nb=32
summa examples/summa.bsp -D m=4096 -D n=4096 -D k=4096
jacobi examples/jacobi.bsp -D n=1048576 -D T=100
cannon examples/cannon.bsp -D b=64
reduce examples/reduce.bsp
fft examples/fft.bsp -D m=65536
"
echo "loops: -p P with g = 4, l = 1000: wall ms / rows refused (exit status)"
printf '%-18s %14s %14s\n' spec 4 64
echo "$loops" | while read -r name file defs; do
	[ -n "$name" ] || continue
	printf '%-18s' "$name"
	for p in 4 64; do
		# shellcheck disable=SC2086
		set -- $(timed --timeout 120 -p "$p" $defs -D g=4 -D l=1000 "$file")
		printf ' %14s' "$1/$2 ($3)"
	done
	printf '\n'
done
echo
echo "the 3-D sweep, stencil2d over 8 sizes, --per-process: wall ms / rows refused"
set -- $(timed -p 4096 -D nx=512 -D ny=512 -D nz=512 -D g=4 -D l=1000 examples/stencil3d.bsp)
echo "stencil3d -p 4096 (512^3):             $1 ms, $2 refused, best $(grep -o '"rank": 1, [^}]*' "$tmp/out" | head -1 | grep -o '"shape": \[[0-9, ]*\]' ) $(grep -o '"rank": 1, "tie": [a-z]*, "candidate": "[^"]*"' "$tmp/out" | head -1 | sed 's/.*candidate": //')"
set -- $(timed -p 65536 -D n=1024..131072*2 -D m=65536 -D g=4 -D l=1000 examples/stencil2d.bsp)
echo "stencil2d -p 65536, n = 2^10..2^17:    $1 ms, $2 refused"
s=$(date +%s%N)
"$BIN" --per-process -D n=1024 -D m=1024 -D M=32 -D N=32 -D g=4 -D l=100 examples/stencil2d.bsp > /dev/null 2>&1
e=$(date +%s%N)
echo "stencil2d --per-process on 32 x 32:     $(ms "$s" "$e") ms"
exit $status
