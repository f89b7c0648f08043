# -p and the paper's remark (Niculescu, Example 1): for matmul with
# m = n = o, the square grid ranks first when p is a square (every candidate
# ties there: h = (m*o*(N-1) + n*o*(M-1))/(M*N) is least at M = N), and when
# p is twice a square the two shapes nearest it tie (4x8 and 8x4 for 32).
# The report does not depend on -j.
. "$(dirname "$0")/lib.inc"
plain_only "rank_matmul_top ranks matmul sanitized, with its ties (12 s here)"

sizes="-D m=4096 -D n=4096 -D o=4096 -D g=4 -D l=100"
# shape of every rank-1 row of each table, one "P: shapes" line per table
firsts() {
	awk '/ processes?, / { p = $2 } $1 == "1" || $1 == "1=" { s[p] = s[p] " " $3 }
	     END { for (p in s) print p ":" s[p] }' "$dir/out" | sort -n
}
# shapes of the first rows, each once
uniq_shapes() { tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/^ *//; s/ *$//'; }

# shellcheck disable=SC2086
run -p 4..64*4 $sizes examples/matmul.bsp
expect_status 0
for pair in 4:2x2 16:4x4 64:8x8; do
	p=${pair%%:*}
	want=${pair#*:}
	got=$(firsts | sed -n "s/^$p: //p" | uniq_shapes)
	[ "$got" = "$want" ] || fail "-p $p: rank 1 on '$got', expected $want alone"
	n=$(firsts | sed -n "s/^$p: //p" | wc -w)
	[ "$n" -eq 16 ] || fail "-p $p: $n rows at rank 1, expected the 16 candidates"
done
expect_out "best: cost 1088421988, a tie of 16 rows: shape 8x8; every candidate"

# twice a square: the two nearest shapes tie
# shellcheck disable=SC2086
run -p 32 $sizes examples/matmul.bsp
expect_status 0
got=$(firsts | sed -n 's/^32: //p' | uniq_shapes)
[ "$got" = "4x8 8x4" ] || fail "-p 32: rank 1 on '$got', expected 4x8 and 8x4"
expect_out "a tie of 32 rows: shapes 4x8, 8x4; every candidate"

# the same ranking whatever the number of threads
# shellcheck disable=SC2086
run -j 1 -p 16 $sizes examples/matmul.bsp
cp "$dir/out" "$dir/one"
# shellcheck disable=SC2086
run -j 3 -p 16 $sizes examples/matmul.bsp
cmp -s "$dir/out" "$dir/one" || fail "-j 3 gives another ranking than -j 1"
