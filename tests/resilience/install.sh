# make install puts the binary, both manual pages and the examples under
# PREFIX (here in a DESTDIR); the installed binary analyzes an installed
# example; make uninstall leaves nothing behind.
. "$(dirname "$0")/lib.inc"
O=$(dirname "$BIN")
make -s install O="$O" DESTDIR="$dir/root" PREFIX=/opt/bsp > "$dir/make.log" 2>&1 ||
	{ cat "$dir/make.log"; fail "make install failed"; }
for f in bin/bspcost share/man/man1/bspcost.1 share/man/man5/bspcost.5; do
	[ -f "$dir/root/opt/bsp/$f" ] || fail "make install did not install $f"
done
for f in examples/*.bsp; do
	cmp -s "$f" "$dir/root/opt/bsp/share/bspcost/$f" || fail "make install did not install $f"
done
"$dir/root/opt/bsp/bin/bspcost" --check "$dir/root/opt/bsp/share/bspcost/examples/matmul.bsp" \
	> "$dir/out" 2> "$dir/err" || fail "the installed bspcost failed on an installed example"
expect_out "ok: 3 params, grid 2 axes (M, N)"
make -s uninstall O="$O" DESTDIR="$dir/root" PREFIX=/opt/bsp > "$dir/make.log" 2>&1 ||
	{ cat "$dir/make.log"; fail "make uninstall failed"; }
left=$(find "$dir/root" -type f | head -n 5)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -d "$dir/root/opt/bsp/share/bspcost" ] || fail "make uninstall left share/bspcost"
