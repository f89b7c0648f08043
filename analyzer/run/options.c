#define _GNU_SOURCE /* asprintf, vasprintf */
#include "analyzer/run/options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/util/number.h"

#include "analyzer/cost/cost_model.h"
#include "analyzer/model/model.h"

const struct param_value *options_find_def(const struct options *opt, const char *name)
{
	/* The last -D for a name wins, as with a C compiler. */
	for (int i = opt->ndefs - 1; i >= 0; i--)
		if (strcmp(opt->defs[i].name, name) == 0)
			return &opt->defs[i];
	return NULL;
}

bool options_give_sizes(const struct options *opt, const struct model *m)
{
	for (int i = 0; i < model_nsizes(m); i++)
		if (options_find_def(opt, m->params[i]))
			return true;
	for (int a = 0; a < m->naxes; a++)
		if (options_find_def(opt, m->axes[a]))
			return true;
	return false;
}

struct options options_defaults(FILE *out, FILE *err)
{
	return (struct options){.format = FORMAT_TEXT, .out = out, .err = err,
				.timeout = DEFAULT_TIMEOUT, .model = cost_model_default()};
}

struct report_request options_report_request(const struct options *opt)
{
	return (struct report_request){.defs = opt->defs, .ndefs = opt->ndefs,
				       .explain = opt->explain, .values_only = opt->values_only,
				       .summary = opt->summary, .width = opt->width,
				       .digits = opt->digits, .model = opt->model};
}

/* How a -D argument was read. */
enum define_error {
	DEFINE_OK = 0,
	DEFINE_MALFORMED = -1, /* not NAME=NUMBER */
	DEFINE_TOO_LARGE = -2, /* an integer above LLONG_MAX */
	DEFINE_TOO_SMALL = -3, /* an integer below LLONG_MIN */
	DEFINE_FRACTION_TOO_LARGE = -4, /* a fraction whose terms pass 64 bits */
	DEFINE_ZERO_DENOMINATOR = -5,
};

/* VALUE, a decimal (10.2, 26e6) or a fraction (1/3) (number_parse), into PV
 * exactly, in lowest terms. */
static enum define_error parse_fraction(const char *value, struct param_value *pv)
{
	mpq_t q;
	mpq_init(q);
	int r = number_parse(value, q);
	enum define_error e = DEFINE_OK;
	if (r == -2)
		e = DEFINE_ZERO_DENOMINATOR;
	else if (r == -3)
		e = DEFINE_FRACTION_TOO_LARGE; /* an exponent beyond +-10000 */
	else if (r < 0)
		e = DEFINE_MALFORMED;
	else if (mpz_cmp_ui(mpq_denref(q), 1) == 0 && !mpz_fits_slong_p(mpq_numref(q)))
		e = mpq_sgn(q) < 0 ? DEFINE_TOO_SMALL : DEFINE_TOO_LARGE; /* 1e20 */
	else if (!mpz_fits_slong_p(mpq_numref(q)) || !mpz_fits_slong_p(mpq_denref(q)))
		e = DEFINE_FRACTION_TOO_LARGE;
	else {
		pv->value = mpz_get_si(mpq_numref(q));
		pv->den = mpz_get_si(mpq_denref(q));
	}
	mpq_clear(q);
	return e;
}

/* -D NAME=LO..HI*K or NAME=LO..HI+K into *SW; NULL, or the message of what
 * is wrong (static). */
