/* --machine: finding a profile by name or path, and the g, l and s it gives
 * for a number of processes (analyze.h). */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/run/analyze.h"

#ifndef BSPCOST_DATADIR
#define BSPCOST_DATADIR "/usr/local/share/bspcost"
#endif

/* Where bundled profiles are looked for, in order: $BSPCOST_MACHINES (a
 * colon-separated list), the installed ones, and machines/ next to the
 * directory of the running binary (build/bspcost in the source tree).  *N of
 * them, each malloc'd. */
static char **machine_dirs(int *n)
{
	char **dirs = calloc(64, sizeof(*dirs));
	*n = 0;
	if (!dirs)
		return NULL;
	const char *env = getenv("BSPCOST_MACHINES");
	for (const char *p = env; p && *p && *n < 60;) {
		size_t len = strcspn(p, ":");
		if (len > 0)
			dirs[(*n)++] = strndup(p, len);
		p += len + (p[len] == ':');
	}
	dirs[(*n)++] = strdup(BSPCOST_DATADIR "/machines");
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (asprintf(&dirs[*n], "%s/../machines", exe) >= 0)
				(*n)++;
		}
	}
	return dirs;
}

static void free_dirs(char **dirs, int n)
{
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

/* "a, b, c": the profiles (NAME.machine) of DIRS, each once, sorted. */
static char *bundled(char **dirs, int n)
{
	char *names[256];
	int k = 0;
	for (int i = 0; i < n; i++) {
		DIR *d = dirs[i] ? opendir(dirs[i]) : NULL;
		for (struct dirent *e; d && (e = readdir(d)) && k < 256;) {
			size_t len = strlen(e->d_name);
			if (len <= 8 || strcmp(e->d_name + len - 8, ".machine") != 0)
				continue;
			char *name = strndup(e->d_name, len - 8);
			bool seen = false;
			for (int j = 0; j < k && name; j++)
				seen |= strcmp(names[j], name) == 0;
			if (name && !seen)
				names[k++] = name;
			else
				free(name);
		}
		if (d)
			closedir(d);
	}
	for (int i = 1; i < k; i++) /* a few names: insertion sort */
		for (int j = i; j > 0 && strcmp(names[j], names[j - 1]) < 0; j--) {
			char *t = names[j];
			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	size_t cap = 1;
	for (int i = 0; i < k; i++)
		cap += strlen(names[i]) + 2;
	char *s = malloc(cap);
	if (s)
		s[0] = '\0';
	for (int i = 0; i < k; i++) {
		if (s) {
			strcat(s, i ? ", " : "");
			strcat(s, names[i]);
		}
		free(names[i]);
	}
	return s;
}

int machine_open(const char *arg, struct machine *m, FILE *err)
{
	char *path = NULL;
	if (strchr(arg, '/') || access(arg, R_OK) == 0) {
		path = strdup(arg);
	} else {
		int n = 0;
		char **dirs = machine_dirs(&n);
		for (int i = 0; dirs && i < n && !path; i++) {
			char *p = NULL;
			if (dirs[i] && asprintf(&p, "%s/%s.machine", dirs[i], arg) >= 0) {
				if (access(p, R_OK) == 0)
					path = p;
				else
					free(p);
			}
		}
		if (!path) {
			char *names = dirs ? bundled(dirs, n) : NULL;
			report_error(err, NULL, "--machine %s: no such machine profile (a file, "
						"or one of: %s)",
				     arg, names && *names ? names : "none found");
			free(names);
			free_dirs(dirs, n);
			memset(m, 0, sizeof(*m));
			mpq_init(m->s);
			return EXIT_USAGE;
		}
		free_dirs(dirs, n);
	}
	char *error = NULL;
	int r = path ? machine_read(m, path, &error) : -1;
	free(path);
	if (r < 0) {
		/* FILE[:LINE]: error: ..., a diagnostic of the profile */
		if (error)
			fprintf(err, "%s\n", error);
		else
			report_error(err, NULL, "out of memory");
		free(error);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* PV = Q (a rational of 64-bit terms). */
static int to_param(struct param_value *pv, const char *name, const mpq_t q)
{
	if (!mpz_fits_slong_p(mpq_numref(q)) || !mpz_fits_slong_p(mpq_denref(q)))
		return -1;
	pv->name = name;
	pv->value = mpz_get_si(mpq_numref(q));
	pv->den = mpz_get_si(mpq_denref(q));
	return 0;
}

int machine_for(const struct machine *m, const struct cost_model *cm, long p, const char *file,
		struct machine_pick *pick, FILE *err)
{
	memset(pick, 0, sizeof(*pick));
	cost_prices_init(&pick->prices, cm);
	mpq_init(pick->per_second);
	pick->e = machine_at(m, p, cm);
	if (!pick->e) {
		char *counts = machine_counts(m, cm);
		if (counts && *counts) {
			bool dflt = cm == cost_model_default();
			report_error(err, file, "--machine %s lists p = %s%s%s, not %ld (no "
						"value is interpolated)",
				     m->name, counts, dflt ? "" : " for ", dflt ? "" : cm->name,
				     p);
		} else if (m->n == 0) {
			report_error(err, file, "--machine %s gives level entries only: they "
						"price --hierarchy's levels, not %s (%s)",
				     m->name, cm->name, cm->text);
		} else {
			char *models = machine_models(m);
			report_error(err, file, "--machine %s gives no coefficients for %s (%s); "
						"it prices %s",
				     m->name, cm->name, cm->text, models ? models : "?");
			free(models);
		}
		free(counts);
		return -1;
	}
	int priced = machine_prices(m, pick->e, &pick->prices, pick->per_second);
	if (priced < 0) {
		static const char *const units[] = {"flops", "s", "ms", "us"};
		report_error(err, file, "--machine %s gives its coefficients in %s and no speed "
					"s: give --speed FLOPS (its processors' flop/s) to add "
					"them to w, which counts flops", m->name, units[m->unit]);
		return -1;
	}
	pick->timed = priced == 0;
	for (int c = 0; c < COEF_N; c++) {
		if (!pick->prices.has[c] || !cost_model_reads(cm, c))
			continue;
		if (to_param(&pick->coefs[pick->ncoefs], cost_coef_name[c], pick->prices.coef[c]) < 0) {
			report_error(err, file, "--machine %s: %s at p = %ld has terms beyond 64 "
						"bits", m->name, cost_coef_name[c], p);
			return -1;
		}
		pick->ncoefs++;
	}
	return 0;
}

void machine_pick_clear(struct machine_pick *pick)
{
	cost_prices_clear(&pick->prices);
	mpq_clear(pick->per_second);
}
