# A NUL byte: one clear error at its position, exit 1.
. "$(dirname "$0")/lib.inc"
printf 'param n;\ngrid \000P;\n' > "$dir/nul.bsp"
run --check "$dir/nul.bsp"
expect_status 1
expect_err "nul.bsp:2:6: error: NUL byte in the input: a specification is text"
[ "$(grep -c 'error:' "$dir/err")" -eq 1 ] || fail "more than one error"
