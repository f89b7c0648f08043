# A specification or a machine profile that is no regular file (a FIFO, whose
# open() would wait for a writer forever; /dev/zero, which never ends) is
# refused at once with the reason, never read.  Standard input stays
# allowed (-).  `timeout` turns a hang into a failure.
. "$(dirname "$0")/lib.inc"
mkfifo "$dir/spec.bsp" "$dir/here.machine" || fail "mkfifo"
expect_refused() {   # expect_refused WHAT STATUS MESSAGE ARGS...
	what=$1 want=$2 msg=$3
	shift 3
	timeout 20 "$BIN" "$@" > "$dir/out" 2> "$dir/err"
	st=$?
	[ "$st" -ne 124 ] || fail "$what: still waiting after 20 s"
	expect_status "$want"
	expect_err "$msg"
}
expect_refused "a FIFO as the spec" 1 \
	"$dir/spec.bsp: error: is not a regular file (a FIFO, a device or a socket): give a file, or - and standard input" \
	"$dir/spec.bsp"
expect_refused "/dev/zero as the spec" 1 \
	"/dev/zero: error: is not a regular file (a FIFO, a device or a socket)" /dev/zero
expect_refused "a FIFO as the machine" 2 \
	"$dir/here.machine: error: is not a regular file (a FIFO, a device or a socket)" \
	--machine "$dir/here.machine" -D n=8 -D P=2 examples/stencil1d.bsp
expect_refused "/dev/zero as the machine" 2 \
	"/dev/zero: error: is not a regular file (a FIFO, a device or a socket)" \
	--machine /dev/zero -p 2 -D n=8 examples/stencil1d.bsp
# standard input, a pipe, is read as before
timeout 20 "$BIN" --check - < examples/stencil1d.bsp > "$dir/out" 2> "$dir/err"
st=$?
expect_status 0
exit 0
