# bspcost-probe (probe/, bspcost-probe(1)) on 1 and on 2 ranks, the second
# with --oversubscribe: each writes a profile with a p line per rank count,
# every l, l_us, g, g_us, s and n_half positive, which bspcost reads and
# prices a ranking with.  Nothing here depends on the machine's speed: the
# numbers are only asserted positive and well-formed.  Its usage errors exit 2.
# Without Open MPI (Debian: openmpi-bin libopenmpi-dev, which the README's
# first command installs) it says so and passes; the plain pass only (Open
# MPI's allocations are not LeakSanitizer's business).
. "$(dirname "$0")/lib.inc"
plain_only "the probe is built and run in the plain pass (Open MPI's own allocations)"
PROBE=$(dirname "$BIN")/bspcost-probe
if ! command -v mpicc > /dev/null 2>&1 ||
   ! mpirun --version 2> /dev/null | grep -q 'Open MPI'; then
	echo "skipped: Open MPI is not installed (apt-get install openmpi-bin libopenmpi-dev)"
	exit 0
fi
[ -x "$PROBE" ] || fail "mpicc is installed but $PROBE was not built"
root=
[ "$(id -u)" -ne 0 ] || root=--allow-run-as-root
# ranks waiting in MPI yield the core (the other lane of make check runs);
# no single-copy transfers, which a container without ptrace refuses
OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mpi_yield_when_idle OMPI_MCA_btl_vader_single_copy_mechanism
BSPCOST_MACHINES=${BSPCOST_MACHINES:-$(pwd)/machines}
export BSPCOST_MACHINES

# probe N: the probe on N ranks, its profile in $dir/pN.machine; returns 1
# when the machine was too busy to measure (and no profile is left)
probe() {
	# shellcheck disable=SC2086
	mpirun $root --oversubscribe -np "$1" "$PROBE" -r 3 -t 600 -n here$1 \
		-o "$dir/p$1.machine" < /dev/null > "$dir/out" 2> "$dir/err"
	st=$?
	if [ "$st" -eq 1 ] && grep -q "no profile written; run it again on an idle machine" "$dir/err"; then
		[ ! -e "$dir/p$1.machine" ] || fail "$1 ranks: a profile left behind after exit 1"
		echo "note: $1 ranks: the machine was too busy to measure: $(head -n 1 "$dir/err")"
		return 1
	fi
	expect_status 0
	[ -s "$dir/p$1.machine" ] || fail "$1 ranks: no profile written"
}

# check_profile N: a p line for each of 1 .. N, each number positive
check_profile() {
	f=$dir/p$1.machine
	grep -q "^machine here$1\$" "$f" || fail "$f: no 'machine here$1'"
	grep -q '^# Measured by bspcost-probe .* on .*, [0-9-]* [0-9:]* UTC, '"$1"' MPI ranks' "$f" ||
		fail "$f: no line saying where and when it was measured"
	grep -q '^word    8$' "$f" || fail "$f: no word of 8 bytes"
	awk '$1 == "s" && $2 + 0 > 0 { ok = 1 } END { exit !ok }' "$f" || fail "$f: no positive s"
	for p in $(seq 1 "$1"); do
		line=$(grep "^p $p " "$f") || fail "$f: no line for p = $p"
		for key in l l_us g g_us; do
			echo "$line" | awk -v k="$key" '{ for (i = 3; i < NF; i += 2) if ($i == k && $(i+1) + 0 > 0) ok = 1 }
				END { exit !ok }' || fail "$f: p = $p has no positive $key: $line"
		done
		# n_half where the message times grew as t0 + x/r (else a warning)
		if echo "$line" | grep -q ' n_half '; then
			echo "$line" | grep -q ' n_half [0-9.]*[1-9]' || fail "$f: p = $p has no positive n_half: $line"
		elif [ "$p" -ge 2 ]; then
			grep -q "p $p: no n_half" "$dir/err" || fail "$f: p = $p has no n_half and no warning"
		fi
	done
	[ "$(grep -c '^p ' "$f")" -eq "$1" ] || fail "$f: not one line per p"
}

if probe 1; then
	check_profile 1
	run --machine "$dir/p1.machine" --grid 1 -D n=1024 examples/stencil1d.bsp
	expect_status 0
	expect_out "on here1, p = 1"
	run --machine "$dir/p1.machine" --grid 2 -D n=1024 examples/stencil1d.bsp
	expect_status 2
	expect_err "bspcost: examples/stencil1d.bsp: --machine here1 lists p = 1, not 2 (no value is interpolated)"
fi
# bspcost reads it: the ranking's time is in seconds on it
if probe 2; then
	check_profile 2
	run --machine "$dir/p2.machine" -p 2 -D n=1048576 examples/stencil1d.bsp
	expect_status 0
	expect_out "on here2"
	# LogP's o and L, together, positive, where L came out above 0; then
	# --model logp ranks on it
	line=$(grep '^p 2 ' "$dir/p2.machine")
	if echo "$line" | grep -q ' o '; then
		for key in o L; do
			echo "$line" | awk -v k="$key" '{ for (i = 3; i < NF; i += 2) if ($i == k && $(i+1) + 0 > 0) ok = 1 }
				END { exit !ok }' || fail "p2.machine: p = 2 has no positive $key: $line"
		done
		run --machine "$dir/p2.machine" --model logp -p 2 -D n=1048576 examples/stencil1d.bsp
		expect_status 0
		expect_out "on here2"
	elif echo "$line" | grep -q ' L '; then
		fail "p2.machine: L without o: $line"
	fi
fi

# usage errors, exit 2, and an -o that cannot be opened, exit 1 before
# anything is measured: run as a singleton (one rank without mpirun, which
# takes seconds to end after a rank's failure)
"$PROBE" -r 0 > "$dir/out" 2> "$dir/err"
st=$?
expect_status 2
expect_err "bspcost-probe: bad -r '0': a number of repetitions from 1 to 101"
"$PROBE" -p 2 > "$dir/out" 2> "$dir/err"
st=$?
expect_status 2
expect_err "bspcost-probe: bad -p '2': a number of processes from 1 to 1, the ranks it runs on"
"$PROBE" -x > "$dir/out" 2> "$dir/err"
st=$?
expect_status 2
expect_err "bspcost-probe: unknown argument '-x'"
"$PROBE" -o "$dir/no/such/dir/x.machine" -r 1 -t 20 > "$dir/out" 2> "$dir/err"
st=$?
expect_status 1
expect_err "bspcost-probe: $dir/no/such/dir/x.machine: No such file or directory"
exit 0
