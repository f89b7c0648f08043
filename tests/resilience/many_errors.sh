# A flood of errors stops after 50 with a note saying so.
. "$(dirname "$0")/lib.inc"
awk 'BEGIN { for (i = 0; i < 1000; i++) print "@ $ ?" }' > "$dir/flood.bsp"
run --check "$dir/flood.bsp"
expect_status 1
[ "$(grep -c ': error: ' "$dir/err")" -eq 50 ] || fail "not exactly 50 errors"
expect_err "flood.bsp: too many errors (more than 50); stopping"
