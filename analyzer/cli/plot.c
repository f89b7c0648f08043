/* --plot: the picture of a ranking, drawn by gnuplot run on a script that
 * the report module writes (report_rank_plot). */
#include "analyzer/cli/plot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/report/report.h"

/* Runs gnuplot on SCRIPT; 0 when it exits 0, 127 when it cannot be run. */
static int run_gnuplot(const char *script)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int plot_ranking(const struct ranking *r, const char *picture, FILE *err)
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
	report_rank_plot(f, r, picture);
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
