#!/bin/sh
# `make bench`: run every benchmark built in $1 (the build directory).
O=${1:-build}
status=0
for b in "$O"/bench/*; do
	[ -x "$b" ] || continue
	echo "== $(basename "$b")"
	"$b" || status=1
done
echo "== examples"
sh bench/examples.sh "$O/bspcost" || status=1
echo "== values at real sizes"
sh bench/values.sh "$O/bspcost" || status=1
echo "== decisions at scale (-p up to 65536, every row counted)"
sh bench/decisions.sh "$O/bspcost" || status=1
echo "== loops of supersteps"
sh bench/loops.sh "$O/bspcost" || status=1
echo "== the cluster hierarchy (--hierarchy)"
sh bench/hierarchy.sh "$O/bspcost" || status=1
echo "== the run's deadline"
sh bench/deadline.sh "$O/bspcost" || status=1
exit $status
