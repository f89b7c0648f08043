#!/bin/sh
# usage: latex_overfull.sh FRAGMENT.tex [--pages]
# Compiles a bspcost LaTeX report (a fragment) in an article with amsmath, by
# pdflatex; fails on an error, on a line more than 10 pt too wide (an
# "Overfull \hbox" of the log) or, with --pages, on a box taller than the
# page (an "Overfull \vbox"), and prints the worst overflow.
frag=$1
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
cp "$frag" "$dir/report.tex" || exit 2
cat > "$dir/doc.tex" <<'TEX'
\documentclass{article}
\usepackage{amsmath}
\begin{document}
\input{report}
\end{document}
TEX
if ! (cd "$dir" && pdflatex -interaction=nonstopmode -halt-on-error doc.tex) > "$dir/out" 2>&1; then
	echo "$frag: pdflatex failed:"
	grep -A3 '^!' "$dir/doc.log" | head -n 12
	exit 1
fi
# with --pages, a box taller than the page (a table that cannot break) drops
# what overflows: an error (the analysis's long align* lines still make such
# boxes: not yet asked of them)
if [ "${2:-}" = --pages ] && grep -q '^Overfull \\vbox' "$dir/doc.log"; then
	echo "$frag: a box is taller than the page:"
	grep '^Overfull \\vbox' "$dir/doc.log" | head -n 3
	exit 1
fi
worst=$(sed -n 's/^Overfull \\hbox (\([0-9.]*\)pt too wide).*/\1/p' "$dir/doc.log" | sort -n | tail -n 1)
pages=$(sed -n 's/^Output written on doc.pdf (\([0-9]*\) page.*/\1/p' "$dir/doc.log")
if [ -n "$worst" ] && awk -v w="$worst" 'BEGIN { exit !(w > 10) }'; then
	echo "$frag: a line is ${worst}pt too wide:"
	grep -A2 '^Overfull \\hbox' "$dir/doc.log" | head -n 12
	exit 1
fi
echo "$frag: $pages pages, widest overflow ${worst:-0}pt"
