#!/bin/sh
# compare.sh BIN: bspcost (BIN) against the independent brute force bspenum.py,
# on every examples/*.bsp at a few small points.  See compare.py for the
# environment variables (POINTS_LIMIT, MODES, SPECS, TIMEOUT, VERBOSE).
# Ends with `N passed, N failed`; exit status 1 if any case failed.
if [ $# -ne 1 ]; then
	echo "usage: $0 BIN" >&2
	exit 2
fi
here=$(dirname "$0")
exec python3 "$here/compare.py" "$1"