static const char *parse_sweep(char *arg, struct sweep *sw)
{
	char *eq = strchr(arg, '='), *dots = strstr(arg, "..");
	if (!eq || eq == arg || dots < eq)
		return "expected NAME=LO..HI*K or NAME=LO..HI+K";
	for (char *p = arg; p < eq; p++) {
		int c = (unsigned char)*p;
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (p > arg && c >= '0' && c <= '9')))
			return "expected NAME=LO..HI*K or NAME=LO..HI+K";
	}
	/* digits only: no sign, no space (strtoll would skip them) */
	char *end = NULL;
	errno = 0;
	long long lo = isdigit((unsigned char)eq[1]) ? strtoll(eq + 1, &end, 10) : 0;
	if (end != dots || errno)
		return errno == ERANGE ? "a range's ends are limited to 64-bit integers"
				       : "a range's ends are integers: NAME=LO..HI*K or NAME=LO..HI+K";
	end = NULL;
	long long hi = isdigit((unsigned char)dots[2]) ? strtoll(dots + 2, &end, 10) : 0;
	if (errno == ERANGE)
		return "a range's ends are limited to 64-bit integers";
	if (!end)
		return "a range's ends are integers: NAME=LO..HI*K or NAME=LO..HI+K";
	if (*end != '*' && *end != '+')
		return "a range needs its step: LO..HI*K (times K) or LO..HI+K (plus K)";
	bool geometric = *end == '*';
	char *stop = NULL;
	long long k = isdigit((unsigned char)end[1]) ? strtoll(end + 1, &stop, 10) : 0;
	if (!stop || *stop || errno)
		return errno == ERANGE ? "a range's step is limited to 64-bit integers"
				       : "a range's step is an integer: LO..HI*K or LO..HI+K";
	if (lo < 1 || hi < lo)
		return "a range goes up from a size of at least 1: LO <= HI";
	if (geometric ? k < 2 : k < 1)
		return geometric ? "a geometric range multiplies by K >= 2" : "an arithmetic range adds K >= 1";
	long long n = 0;
	for (long long v = lo; v <= hi && n <= MAX_SWEEP_POINTS;) {
		n++;
		if (geometric ? v > LLONG_MAX / k : v > LLONG_MAX - k)
			break;
		v = geometric ? v * k : v + k;
	}
	if (n > MAX_SWEEP_POINTS)
		return "a range of more than 10000 points";
	*eq = '\0';
	*sw = (struct sweep){arg, lo, hi, k, geometric, (int)n};
	return NULL;
}

/* NAME=VALUE with NAME an identifier and VALUE a decimal integer (an optional
 * sign, then digits) that fits in 64 bits: an integer that does not is told
 * apart from text that is no integer.  A decimal (10.2) or a fraction (1/3)
 * is read exactly (parse_fraction); the caller lets only the cost function's
 * coefficients be one. */
static enum define_error parse_define(char *arg, struct param_value *pv)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return DEFINE_MALFORMED;
	for (char *p = arg; p < eq; p++) {
		int c = (unsigned char)*p;
		int ident = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (p > arg && c >= '0' && c <= '9');
		if (!ident)
			return DEFINE_MALFORMED;
	}
	const char *digits = eq + 1 + (eq[1] == '-' || eq[1] == '+');
	if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits)) {
		enum define_error r = parse_fraction(eq + 1, pv);
		if (r == DEFINE_OK) {
			*eq = '\0';
			pv->name = arg;
		}
		return r;
	}
	errno = 0;
	long long v = strtoll(eq + 1, NULL, 10);
	if (errno == ERANGE)
		return v < 0 ? DEFINE_TOO_SMALL : DEFINE_TOO_LARGE;
	*eq = '\0';
	pv->name = arg;
	pv->value = v;
	pv->den = 1;
	return DEFINE_OK;
}

/* ARG (a -D argument) in "bad -D 'ARG': WHY", malloc'd. */
static char *bad_define(const char *arg, const char *why)
{
	char *msg = NULL;
	if (asprintf(&msg, "bad -D '%s': %s", arg, why) < 0)
		return NULL;
	return msg;
}

