/* The results of the other commands: --check's summary line, --count's
 * formula and value, and --verify's summary.  Like the analysis reports,
 * everything a command prints as its result goes through here. */
#include <stdbool.h>
#include <stdio.h>

#include "analyzer/report/report.h"

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
	fprintf(out, "%s: ok: %d %s, grid %d %s (", name, cs->nparams, plural(cs->nparams, "param", "params"),
		cs->naxes, plural(cs->naxes, "axis", "axes"));
	for (int i = 0; i < cs->naxes; i++)
		fprintf(out, "%s%s", i ? ", " : "", cs->axes[i]->name);
	fprintf(out, "), %d %s, %d %s, %d %s\n", cs->narrays, plural(cs->narrays, "array", "arrays"),
		cs->ncandidates, plural(cs->ncandidates, "candidate", "candidates"), cs->nsupersteps,
		plural(cs->nsupersteps, "superstep", "supersteps"));
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
