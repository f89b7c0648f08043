/* --plot: the picture of a ranking, a sweep or each process's counts, drawn
 * by gnuplot run on a script that the report module writes (report_*_plot). */
#include "analyzer/run/plot.h"
#include "analyzer/run/options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#include "analyzer/report/report.h"
#include "analyzer/util/session.h"

/* Runs `gnuplot -c SCRIPT OUTPUT` (posix_spawnp: the run has a watchdog
 * thread, so no fork) under the run's deadline, that of SESSION: past it,
 * gnuplot is killed.  Its exit status, 127 when it cannot be run,
 * PLOT_LATE when the deadline stopped it, -1 on failure. */
static int run_gnuplot(const char *script, const char *output, struct session *session)
{
	char *argv[] = {"gnuplot", "-c", (char *)script, (char *)output, NULL};
	/* a process group of its own: what gnuplot starts dies with it */
	posix_spawnattr_t attr;
	if (posix_spawnattr_init(&attr) != 0)
		return -1;
	pid_t pid;
	int err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	if (err == 0)
		err = posix_spawnattr_setpgroup(&attr, 0);
	if (err == 0)
		err = posix_spawnp(&pid, "gnuplot", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (err == ENOENT || err == EACCES)
		return 127;
	if (err != 0)
		return -1;
	bool deadline = session_limit(session) > 0;
	int st;
	for (;;) {
		pid_t w = waitpid(pid, &st, deadline ? WNOHANG : 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (deadline && session_expired(session)) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return PLOT_LATE;
		}
		if (deadline)
			nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL); /* 10 ms */
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* 0 when PATH may be replaced by a file of ours: nothing is there, a
 * regular file, or a symbolic link (replaced itself, never followed);
 * otherwise (a folder, a device, a FIFO) -1, said on ERR. */
static int replaceable(const char *path, FILE *err)
{
	struct stat sb;
	if (lstat(path, &sb) != 0) {
		if (errno == ENOENT)
			return 0;
		report_error(err, NULL, "--plot: %s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode))
		return 0;
	report_error(err, NULL, "--plot: %s is %s, not a file: nothing written",
		     path, S_ISDIR(sb.st_mode) ? "a folder" : "a special file");
	return -1;
}

/* A new empty file beside PATH, named PATH.XXXXXX (malloc'd, NULL when out
 * of memory or it cannot be made: said on ERR), readable as a file made
 * with the run's umask is; *FD its descriptor. */
static char *temporary(const char *path, int *fd, FILE *err)
{
	size_t n = strlen(path);
	char *name = malloc(n + 8);
	if (!name) {
		report_error(err, NULL, "--plot: out of memory");
		return NULL;
	}
	memcpy(name, path, n);
	memcpy(name + n, ".XXXXXX", 8);
	*fd = mkstemp(name);
	if (*fd < 0) {
		report_error(err, NULL, "--plot: cannot write beside %s: %s",
			     path, strerror(errno));
		free(name);
		return NULL;
	}
	/* the mode of a file made with the run's umask (mkstemp's is 0600);
	 * umask can only be read by setting it, and no other thread of
	 * bspcost creates files */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(*fd, 0666 & ~mask);
	return name;
}

/* Writes the script of WHAT (COUNT of them) by WRITE to PICTURE.gp and runs
 * gnuplot on it.  Each file is written whole under a name of its own beside
 * its path and renamed onto it: nothing but a file or a link at PICTURE and
 * PICTURE.gp is replaced, a link's target is never written, and a failed
 * drawing leaves no picture half written. */
static int plot(const void *what, int count, const char *picture, FILE *err,
		struct session *session, void (*write)(FILE *, const void *, int, const char *))
{
	size_t n = strlen(picture);
	char *script = malloc(n + 4);
	if (!script) {
		report_error(err, NULL, "--plot: out of memory");
		return -1;
	}
	memcpy(script, picture, n);
	memcpy(script + n, ".gp", 4);
	int fd = -1;
	char *tmp = NULL;
	if (replaceable(picture, err) != 0 || replaceable(script, err) != 0 ||
	    !(tmp = temporary(script, &fd, err))) {
		free(script);
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	if (f)
		write(f, what, count, picture);
	bool bad = !f || ferror(f);
	if (f && fclose(f) != 0)
		bad = true;
	if (bad || rename(tmp, script) != 0) {
		report_error(err, NULL, "--plot: cannot write %s: %s", script, strerror(errno));
		if (!f)
			close(fd);
		unlink(tmp);
		free(tmp);
		free(script);
		return -1;
	}
	free(tmp);
	tmp = temporary(picture, &fd, err);
	if (!tmp) {
		free(script);
		return -1;
	}
	close(fd);
	int st = run_gnuplot(script, tmp, session);
	struct stat sb;
	int status = -1;
	if (st == PLOT_LATE) {
		report_error(err, NULL, "--plot: gnuplot did not finish within the run's time "
					"limit of %g s: no %s (its script: %s)",
			     session_limit(session), picture, script);
	} else if (st == 127) {
		report_error(err, NULL, "--plot: gnuplot cannot be run (is it installed? apt-get "
					"install gnuplot-nox); its script is %s", script);
	} else if (st != 0) {
		report_error(err, NULL, "--plot: gnuplot failed (exit %d) on %s", st, script);
	} else if (stat(tmp, &sb) != 0 || sb.st_size == 0) {
		report_error(err, NULL, "--plot: gnuplot wrote no %s (its script: %s)",
			     picture, script);
	} else if (rename(tmp, picture) != 0) {
		report_error(err, NULL, "--plot: cannot write %s: %s", picture, strerror(errno));
	} else {
		status = 0;
	}
	if (status != 0)
		unlink(tmp);
	free(tmp);
	free(script);
	return st == PLOT_LATE ? PLOT_LATE : status;
}

int plot_exit_status(int rc)
{
	return rc == 0 ? EXIT_OK : rc == PLOT_LATE ? EXIT_SPEC : EXIT_USAGE;
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

int plot_ranking(const struct ranking *r, const char *picture, FILE *err,
		 struct session *session)
{
	return plot(r, 1, picture, err, session, write_rank);
}

int plot_sweep(const struct ranking *r, int n, const char *picture, FILE *err,
	       struct session *session)
{
	return plot(r, n, picture, err, session, write_sweep);
}

int plot_per_process(const struct analysis *a, const char *picture, FILE *err,
		     struct session *session)
{
	return plot(a, 1, picture, err, session, write_processes);
}

static void write_hierarchy(FILE *out, const void *a, int n, const char *picture)
{
	(void)n;
	report_hierarchy_plot(out, a, picture);
}

int plot_hierarchy(const struct analysis *a, const char *picture, FILE *err,
		   struct session *session)
{
	return plot(a, 1, picture, err, session, write_hierarchy);
}
