/* --plot: the picture of a ranking, a sweep or each process's counts, drawn
 * by gnuplot run on a script that the report module writes (report_*_plot). */
#include "analyzer/cli/plot.h"

#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include "analyzer/report/report.h"

/* Runs gnuplot on SCRIPT (posix_spawnp: the run has a watchdog thread, so
 * no fork); its exit status, 127 when it cannot be run, -1 on failure. */
static int run_gnuplot(const char *script)
{
	char *argv[] = {"gnuplot", (char *)script, NULL};
	pid_t pid;
	int err = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
	if (err == ENOENT || err == EACCES)
		return 127;
	if (err != 0)
		return -1;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Writes the script of WHAT (COUNT of them) by WRITE to PICTURE.gp and runs
 * gnuplot on it. */
static int plot(const void *what, int count, const char *picture, FILE *err,
		void (*write)(FILE *, const void *, int, const char *))
{
	size_t n = strlen(picture);
	char *script = malloc(n + 4);
	if (!script) {
		fprintf(err, "bspcost: --plot: out of memory\n");
		return -1;
	}
	memcpy(script, picture, n);
	memcpy(script + n, ".gp", 4);
	FILE *f = fopen(script, "w");
	if (!f) {
		fprintf(err, "bspcost: --plot: cannot write %s: %s\n", script, strerror(errno));
		free(script);
		return -1;
	}
	write(f, what, count, picture);
	if (fclose(f) != 0) {
		fprintf(err, "bspcost: --plot: cannot write %s: %s\n", script, strerror(errno));
		free(script);
		return -1;
	}
	remove(picture);
	int st = run_gnuplot(script);
	struct stat sb;
	int status = -1;
	if (st == 127) {
		fprintf(err, "bspcost: --plot: gnuplot cannot be run (is it installed? apt-get "
			     "install gnuplot-nox); its script is %s\n", script);
	} else if (st != 0) {
		fprintf(err, "bspcost: --plot: gnuplot failed (exit %d) on %s\n", st, script);
	} else if (stat(picture, &sb) != 0 || sb.st_size == 0) {
		fprintf(err, "bspcost: --plot: gnuplot wrote no %s (its script: %s)\n", picture,
			script);
	} else {
		status = 0;
	}
	free(script);
	return status;
}

static void write_rank(FILE *out, const void *r, int n, const char *picture)
{
	(void)n;
	report_rank_plot(out, r, picture);
}

static void write_sweep(FILE *out, const void *r, int n, const char *picture)
{
	report_sweep_plot(out, r, n, picture);
}

static void write_processes(FILE *out, const void *a, int n, const char *picture)
{
	(void)n;
	report_process_plot(out, a, picture);
}

int plot_ranking(const struct ranking *r, const char *picture, FILE *err)
{
	return plot(r, 1, picture, err, write_rank);
}

int plot_sweep(const struct ranking *r, int n, const char *picture, FILE *err)
{
	return plot(r, n, picture, err, write_sweep);
}

int plot_per_process(const struct analysis *a, const char *picture, FILE *err)
{
	return plot(a, 1, picture, err, write_processes);
}
