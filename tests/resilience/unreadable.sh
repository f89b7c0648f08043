# A path that does not exist, and (when not running as root) a file that
# cannot be read; the other files are still checked.
. "$(dirname "$0")/lib.inc"
printf 'param n;\ngrid P;\n' > "$dir/good.bsp"
run --check "$dir/missing.bsp" "$dir/good.bsp"
expect_status 1
expect_err "$dir/missing.bsp: error: No such file or directory"
expect_out "good.bsp: ok:"
if [ "$(id -u)" -ne 0 ]; then
	printf 'param n;\ngrid P;\n' > "$dir/secret.bsp"
	chmod 000 "$dir/secret.bsp"
	run --check "$dir/secret.bsp"
	expect_status 1
	expect_err "bspcost: $dir/secret.bsp: Permission denied"
fi
