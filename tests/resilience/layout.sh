#!/bin/sh
# The layout is the data flow: each folder of analyzer/ includes only the
# folders before it (the machines before the decisions, which price rows on
# them; the runs, then the library's interface over them, then the command
# line), and no source file is over 1000 lines without saying why
# at its top (a line "Why this file is long:" in its first 40 lines).
# Exits 0 when both hold; prints every offence otherwise.
cd "$(dirname "$0")/../.." || exit 1
rank() {
	case $1 in
	grammar) echo 0 ;; analyzer/util) echo 1 ;; analyzer/check) echo 2 ;;
	analyzer/machine) echo 7 ;;
	distributions) echo 3 ;; analyzer/model) echo 4 ;; analyzer/count) echo 5 ;;
	analyzer/formula) echo 5 ;; analyzer/cost) echo 6 ;; analyzer/decide) echo 8 ;;
	analyzer/report) echo 9 ;; analyzer/run) echo 10 ;; analyzer/api) echo 11 ;;
	cli) echo 12 ;; .) echo 13 ;; *) echo 99 ;;
	esac
}
bad=0
for f in $(git ls-files 'grammar/*.[chly]' 'analyzer/*.[ch]' 'distributions/*.[ch]' 'cli/*.[ch]' main.c); do
	dir=$(dirname "$f")
	r=$(rank "$dir")
	if [ "$r" = 99 ]; then
		echo "$f: in no phase folder"; bad=1; continue
	fi
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		idir=$(dirname "$inc")
		case $inc in
		parser.h|lexer.h) idir=grammar ;;
		esac
		ir=$(rank "$idir")
		if [ "$ir" -gt "$r" ] || { [ "$ir" = "$r" ] && [ "$idir" != "$dir" ]; }; then
			echo "$f includes $inc: $idir does not come before $dir"; bad=1
		fi
	done
	n=$(wc -l < "$f")
	if [ "$n" -gt 1000 ] && ! head -n 40 "$f" | grep -q "Why this file is long:"; then
		echo "$f: $n lines and no 'Why this file is long:' at its top"; bad=1
	fi
done
exit $bad
