# On the symbolic grid a block length (m__N, for m/N) is written back as
# extent/axis, case by case of the axis size when a condition ties it to the
# axis (m__N + N >= 4 is m >= 3 where N = 1, and holds where N >= 2): no
# report of an example keeps one, --explain's included.
. "$(dirname "$0")/lib.inc"
# --explain prints every line of the report and its explanations (so on
# every example at cd6b8a7): one run of each example covers both, and a
# failed run fails the test.
plain_only "the goldens write the same block lengths back sanitized (10 s here)"
for spec in examples/*.bsp; do
	run --explain "$spec"
	expect_status 0
	if grep -q '__' "$dir/out"; then
		fail "$spec --explain keeps a block length: $(grep -o '[A-Za-z0-9]*__[A-Za-z0-9]*' "$dir/out" | sort -u | tr '\n' ' ')"
	fi
done
