/* The results of the other commands: --check's summary line, --count's
 * formula and value, and --verify's summary.  Like the analysis reports,
 * everything a command prints as its result goes through here. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/report.h"
#include "analyzer/util/text.h"

char *report_number(const mpq_t q)
{
	if (mpz_cmp_ui(mpq_denref(q), 1) == 0)
		return mpz_get_str(NULL, 10, mpq_numref(q));
	/* a decimal exactly when the denominator is 2^a * 5^b */
	mpz_t d, f;
	mpz_inits(d, f, NULL);
	mpz_set(d, mpq_denref(q));
	mpz_set_ui(f, 2);
	unsigned long a = mpz_remove(d, d, f);
	mpz_set_ui(f, 5);
	unsigned long b = mpz_remove(d, d, f);
	char *text = NULL;
	if (mpz_cmp_ui(d, 1) != 0) {
		text = mpq_get_str(NULL, 10, q);
	} else {
		unsigned long k = a > b ? a : b; /* the digits after the point, >= 1 */
		mpz_ui_pow_ui(f, 10, k);
		mpz_mul(f, f, mpq_numref(q));
		mpz_divexact(f, f, mpq_denref(q)); /* Q * 10^k, an integer */
		bool neg = mpz_sgn(f) < 0;
		mpz_abs(f, f);
		char *digits = mpz_get_str(NULL, 10, f);
		size_t n = digits ? strlen(digits) : 0;
		size_t pad = n < k + 1 ? k + 1 - n : 0; /* a digit before the point */
		text = digits ? malloc((size_t)neg + pad + n + 2) : NULL;
		if (text) {
			char *p = text;
			if (neg)
				*p++ = '-';
			size_t total = pad + n;
			for (size_t i = 0; i < total; i++) {
				if (i == total - k)
					*p++ = '.';
				*p++ = i < pad ? '0' : digits[i - pad];
			}
			*p = '\0';
		}
		free(digits);
	}
	mpz_clears(d, f, NULL);
	return text;
}

/* *OUT = 10^E (E may be negative), exactly. */
static void pow10_q(mpq_t out, long e)
{
	mpz_ui_pow_ui(mpq_numref(out), 10, (unsigned long)(e < 0 ? -e : e));
	mpz_set_ui(mpq_denref(out), 1);
	if (e < 0)
		mpq_inv(out, out);
}

char *report_number_digits(const mpq_t q, int digits)
{
	char *exact = report_number(q);
	if (digits <= 0 || !exact || mpz_cmp_ui(mpq_denref(q), 1) == 0)
		return exact;
	/* a decimal of at most DIGITS significant digits stays as it is */
	if (!strchr(exact, '/')) {
		int sig = 0;
		bool leading = true;
		for (const char *p = exact; *p; p++)
			if (*p >= '0' && *p <= '9' && !(leading && *p == '0')) {
				leading = false;
				sig++;
			}
		if (sig <= digits)
			return exact;
	}
	free(exact);
	/* rounded exactly, half away from zero: E with 10^E <= |Q| < 10^(E+1),
	 * then round(|Q| * 10^(DIGITS-1-E)) / 10^(DIGITS-1-E) */
	mpq_t a, t;
	mpz_t r;
	mpq_inits(a, t, NULL);
	mpz_init(r);
	mpq_abs(a, q);
	long e = (long)mpz_sizeinbase(mpq_numref(a), 10) - (long)mpz_sizeinbase(mpq_denref(a), 10);
	for (pow10_q(t, e); mpq_cmp(t, a) > 0; pow10_q(t, --e))
		;
	for (pow10_q(t, e + 1); mpq_cmp(t, a) <= 0; pow10_q(t, ++e + 1))
		;
	pow10_q(t, digits - 1 - e);
	mpq_mul(a, a, t);
	mpz_mul_ui(r, mpq_numref(a), 2); /* floor(a + 1/2) = floor((2num + den) / 2den) */
	mpz_add(r, r, mpq_denref(a));
	mpz_mul_ui(mpq_denref(a), mpq_denref(a), 2);
	mpz_fdiv_q(r, r, mpq_denref(a));
	mpq_set_z(a, r);
	mpq_div(a, a, t);
	if (mpq_sgn(q) < 0)
		mpq_neg(a, a);
	char *digits_text = report_number(a);
	char *text = digits_text ? malloc(strlen(digits_text) + 2) : NULL;
	if (text) {
		text[0] = '~';
		strcpy(text + 1, digits_text);
	}
	free(digits_text);
	mpz_clear(r);
	mpq_clears(a, t, NULL);
	return text;
}

