# Integers: the largest 64-bit one is fine, a 20-digit one is an error.
. "$(dirname "$0")/lib.inc"
printf 'param n;\ngrid P;\nassume n <= 9223372036854775807;\n' > "$dir/max.bsp"
run --check "$dir/max.bsp"
expect_status 0
printf 'param n;\ngrid P;\nassume n <= 12345678901234567890;\n' > "$dir/big.bsp"
run --check "$dir/big.bsp"
expect_status 1
expect_err "big.bsp:3:13: error: integer constant 12345678901234567890 is too large: integers are limited to 64 bits (at most 9223372036854775807)"
printf 'param n;\ngrid P;\nassume n <= 9223372036854775808;\n' > "$dir/over.bsp"
run --check "$dir/over.bsp"
expect_status 1
expect_err "error: integer constant 9223372036854775808 is too large: integers are limited to 64 bits (at most 9223372036854775807)"
