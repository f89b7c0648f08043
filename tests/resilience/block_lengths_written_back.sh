# On the symbolic grid a block length (m__N, for m/N) is written back as
# extent/axis, case by case of the axis size when a condition ties it to the
# axis (m__N + N >= 4 is m >= 3 where N = 1, and holds where N >= 2): no
# report of an example keeps one, --explain's included; but a refused
# candidate's formulas of one run of a loop whose runs have no sum (LU's
# update), where a condition compares a digit of the loop's variable with
# the block length (n__M >= k_Mi + 2: no affine condition once n/M is
# written), keep it, defined among the candidate's assumptions (checked).
. "$(dirname "$0")/lib.inc"
# --explain prints every line of the report and its explanations (so on
# every example at cd6b8a7): one run of each example covers both, and a
# failed run fails the test.
plain_only "the goldens write the same block lengths back sanitized (10 s here)"
for spec in examples/*.bsp; do
	run --explain "$spec"
	expect_status 0
	# the refused candidates' formulas (from "its supersteps' formulas" to
	# the next candidate) apart: each block length they keep is defined
	awk '/^candidate /{kept=0} /^  its supersteps. formulas/{kept=1}
	     {print > (kept ? "'"$dir/kept"'" : "'"$dir/rest"'")}' "$dir/out"
	touch "$dir/kept" "$dir/rest"
	if grep -q '__' "$dir/rest"; then
		fail "$spec --explain keeps a block length: $(grep -o '[A-Za-z0-9]*__[A-Za-z0-9]*' "$dir/rest" | sort -u | tr '\n' ' ')"
	fi
	for b in $(grep -o '[A-Za-z0-9]*__[A-Za-z0-9]*' "$dir/kept" | sort -u); do
		grep -q "^  assuming $b = " "$dir/kept" ||
			fail "$spec --explain keeps block length $b undefined"
	done
	rm -f "$dir/kept" "$dir/rest"
done
