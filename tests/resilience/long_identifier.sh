# A 1 MB identifier works; in messages it is cut short.
. "$(dirname "$0")/lib.inc"
name=$(awk 'BEGIN { for (i = 0; i < 1048576; i++) printf "a" }')
printf 'param %s;\ngrid P;\n' "$name" > "$dir/long.bsp"
run --check "$dir/long.bsp"
expect_status 0
expect_out "long.bsp: ok: 1 param, grid 1 axis (P)"
printf 'param %s, %s;\ngrid P;\n' "$name" "$name" > "$dir/twice.bsp"
run --check "$dir/twice.bsp"
expect_status 1
expect_err "twice.bsp:1:1048585: error: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is already declared"
size=$(wc -c < "$dir/err")
[ "$size" -lt 4000 ] || fail "messages of $size bytes for a long name"
