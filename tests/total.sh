#!/bin/sh
# Adds up the `N passed, N failed` lines of the given logs into one such line;
# a log that is missing (its job never ran) counts as one failure.
missing=0
logs=
for f in "$@"; do
	if [ -r "$f" ]; then logs="$logs $f"; else echo "no log: $f"; missing=$((missing + 1)); fi
done
# shellcheck disable=SC2086  # the logs' names, one word each
awk -v missing="$missing" '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++ }
     END { f += missing
           if (n == 0) { print "0 passed, " (f > 0 ? f : 1) " failed"; exit 1 }
           printf "%d passed, %d failed\n", p, f; exit (f > 0) }' $logs /dev/null