char *report_rounded(const mpq_t q)
{
	char *exact = report_number(q);
	bool is_short = exact && !strchr(exact, '/') && strlen(exact) <= 10;
	free(exact);
	if (is_short)
		return NULL;
	mpf_t f;
	mpf_init2(f, 128);
	mpf_set_q(f, q);
	char buf[64];
	gmp_snprintf(buf, sizeof(buf), "~%.4Fg", f);
	mpf_clear(f);
	return strdup(buf);
}

void report_param_value(FILE *out, const struct param_value *pv, bool json)
{
	mpq_t q;
	mpq_init(q);
	param_value_get(q, pv);
	char *s = report_number(q);
	if (json && pv->den > 1)
		report_json_string(out, s ? s : "");
	else
		fputs(s ? s : "", out);
	free(s);
	mpq_clear(q);
}

void report_aligned_row(FILE *out, const char *const cell[], const size_t width[],
			const bool left[], int ncols)
{
	int last = ncols - 1;
	while (last >= 0 && !cell[last])
		last--;
	for (int c = 0, first = 1; c <= last; c++) {
		if (!cell[c])
			continue;
		int pad = (int)(width[c] - strlen(cell[c]));
		if (!first)
			fputs("  ", out);
		first = 0;
		if (!left[c])
			fprintf(out, "%*s", pad, "");
		fputs(cell[c], out);
		if (left[c] && c < last)
			fprintf(out, "%*s", pad, "");
	}
	fputs("\n", out);
}

