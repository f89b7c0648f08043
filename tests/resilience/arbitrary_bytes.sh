# Arbitrary bytes (no NUL): errors, at most 50 of them, exit 1, no crash.
. "$(dirname "$0")/lib.inc"
i=0
while [ $i -lt 5 ]; do
	head -c 4096 /dev/urandom | tr -d '\000' > "$dir/junk$i.bsp"
	run --check "$dir/junk$i.bsp"
	expect_status 1
	expect_err "junk$i.bsp:"
	expect_err ": error: "
	n=$(grep -c ': error: ' "$dir/err")
	[ "$n" -le 50 ] || fail "$n errors reported, at most 50 expected"
	i=$((i + 1))
done
# printable junk too: tokens that make no sense together
awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) printf "%c", 32 + int(rand() * 95); print "" }' > "$dir/ascii.bsp"
run --check "$dir/ascii.bsp"
expect_status 1
expect_err "ascii.bsp:1:"
