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
# the manuals installed are clean (the library's is new)
for m in man/*.[0-9]; do
	mandoc -T lint -W warning "$m" > "$dir/lint" 2>&1 || { cat "$dir/lint"; fail "mandoc -T lint: $m"; }
done
# the library: its header, archives, pkg-config file and manual
for f in include/bspcost.h lib/libbspcost.a "lib/libbspcost.so.$(cat VERSION)" lib/pkgconfig/bspcost.pc \
	share/man/man3/bspcost.3; do
	[ -f "$dir/root/opt/bsp/$f" ] || fail "make install did not install $f"
done
[ -L "$dir/root/opt/bsp/lib/libbspcost.so" ] || fail "make install did not link libbspcost.so"
# examples/api built as a program outside the tree is: by pkg-config alone
# (its paths under DESTDIR: the sysroot), against the shared library, then
# the static one; its ranking is the command line's (rank, shape, candidate
# and cost of every row)
export PKG_CONFIG_PATH="$dir/root/opt/bsp/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dir/root"
command -v pkg-config > /dev/null || fail "pkg-config is not installed (Debian: pkgconf)"
pkg-config --modversion bspcost > "$dir/out" 2>&1 || fail "pkg-config does not find bspcost"
expect_out "$(cat VERSION)"
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -o "$dir/rank_shapes" examples/api/rank_shapes.c $(pkg-config --cflags --libs bspcost) \
	> "$dir/cc.log" 2>&1 || { cat "$dir/cc.log"; fail "examples/api does not build with pkg-config"; }
# shellcheck disable=SC2046
cc -o "$dir/rank_shapes_static" examples/api/rank_shapes.c $(pkg-config --cflags bspcost) \
	"$dir/root/opt/bsp/lib/libbspcost.a" $(pkg-config --static --libs-only-l bspcost | sed 's/-lbspcost//') \
	> "$dir/cc.log" 2>&1 || { cat "$dir/cc.log"; fail "examples/api does not link statically"; }
machines="$dir/root/opt/bsp/share/bspcost/machines"
"$BIN" -p 8 -D n=256 -D m=256 --machine sp2-switch -f csv examples/stencil2d.bsp > "$dir/cli.csv" ||
	fail "bspcost -p failed"
python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["rank"] or "-", r["shape"], r["candidate"], r["cost"] or r["reason"])' \
	"$dir/cli.csv" > "$dir/cli.rows" || fail "cannot read the CSV ranking"
for prog in rank_shapes rank_shapes_static; do
	LD_LIBRARY_PATH="$dir/root/opt/bsp/lib" BSPCOST_MACHINES="$machines" "$dir/$prog" \
		examples/stencil2d.bsp 8 n=256 m=256 --machine sp2-switch > "$dir/api.out" 2> "$dir/err" ||
		{ cat "$dir/err"; fail "examples/api ($prog) failed"; }
	[ "$(head -n 1 "$dir/api.out")" = "8 processes" ] || fail "$prog: no table of 8 processes"
	awk 'NR > 1 { r = $1; s = $2; c = $3; $1 = $2 = $3 = ""; sub(/^ +/, ""); print r, s, c, $0 }' \
		"$dir/api.out" > "$dir/api.rows"
	[ "$(wc -l < "$dir/api.rows")" -ge 12 ] || fail "$prog: fewer rows than bspcost -p's 12"
	cmp -s "$dir/cli.rows" "$dir/api.rows" ||
		{ diff -u "$dir/cli.rows" "$dir/api.rows" | head -n 20; fail "$prog ranks otherwise than bspcost -p"; }
done
LD_LIBRARY_PATH="$dir/root/opt/bsp/lib" ldd "$dir/rank_shapes" |
	grep -q "libbspcost.so.$(cut -d. -f1 VERSION) => $dir/root" ||
	fail "examples/api is not linked with the installed shared library"
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
