#!/bin/sh
# Adds up the `N passed, N failed` lines of the given logs into one such line.
awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++ }
     END { if (n == 0) { print "0 passed, 1 failed"; exit 1 }
           printf "%d passed, %d failed\n", p, f; exit (f > 0) }' "$@"
