# --plot under the run's deadline: a gnuplot that never finishes (a stand-in
# that sleeps, and starts a sleeping child, first on PATH) is killed with
# its process group when --timeout passes; the run says
# so, exits 1 as a run the deadline stopped does, and leaves no picture and
# no temporary file, only the script.  Nothing here measures time: without
# the deadline the stand-in would sleep for ten minutes (timeout(1) ends
# such a regression after 60 s, with status 124).
. "$(dirname "$0")/lib.inc"
unset BSPCOST_TIMEOUT
mkdir "$dir/bin" "$dir/p"
printf '#!/bin/sh\nsleep 600 &\necho $! > "%s/child"\necho $$ > "%s/pid"\nexec sleep 600\n' \
	"$dir" "$dir" > "$dir/bin/gnuplot"
chmod +x "$dir/bin/gnuplot"
PATH="$dir/bin:$PATH" timeout 60 "$BIN" --timeout 2 --plot "$dir/p/r.svg" -p 4 -D n=64 -D g=1 \
	-D l=10 examples/stencil1d.bsp > "$dir/out" 2> "$dir/err"
st=$?
expect_status 1
expect_err "bspcost: --plot: gnuplot did not finish within the run's time limit of 2 s: no $dir/p/r.svg (its script: $dir/p/r.svg.gp)"
expect_out "best"
files=$(cd "$dir/p" && ls -A | tr '\n' ' ')
[ "$files" = "r.svg.gp " ] || fail "files left: $files"
# the stand-in was killed, and what it started, not left sleeping
[ -s "$dir/pid" ] && [ -s "$dir/child" ] || fail "the stand-in gnuplot did not run"
# running: a process that is neither gone nor a zombie (whose reaping is
# up to the machine's init)
running() {
	case $(ps -o stat= -p "$1" 2> /dev/null) in "" | Z*) return 1 ;; esac
}
sleep 1 # the signal's delivery to the child
running "$(cat "$dir/pid")" && fail "gnuplot is still running"
running "$(cat "$dir/child")" && fail "gnuplot's child is still running"
exit 0
