# --plot never destroys what stands at its paths: a folder (or a FIFO) at
# the picture's path or at its script's is refused, exit 2, and left as it
# was; a symbolic link there is replaced, its target never written; no file
# of the run's own is left behind.  Needs gnuplot (Debian's gnuplot-nox).
. "$(dirname "$0")/lib.inc"
args="-p 4 -D n=64 -D g=1 -D l=10 examples/stencil1d.bsp"
command -v gnuplot > /dev/null 2>&1 || fail "gnuplot is not installed (apt-get install gnuplot-nox)"

mkdir "$dir/d.png"
# shellcheck disable=SC2086
run --plot "$dir/d.png" $args
expect_status 2
expect_err "bspcost: --plot: $dir/d.png is a folder, not a file: nothing written"
[ -d "$dir/d.png" ] || fail "the folder at the picture's path is gone"

mkdir "$dir/e.svg.gp"
# shellcheck disable=SC2086
run --plot "$dir/e.svg" $args
expect_status 2
expect_err "bspcost: --plot: $dir/e.svg.gp is a folder, not a file: nothing written"
[ -d "$dir/e.svg.gp" ] && [ ! -e "$dir/e.svg" ] || fail "the folder at the script's path changed"

mkfifo "$dir/f.svg"
# shellcheck disable=SC2086
run --plot "$dir/f.svg" $args
expect_status 2
expect_err "bspcost: --plot: $dir/f.svg is a special file, not a file: nothing written"
[ -p "$dir/f.svg" ] || fail "the FIFO was replaced"

echo keep > "$dir/target"
ln -s "$dir/target" "$dir/x.png"
ln -s "$dir/target" "$dir/x.png.gp"
# shellcheck disable=SC2086
run --plot "$dir/x.png" $args
expect_status 0
[ "$(cat "$dir/target")" = keep ] || fail "a link's target was written"
[ ! -L "$dir/x.png" ] && [ ! -L "$dir/x.png.gp" ] || fail "the links were not replaced"
head -c 8 "$dir/x.png" | od -An -c | grep -q 'P   N   G' || fail "x.png is no PNG"
# the script alone draws the picture again, at its own path
rm "$dir/x.png"
(cd "$dir" && gnuplot x.png.gp) || fail "the script does not run alone"
[ -s "$dir/x.png" ] || fail "the script alone drew no picture"
files=$(cd "$dir" && ls -A | tr '\n' ' ')
[ "$files" = "d.png e.svg.gp err f.svg out target x.png x.png.gp " ] ||
	fail "files left behind: $files"
exit 0