void report_csv_field(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void report_json_number_text(FILE *out, const char *s)
{
	if (!s)
		fputs("null", out);
	else if (strchr(s, '/') || strchr(s, '.'))
		report_json_string(out, s);
	else
		fputs(s, out);
}

void report_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void report_check_summary(FILE *out, const char *name, const struct checked_spec *cs)
{
	fprintf(out, "%s: ok: %d %s, grid %d %s (", name, cs->nsizes, plural(cs->nsizes, "param", "params"),
		cs->naxes, plural(cs->naxes, "axis", "axes"));
	for (int i = 0; i < cs->naxes; i++)
		fprintf(out, "%s%s", i ? ", " : "", cs->axes[i]->name);
	fprintf(out, "), %d %s, %d %s, %d %s", cs->narrays, plural(cs->narrays, "array", "arrays"),
		cs->ncandidates, plural(cs->ncandidates, "candidate", "candidates"), cs->nsupersteps,
		plural(cs->nsupersteps, "superstep", "supersteps"));
	int nloops = cs->ast ? cs->ast->nloops : 0;
	if (nloops > 0)
		fprintf(out, ", %d %s", nloops, plural(nloops, "loop", "loops"));
	fputc('\n', out);
}

void report_count(FILE *out, bool json, const char *formula, const char *value)
{
	if (json) {
		fputs("{\"formula\": ", out);
		report_json_string(out, formula);
		fprintf(out, ", \"value\": %s}\n", value ? value : "null");
		return;
	}
	fprintf(out, "count: %s\n", formula);
	if (value)
		fprintf(out, "value: %s\n", value);
}

void report_verify_candidate(FILE *out, const char *cand, const char *what)
{
	fprintf(out, "verify: %s: %s\n", cand, what);
}

void report_verify_points(FILE *out, const char *cand, int points)
{
	fprintf(out, "verify: %s: %d point%s checked\n", cand, points, points == 1 ? "" : "s");
}

void report_verify_total(FILE *out, const char *file, int points, int checks, int mismatches)
{
	fprintf(out, "verify: %s: %d points, %d values compared, %d mismatch%s\n", file, points,
		checks, mismatches, mismatches == 1 ? "" : "es");
}

void report_error(FILE *err, const char *what, const char *fmt, ...)
{
	fputs("bspcost: ", err);
	if (what)
		fprintf(err, "%s: ", what);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
}

int report_text_error(FILE *err, const char *what, struct text *t, int status)
{
	char *msg = t->f ? text_close(t) : NULL;
	if (!msg) {
		report_error(err, what, "out of memory");
		return 1;
	}
	report_error(err, what, "%s", msg);
	free(msg);
	return status;
}

void report_file_error(FILE *err, const char *file, int line, const char *fmt, ...)
{
	if (line > 0)
		fprintf(err, "%s:%d: error: ", file, line);
	else
		fprintf(err, "%s: error: ", file);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
}

void report_deadline(FILE *out, const char *what, double seconds, int finished, int total,
		     int verify_cut)
{
	fprintf(out, "bspcost: %s: the run's time limit of %g s ran out (--timeout S to change "
		     "it, 0 for none)", what, seconds);
	if (total > 0 && finished < total)
		fprintf(out, ": %d of %d candidate%s finished; the others are reported without "
			     "their costs", finished, total, total == 1 ? "" : "s");
	if (verify_cut > 0)
		fprintf(out, "%s --verify stopped early for %d candidate%s",
			total > 0 && finished < total ? ";" : ":", verify_cut,
			verify_cut == 1 ? "" : "s");
	fputc('\n', out);
}

void report_progress(FILE *out, const char *what, int done, int total, double seconds,
		     double left)
{
	fprintf(out, "\rbspcost: %d of %d %s done, %.0f s", done, total, what, seconds);
	if (left >= 0)
		fprintf(out, ", about %.0f s left", left);
	fputs("\033[K", out);   /* the rest of the line, from a longer one */
	fflush(out);
}

void report_progress_end(FILE *out)
{
	fputs("\r\033[K", out);
	fflush(out);
}

void report_deadline_shares(FILE *out, const char *what, double seconds, int late, int total,
			    bool values_counted, int verify_cut)
{
	fprintf(out, "bspcost: %s: ", what);
	if (late > 0)
		fprintf(out, "%d of %d candidate%s stopped at %s share of the run's time limit of "
			     "%g s while others waited (--timeout S gives each more); %s", late, total,
			total == 1 ? "" : "s", late == 1 ? "its" : "their", seconds,
			values_counted ? "every value was counted"
				       : "they are reported without their costs");
	if (verify_cut > 0)
		fprintf(out, "%s--verify stopped early for %d candidate%s at %s share of the run's "
			     "time limit of %g s", late > 0 ? "; " : "", verify_cut,
			verify_cut == 1 ? "" : "s", verify_cut == 1 ? "its" : "their", seconds);
	fputc('\n', out);
}

void report_deadline_formulas(FILE *out, const char *what, double seconds, int late, int total)
{
	fprintf(out, "bspcost: %s: the run's time limit of %g s ran out (--timeout S to change "
		     "it, 0 for none): the formulas of %d of %d candidate%s were not finished; "
		     "every value was counted\n", what, seconds, late, total, total == 1 ? "" : "s");
}

/* S as Markdown text within a line: the characters that can start inline
 * markup there (emphasis, code, links, HTML, entities, GFM's strikethrough
 * and table cells) backslashed; never the first of a line ('#', '>', '-'). */
void report_md_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\`*_[]<|~&", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* S as a code span: delimited by one more backquote than its longest run of
 * them; in a table cell (CELL) with every '|' escaped. */
void report_md_code(FILE *out, const char *s, bool cell)
{
	int run = 0, longest = 0;
	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	for (int i = 0; i <= longest; i++)
		fputc('`', out);
	bool pad = longest > 0 || s[0] == '`' || (*s && s[strlen(s) - 1] == '`');
	fputs(pad ? " " : "", out);
	for (; *s; s++) {
		if (cell && *s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputs(pad ? " " : "", out);
	for (int i = 0; i <= longest; i++)
		fputc('`', out);
}
