/* Long LaTeX formulas broken into lines, for the LaTeX report: amsmath's
 * aligned environment, a line per run of terms, continuation lines indented
 * and starting with their operator.  Widths are estimates in the width of a
 * digit (about 5 pt at 10 pt), from the LaTeX text bspcost writes: a
 * fraction is as wide as its wider part, a script 0.7 of its text.
 * tests/resilience/latex_pdflatex.sh compiles reports with pdflatex and
 * fails on an overfull line wider than 10 pt. */
#ifndef BSPCOST_LATEX_BREAK_H
#define BSPCOST_LATEX_BREAK_H

/* The estimated width of the math-mode LaTeX S. */
double latex_width(const char *s);

/* S (math mode) as it is when it fits in WIDTH (or WIDTH <= 0), else as an
 * aligned environment broken before the top-level +, -, \land and \lor that
 * start a new line; a top-level fraction whose numerator is wider than WIDTH
 * becomes \frac{1}{den}\bigl(num\bigr) first, so that the numerator's terms
 * can break.  A term wider than WIDTH stays whole.  Malloc'd; NULL when out
 * of memory. */
char *latex_break(const char *s, double width);

#endif
