# The report does not depend on the number of threads: one, two and more
# threads than candidates print the same bytes (with --verify, whose points
# each candidate draws on its own).
. "$(dirname "$0")/lib.inc"
for f in examples/matmul.bsp examples/stencil1d.bsp examples/broadcast.bsp; do
	run -j 1 --verify=3 --format json "$f"
	expect_status 0
	mv "$dir/out" "$dir/one"
	for j in 2 7; do
		run -j "$j" --verify=3 --format json "$f"
		expect_status 0
		cmp -s "$dir/one" "$dir/out" || fail "$f: -j $j differs from -j 1"
	done
done
run -j 0 examples/matmul2.bsp
expect_status 2
expect_err "bad --jobs '0': expected a number of threads, 1 to 256"
