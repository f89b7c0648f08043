# make install puts the binary (and bspcost-probe, when built), the manual pages and the examples under
# PREFIX (here in a DESTDIR); the installed binary analyzes an installed
# example; make uninstall leaves nothing behind.
. "$(dirname "$0")/lib.inc"
# under the sanitizers (SAN=1) nothing here runs bspcost's code differently:
# the plain pass installs
if [ -n "${SAN:-}" ]; then
	echo "skipped under the sanitizers: the plain pass installs"
	exit 0
fi
O=$(dirname "$BIN")
make -s install O="$O" DESTDIR="$dir/root" PREFIX=/opt/bsp > "$dir/make.log" 2>&1 ||
	{ cat "$dir/make.log"; fail "make install failed"; }
for f in bin/bspcost share/man/man1/bspcost.1 share/man/man5/bspcost.5; do
	[ -f "$dir/root/opt/bsp/$f" ] || fail "make install did not install $f"
done
# the probe beside it, when built (mpicc found)
if [ -x "$O/bspcost-probe" ]; then
	for f in bin/bspcost-probe share/man/man1/bspcost-probe.1; do
		[ -f "$dir/root/opt/bsp/$f" ] || fail "make install did not install $f"
	done
fi
for f in examples/*.bsp machines/*.machine; do
	cmp -s "$f" "$dir/root/opt/bsp/share/bspcost/$f" || fail "make install did not install $f"
done
"$dir/root/opt/bsp/bin/bspcost" --check "$dir/root/opt/bsp/share/bspcost/examples/matmul.bsp" \
	> "$dir/out" 2> "$dir/err" || fail "the installed bspcost failed on an installed example"
expect_out "ok: 3 params, grid 2 axes (M, N)"
# machines/ beside the binary's directory is found without BSPCOST_MACHINES
mkdir -p "$dir/tree/build" && cp "$BIN" "$dir/tree/build/" && cp -r machines "$dir/tree/" &&
	cp examples/stencil1d.bsp "$dir/tree/" || fail "cannot copy the tree"
BSPCOST_MACHINES= "$dir/tree/build/bspcost" --machine sp2-switch --grid 8 -D n=1024 \
	"$dir/tree/stencil1d.bsp" > "$dir/out" 2> "$dir/err" || fail "machines/ beside the binary not found"
expect_out "time = 21849/65000000 s (~0.0003361 s) on sp2-switch, p = 8"
make -s uninstall O="$O" DESTDIR="$dir/root" PREFIX=/opt/bsp > "$dir/make.log" 2>&1 ||
	{ cat "$dir/make.log"; fail "make uninstall failed"; }
left=$(find "$dir/root" -type f | head -n 5)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -d "$dir/root/opt/bsp/share/bspcost" ] || fail "make uninstall left share/bspcost"