int options_add_define(struct options *opt, char *arg, char **why_out)
{
	*why_out = NULL;
	if (strstr(arg, "..")) {
		/* a range of values: a sweep */
		struct sweep sw;
		const char *why = parse_sweep(arg, &sw);
		bool cut = !why;   /* parse_sweep cut ARG at '=' */
		if (!why && opt->nsweeps == MAX_SWEEPS)
			why = "at most 4 ranges";
		long total = 1;
		for (int i = 0; !why && i < opt->nsweeps; i++)
			total *= opt->sweeps[i].npoints;
		if (!why && total * sw.npoints > MAX_SWEEP_POINTS)
			why = "the ranges have more than 10000 points together";
		for (int i = 0; !why && i < opt->nsweeps; i++)
			if (strcmp(opt->sweeps[i].name, sw.name) == 0)
				why = "a name is swept once";
		if (why) {
			if (cut)
				arg[strlen(arg)] = '=';
			*why_out = bad_define(arg, why);
			return -1;
		}
		opt->sweeps[opt->nsweeps++] = sw;
		return 0;
	}
	switch (parse_define(arg, &opt->defs[opt->ndefs])) {
	case DEFINE_OK:
		break;
	case DEFINE_MALFORMED:
		*why_out = bad_define(arg, "expected NAME=INTEGER (the cost's coefficients, g, "
					       "l, ..., may also be a decimal, 10.2 or 26e6, or a fraction, 1/3)");
		return -1;
	case DEFINE_FRACTION_TOO_LARGE:
		*why_out = bad_define(arg, "a fraction is limited to a numerator and a denominator of "
				       "64 bits in lowest terms (an exponent to +-10000)");
		return -1;
	case DEFINE_ZERO_DENOMINATOR:
		*why_out = bad_define(arg, "a fraction with denominator 0");
		return -1;
	case DEFINE_TOO_LARGE:
		*why_out = bad_define(arg, "values are limited to 64-bit integers (at most "
				       "9223372036854775807)");
		return -1;
	case DEFINE_TOO_SMALL:
		*why_out = bad_define(arg, "values are limited to 64-bit integers (at least "
				       "-9223372036854775808)");
		return -1;
	}
	/* the last definition of a name wins: one entry per name */
	int same = 0;
	while (same < opt->ndefs && strcmp(opt->defs[same].name, opt->defs[opt->ndefs].name) != 0)
		same++;
	if (same < opt->ndefs)
		opt->defs[same] = opt->defs[opt->ndefs];
	else
		opt->ndefs++;
	return 0;
}

/* FMT's message, malloc'd (NULL when out of memory: then the caller says
 * nothing more precise than a failure). */
static char *message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *message(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	return msg;
}

/* The message of options_check_defines: *WHY (NULL when out of memory)
 * and -1. */
static int refuse(char **why, char *msg)
{
	*why = msg;
	return -1;
}

int options_check_defines(const struct options *opt, char **why)
{
	*why = NULL;
	for (int i = 0; i < opt->nsweeps; i++)
		for (int k = 0; k < opt->ndefs; k++)
			if (strcmp(opt->sweeps[i].name, opt->defs[k].name) == 0)
				return refuse(why, message("-D %s: given both a value and a range",
							   opt->defs[k].name));
	/* what a name is depends on --model, wherever it came: a coefficient of
	 * the cost function, or else a size or an axis (g and l, which no
	 * specification may name, are coefficients or nothing) */
	for (int i = 0; i < opt->nsweeps; i++)
		if (cost_model_reads_name(opt->model, opt->sweeps[i].name))
			return refuse(why, message("-D %s: ranges are of sizes, not of the cost's "
						   "coefficients", opt->sweeps[i].name));
	for (int i = 0; i < opt->ndefs; i++) {
		const struct param_value *d = &opt->defs[i];
		const char *text = d->name + strlen(d->name) + 1; /* parse_define cut at '=' */
		bool coef = cost_model_reads_name(opt->model, d->name);
		if (coef && opt->machine_arg)
			return refuse(why, message("-D %s: --machine gives the cost's coefficients "
						   "for each number of processes", d->name));
		if (!coef && (strcmp(d->name, "g") == 0 || strcmp(d->name, "l") == 0))
			return refuse(why, message("-D %s: the cost function %s (%s) has no "
						   "coefficient %s", d->name, opt->model->name,
						   opt->model->text, d->name));
		if (coef && d->value < 0)
			return refuse(why, message("bad -D '%s=%s': the cost's coefficients are at "
						   "least 0", d->name, text));
		if (!coef && d->den > 1)
			return refuse(why, message("bad -D '%s=%s': sizes and axes are integers (only "
						   "the coefficients of the cost function %s may be "
						   "decimals or fractions)", d->name, text,
						   opt->model->name));
	}
	return 0;
}
