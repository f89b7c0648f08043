/* bspcost-probe: measures the BSP parameters of the machine it runs on, with
 * MPI, and writes them as a bspcost(5) machine profile.
 *
 * For every number of processes p = 1 .. the ranks it runs on (or -p), on a
 * communicator of the first p ranks:
 *   l       an empty superstep: a barrier and nothing;
 *   g       the slope of the time of an h-relation against h: each process
 *           sends h words (8-byte doubles) spread evenly over the other
 *           processes (to itself on 1), one MPI_Alltoallv and a barrier, for
 *           9 values of h from 0 to H; fitted by least squares, with the
 *           fit's spread (the residuals' root mean square over the mean time);
 *           a profile is written only where g and l came out positive;
 *   n_half  N_1/2 of Hill, Crumpton and Burgess: the message size at half the
 *           asymptotic bandwidth, from the time t(x) of exchanging x words
 *           between the pairs of ranks (0 1, 2 3, ...) at once: with
 *           t(x) = t0 + x/r (1/r the least-squares slope over the larger
 *           sizes, t0 the time of one word beyond it), N_1/2 = t0*r (p >= 2);
 * and once, over every rank: the speed s of a DAXPY-like loop (the profile's
 * s, as bspbench's r) and of a DGEMM-like one (reported beside it), the
 * slowest rank's; and LogP's send overhead o (the time MPI_Isend of one word
 * takes on the sender, ranks 0 and 1), and at each p >= 2 LogP's latency L,
 * the time of a one-word exchange between pairs (o + L + o) less 2*o: the
 * keys o and L of the profile, which bspcost's --model logp reads.
 *
 * A time is that of one superstep (or exchange), timed one by one, 20 to 200
 * times: each rank's median, then the slowest rank's (a rank descheduled now
 * and then on a shared machine moves a mean, not a median).
 *
 * Every quantity is measured REPS times (-r); the profile gets the median and
 * the spread (largest minus smallest over the median); a spread over 25% is
 * reported, on stderr and in the profile, as too noisy to trust, as bspbench
 * does.  A time budget (-t) bounds the run: the p's it leaves out are said.
 *
 * The probe measures; it asserts nothing about speed.  Its output is a
 * profile bspcost(1) reads with --machine FILE. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef BSPCOST_VERSION
#define BSPCOST_VERSION "unknown"
#endif

enum {
	MAX_REPS = 101,
	H_POINTS = 9,         /* values of h in the fit of g */
	H_MAX = 16384,        /* words each process sends at the largest h */
	X_POINTS = 15,        /* message sizes 1, 2, 4, ... 2^14 words for N_1/2 */
	DAXPY_N = 1024,       /* two arrays of 8 KB: in the first-level cache */
	GEMM_N = 64,
	O_SENDS = 256,        /* sends timed for o */
	ITERS_MAX = 200,      /* supersteps or exchanges timed for one median */
};
#define NOISY 0.25            /* a spread above this is reported */

struct probe_opts {
	const char *out;      /* the profile's file, or NULL for stdout */
	const char *name;     /* the profile's machine name */
	int maxp;
	int reps;
	double budget;        /* seconds */
};

/* One measured quantity: the median of its repetitions and their spread. */
struct measure {
	double median;
	double spread;        /* (max - min) / median; 0 for one repetition */
};

struct level {
	int p;
	struct measure l, g, n_half; /* l and g in seconds (per word), n_half in words */
	struct measure x1;        /* seconds of a one-word exchange between pairs (p >= 2) */
	double fit_spread;        /* of g's least-squares fit, the largest over the repetitions */
	int n_half_valid;
	int n_half_reps;          /* the repetitions n_half's median is over */
};

static int rank_of(MPI_Comm c)
{
	int r;
	MPI_Comm_rank(c, &r);
	return r;
}

/* Prints on stderr from rank 0 only. */
static void say(const char *fmt, ...)
{
	if (rank_of(MPI_COMM_WORLD) != 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("bspcost-probe: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static const char usage[] =
	"usage: mpirun -np N bspcost-probe [-o FILE] [-n NAME] [-p MAXP] [-r REPS] [-t SECONDS]\n"
	"  -o FILE     write the profile to FILE (default: standard output)\n"
	"  -n NAME     the profile's machine name (default: probe)\n"
	"  -p MAXP     measure p = 1 .. MAXP processes (default: every rank)\n"
	"  -r REPS     repetitions of every measurement, 1 to 101 (default: 5)\n"
	"  -t SECONDS  the time budget of the whole run (default: 60)\n"
	"  --version   the version\n";

/* A whole number from LO to HI, or -1. */
static long whole(const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	return (!*s || *end || errno || v < lo || v > hi) ? -1 : v;
}

/* 0, 1 (help printed: exit 0) or 2 (a usage error printed). */
static int parse_args(int argc, char **argv, int world, struct probe_opts *o)
{
	*o = (struct probe_opts){NULL, "probe", world, 5, 60.0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			if (rank_of(MPI_COMM_WORLD) == 0)
				fputs(usage, stdout);
			return 1;
		}
		if (strcmp(a, "--version") == 0) {
			if (rank_of(MPI_COMM_WORLD) == 0)
				printf("bspcost-probe %s\n", BSPCOST_VERSION);
			return 1;
		}
		if (a[0] != '-' || !a[1] || a[2] || !strchr("onprt", a[1])) {
			say("unknown argument '%s'\n%s", a, usage);
			return 2;
		}
		if (i + 1 >= argc) {
			say("%s needs a value\n%s", a, usage);
			return 2;
		}
		const char *v = argv[++i];
		long n;
		char *end;
		switch (a[1]) {
		case 'o':
			o->out = v;
			break;
		case 'n':
			if (!*v || strpbrk(v, " \t#\n")) {
				say("bad -n '%s': one word, no '#'", v);
				return 2;
			}
			o->name = v;
			break;
		case 'p':
			if ((n = whole(v, 1, world)) < 0) {
				say("bad -p '%s': a number of processes from 1 to %d, the ranks it runs on",
				    v, world);
				return 2;
			}
			o->maxp = (int)n;
			break;
		case 'r':
			if ((n = whole(v, 1, MAX_REPS)) < 0) {
				say("bad -r '%s': a number of repetitions from 1 to %d", v, MAX_REPS);
				return 2;
			}
			o->reps = (int)n;
			break;
		default: /* 't' */
			errno = 0;
			o->budget = strtod(v, &end);
			if (!*v || *end || errno || !(o->budget > 0) || o->budget > 86400) {
				say("bad -t '%s': seconds, more than 0 and at most 86400", v);
				return 2;
			}
			break;
		}
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median and spread of the N values of V (sorted in place). */
static struct measure stat_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	struct measure s = {med, 0};
	if (n > 1 && med > 0)
		s.spread = (v[n - 1] - v[0]) / med;
	return s;
}

/* The slowest rank's value of X on C. */
static double slowest(double x, MPI_Comm c)
{
	double m;
	MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, c);
	return m;
}

/* Least squares y = a + b*x over N points; the residuals' root mean square
 * over the mean of y in *SPREAD. */
static void fit_line(const double *x, const double *y, int n, double *a, double *b,
		     double *spread)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (int i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	double d = n * sxx - sx * sx;
	*b = d != 0 ? (n * sxy - sx * sy) / d : 0;
	*a = (sy - *b * sx) / n;
	double ss = 0;
	for (int i = 0; i < n; i++) {
		double r = y[i] - (*a + *b * x[i]);
		ss += r * r;
	}
	*spread = sy > 0 ? sqrt(ss / n) / (sy / n) : 0;
}

/* Flop/s of one rank's DAXPY-like loop (y += a*x over DAXPY_N doubles) and,
 * in *GEMM, of a DGEMM-like one (C += A*B, GEMM_N square, i-k-j order), each
 * timed over about 20 ms. */
static double speeds(double *gemm)
{
	static double x[DAXPY_N], y[DAXPY_N];
	static double A[GEMM_N][GEMM_N], B[GEMM_N][GEMM_N], C[GEMM_N][GEMM_N];
	for (int i = 0; i < DAXPY_N; i++) {
		x[i] = 1.0 + i % 7;
		y[i] = 0.5;
	}
	for (int i = 0; i < GEMM_N; i++)
		for (int j = 0; j < GEMM_N; j++) {
			A[i][j] = 1.0 / (1 + i + j);
			B[i][j] = 1.0 / (2 + i + j);
			C[i][j] = 0;
		}
	double alpha = 1e-9, t0 = MPI_Wtime(), t = 0;
	long passes = 0;
	do {
		for (int k = 0; k < 64; k++, passes++) {
			for (int i = 0; i < DAXPY_N; i++)
				y[i] += alpha * x[i];
			alpha = -alpha; /* y stays bounded */
		}
		t = MPI_Wtime() - t0;
	} while (t < 0.02);
	double daxpy = 2.0 * DAXPY_N * (double)passes / t;

	t0 = MPI_Wtime();
	passes = 0;
	do {
		for (int i = 0; i < GEMM_N; i++)
			for (int k = 0; k < GEMM_N; k++) {
				double aik = A[i][k];
				for (int j = 0; j < GEMM_N; j++)
					C[i][j] += aik * B[k][j];
			}
		passes++;
		t = MPI_Wtime() - t0;
	} while (t < 0.02);
	*gemm = 2.0 * GEMM_N * GEMM_N * GEMM_N * (double)passes / t;

	/* the results are read, so that no loop is optimized away */
	volatile double sink = y[DAXPY_N - 1] + C[GEMM_N - 1][GEMM_N - 1];
	(void)sink;
	return daxpy;
}

/* The slowest rank's median of the N times T (sorted in place): a rank
 * descheduled now and then on a shared machine moves a mean, not a median. */
static double median_slowest(double *t, int n, MPI_Comm c)
{
	return slowest(stat_of(t, n).median, c);
}

/* Seconds of one empty superstep (a barrier) on C, over ITERS (at most
 * ITERS_MAX) timed one by one. */
static double empty_superstep(MPI_Comm c, int iters)
{
	double t[ITERS_MAX];
	MPI_Barrier(c);
	for (int i = 0; i < iters; i++) {
		double t0 = MPI_Wtime();
		MPI_Barrier(c);
		t[i] = MPI_Wtime() - t0;
	}
	return median_slowest(t, iters, c);
}

/* The words rank FROM sends rank TO in an h-relation on P ranks: H words
 * over the other ranks as evenly as can be, the first destinations one more
 * (to itself when P is 1). */
static int h_share(int h, int p, int from, int to)
{
	if (p == 1)
		return h;
	if (to == from)
		return 0;
	int k = to - (to > from); /* TO's place among FROM's destinations */
	return h / (p - 1) + (k < h % (p - 1));
}

/* The counts of ME's h-relation over the P ranks, what it sends each
 * (SENDING) or receives from each, and their displacements. */
static void h_layout(int h, int p, int me, bool sending, int *counts, int *displs)
{
	for (int q = 0; q < p; q++)
		counts[q] = sending ? h_share(h, p, me, q) : h_share(h, p, q, me);
	displs[0] = 0;
	for (int q = 1; q < p; q++)
		displs[q] = displs[q - 1] + counts[q - 1];
}

/* Seconds of one superstep of an H-relation on C (MPI_Alltoallv and a
 * barrier), over ITERS timed one by one.  The receive side is the
 * transpose of the send counts, h_share on both sides. */
static double h_superstep(MPI_Comm c, int h, int iters, double *sbuf, double *rbuf, int *sc,
			  int *sd, int *rc, int *rd)
{
	int p, me;
	MPI_Comm_size(c, &p);
	MPI_Comm_rank(c, &me);
	h_layout(h, p, me, true, sc, sd);
	h_layout(h, p, me, false, rc, rd);
	double t[ITERS_MAX];
	MPI_Barrier(c);
	for (int i = 0; i < iters; i++) {
		double t0 = MPI_Wtime();
		MPI_Alltoallv(sbuf, sc, sd, MPI_DOUBLE, rbuf, rc, rd, MPI_DOUBLE, c);
		MPI_Barrier(c);
		t[i] = MPI_Wtime() - t0;
	}
	return median_slowest(t, iters, c);
}

/* Seconds of exchanging X words between the pairs (0 1), (2 3), ... of C at
 * once (an odd last rank waits), over ITERS timed one by one. */
static double pair_exchange(MPI_Comm c, int x, int iters, double *sbuf, double *rbuf)
{
	int p, me;
	MPI_Comm_size(c, &p);
	MPI_Comm_rank(c, &me);
	int partner = me ^ 1;
	double t[ITERS_MAX] = {0};
	MPI_Barrier(c);
	if (partner < p)
		for (int i = 0; i < iters; i++) {
			double t0 = MPI_Wtime();
			MPI_Sendrecv(sbuf, x, MPI_DOUBLE, partner, 0, rbuf, x, MPI_DOUBLE, partner,
				     0, c, MPI_STATUS_IGNORE);
			t[i] = MPI_Wtime() - t0;
		}
	return median_slowest(t, iters, c);
}

/* l, g and N_1/2 on C (P ranks), each REPS times. */
static void measure_level(MPI_Comm c, int p, int reps, struct level *lv, double *sbuf,
			  double *rbuf, int *counts)
{
	int *sc = counts, *sd = counts + p, *rc = counts + 2 * p, *rd = counts + 3 * p;
	double ls[MAX_REPS] = {0}, gs[MAX_REPS] = {0}, ns[MAX_REPS] = {0}, x1[MAX_REPS] = {0};
	int nn = 0;
	lv->p = p;
	lv->fit_spread = 0;
	/* untimed: the connections MPI makes on first use */
	h_superstep(c, H_MAX, 1, sbuf, rbuf, sc, sd, rc, rd);
	pair_exchange(c, 1 << (X_POINTS - 1), 1, sbuf, rbuf);
	for (int r = 0; r < reps; r++) {
		ls[r] = empty_superstep(c, ITERS_MAX);
		double hx[H_POINTS], ht[H_POINTS], a, b, spread;
		for (int k = 0; k < H_POINTS; k++) {
			hx[k] = (double)H_MAX * k / (H_POINTS - 1);
			ht[k] = h_superstep(c, (int)hx[k], 20, sbuf, rbuf, sc, sd, rc, rd);
		}
		fit_line(hx, ht, H_POINTS, &a, &b, &spread);
		gs[r] = b > 0 ? b : 0;
		if (spread > lv->fit_spread)
			lv->fit_spread = spread;
		if (p >= 2) {
			double xx[X_POINTS], xt[X_POINTS];
			for (int k = 0; k < X_POINTS; k++) {
				xx[k] = (double)(1 << k);
				xt[k] = pair_exchange(c, 1 << k, k < 10 ? 100 : 20, sbuf, rbuf);
			}
			x1[r] = xt[0];
			/* Hockney: 1/r the least-squares slope over the larger
			 * half of the sizes, t0 what the smallest take beyond it */
			int half = X_POINTS / 2;
			double t0, slope, resid;
			fit_line(xx + half, xt + half, X_POINTS - half, &t0, &slope, &resid);
			t0 = xt[0] - slope * xx[0];
			if (slope > 0 && t0 > 0)
				ns[nn++] = t0 / slope;
		}
	}
	lv->l = stat_of(ls, reps);
	lv->g = stat_of(gs, reps);
	lv->x1 = stat_of(x1, reps);
	/* the repetitions where the times grew as t0 + x/r */
	lv->n_half_valid = nn > 0;
	lv->n_half_reps = nn;
	if (lv->n_half_valid)
		lv->n_half = stat_of(ns, nn);
}

/* LogP's o: seconds of one MPI_Isend of one word on rank 0 to rank 1 (whose
 * receives are posted first), REPS times; 0 with one rank. */
static struct measure send_overhead(int reps)
{
	int world, me;
	MPI_Comm_size(MPI_COMM_WORLD, &world);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	double v[MAX_REPS + 1] = {0};
	static double word[O_SENDS], in[O_SENDS];
	MPI_Request req[O_SENDS];
	/* round 0 warms the connection up and is not counted */
	for (int r = 0; r <= reps; r++) {
		v[r] = 0;
		if (world < 2)
			continue;
		if (me == 1)
			for (int i = 0; i < O_SENDS; i++)
				MPI_Irecv(&in[i], 1, MPI_DOUBLE, 0, i, MPI_COMM_WORLD, &req[i]);
		MPI_Barrier(MPI_COMM_WORLD);
		if (me == 0) {
			double t0 = MPI_Wtime();
			for (int i = 0; i < O_SENDS; i++)
				MPI_Isend(&word[i], 1, MPI_DOUBLE, 1, i, MPI_COMM_WORLD, &req[i]);
			v[r] = (MPI_Wtime() - t0) / O_SENDS;
		}
		if (me <= 1)
			MPI_Waitall(O_SENDS, req, MPI_STATUSES_IGNORE);
		MPI_Bcast(&v[r], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	}
	return stat_of(v + 1, reps);
}

/* V printed with about 4 significant digits and no exponent (the profile's
 * numbers are decimals bspcost reads exactly). */
static void put_num(FILE *f, double v)
{
	if (!(v > 0) || !isfinite(v)) { /* measured() keeps both out of a profile */
		fputs("0", f);
		return;
	}
	int mag = (int)floor(log10(v));
	int dec = mag >= 3 ? 0 : 3 - mag;
	if (dec > 12)
		dec = 12;
	fprintf(f, "%.*f", dec, v);
}

static void put_spread(FILE *f, const char *what, struct measure s, int reps)
{
	fprintf(f, "%s%sspread %.0f%% over %d", what, *what ? " " : "", 100 * s.spread, reps);
	if (s.spread > NOISY)
		fputs(" (NOISY: do not trust it)", f);
}

static void write_profile(FILE *f, const struct probe_opts *o, const struct level *lv,
			  int nlv, struct measure daxpy, struct measure gemm, struct measure ovh, int world,
			  double elapsed)
{
	char host[256] = "unknown", date[64] = "unknown";
	if (gethostname(host, sizeof host) != 0)
		strcpy(host, "unknown");
	host[sizeof host - 1] = '\0';
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
	char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int len = 0;
	MPI_Get_library_version(lib, &len);
	char *nl = strchr(lib, '\n');
	if (nl)
		*nl = '\0';
	double s = daxpy.median;
	fprintf(f, "# Measured by bspcost-probe %s on %s, %s, %d MPI ranks, in %.1f s\n",
		BSPCOST_VERSION, host, date, world, elapsed);
	fprintf(f, "# (%s).\n", lib);
	fprintf(f, "# Every number is the median of %d repetitions; the spread is the largest\n"
		   "# minus the smallest over the median, and the slowest rank counts.\n", o->reps);
	fprintf(f, "# l: an empty superstep (a barrier).  g: the least-squares slope of the time\n"
		   "# of an h-relation (MPI_Alltoallv and a barrier, h = 0 .. %d words of 8\n"
		   "# bytes, sent evenly to the other processes).  n_half: N_1/2 = t0*r for\n"
		   "# messages exchanged by pairs of ranks at once, t(x) = t0 + x/r.\n"
		   "# l and g in flops: their seconds times s.\n", H_MAX);
	fputs("# s: ", f);
	put_num(f, daxpy.median);
	fputs(" flop/s, a DAXPY-like loop, ", f);
	put_spread(f, "", daxpy, o->reps);
	fputs(";\n#    a DGEMM-like loop: ", f);
	put_num(f, gemm.median);
	fputs(" flop/s, ", f);
	put_spread(f, "", gemm, o->reps);
	fputs(".\n", f);
	if (world >= 2) {
		fputs("# LogP's o (MPI_Isend of one word on the sender): ", f);
		put_num(f, ovh.median * 1e6);
		fputs(" us, ", f);
		put_spread(f, "", ovh, o->reps);
		fputs(";\n#    LogP's L at each p: the time of a one-word exchange between pairs\n"
		      "#    of ranks (o + L + o) less 2*o; o and L in flops, for --model logp\n"
		      "#    (left out at a p where L comes out 0 or less).\n", f);
	}
	for (int i = 0; i < nlv; i++) {
		fprintf(f, "# p %d: ", lv[i].p);
		put_spread(f, "l", lv[i].l, o->reps);
		fputs("; ", f);
		put_spread(f, "g", lv[i].g, o->reps);
		fprintf(f, ", its fit's residuals %.0f%%", 100 * lv[i].fit_spread);
		if (lv[i].n_half_valid) {
			fputs("; ", f);
			put_spread(f, "n_half", lv[i].n_half, lv[i].n_half_reps);
		}
		fputs("\n", f);
	}
	if (nlv < o->maxp)
		fprintf(f, "# p %d to %d: not measured, the time budget (-t %g s) ran out.\n",
			nlv + 1, o->maxp, o->budget);
	fprintf(f, "machine %s\n", o->name);
	fprintf(f, "title   %d MPI ranks on %s\n", world, host);
	fprintf(f, "source  bspcost-probe %s, %s\n", BSPCOST_VERSION, date);
	fputs("s       ", f);
	put_num(f, s);
	fputs("\nword    8\n", f);
	for (int i = 0; i < nlv; i++) {
		fprintf(f, "p %d l ", lv[i].p);
		put_num(f, lv[i].l.median * s);
		fputs(" l_us ", f);
		put_num(f, lv[i].l.median * 1e6);
		fputs(" g ", f);
		put_num(f, lv[i].g.median * s);
		fputs(" g_us ", f);
		put_num(f, lv[i].g.median * 1e6);
		if (lv[i].n_half_valid) {
			fputs(" n_half ", f);
			put_num(f, lv[i].n_half.median);
		}
		double lat = lv[i].x1.median - 2 * ovh.median;
		if (lv[i].p >= 2 && ovh.median > 0 && lat > 0 && isfinite(lat)) {
			fputs(" o ", f);
			put_num(f, ovh.median * s);
			fputs(" L ", f);
			put_num(f, lat * s);
		}
		fputs("\n", f);
	}
}

/* Closes and removes -o's file F (opened early) when no profile is written. */
static void discard_output(FILE *f, const struct probe_opts *o)
{
	if (f && o->out) {
		fclose(f);
		remove(o->out);
	}
}

/* Writes the profile to F (-o's file, opened before measuring, or stdout)
 * and closes it: 0, or 1 with the error said and -o's file removed. */
static int emit_profile(FILE *f, const struct probe_opts *o, const struct level *lv, int nlv,
			struct measure daxpy, struct measure gemm, struct measure ovh, int world,
			double elapsed)
{
	write_profile(f, o, lv, nlv, daxpy, gemm, ovh, world, elapsed);
	errno = 0;
	int bad = ferror(f);
	if (o->out)
		bad |= fclose(f) != 0;
	else
		bad |= fflush(f) != 0;
	if (bad) {
		say("%s: %s", o->out ? o->out : "standard output",
		    errno ? strerror(errno) : "a write failed");
		if (o->out)
			remove(o->out); /* closed above */
		return 1;
	}
	return 0;
}

/* Whether every p has a positive l and g, as a profile must; else says why
 * (no profile is written from such a measurement). */
static int measured(const struct level *lv, int nlv)
{
	for (int i = 0; i < nlv; i++)
		if (!(lv[i].g.median > 0) || !(lv[i].l.median > 0) || !isfinite(lv[i].g.median) ||
		    !isfinite(lv[i].l.median)) {
			say("p %d: %s: no profile written; run it again on an idle machine",
			    lv[i].p, lv[i].l.median > 0
					     ? "the time of an h-relation did not grow with h"
					     : "an empty superstep took no measurable time");
			return 0;
		}
	return 1;
}

/* The noisy measurements, on stderr. */
static void warn_noise(const struct level *lv, int nlv, struct measure daxpy, struct measure gemm,
		       int reps)
{
	const char *what = "too noisy to trust; run it again on an idle machine, or with more -r";
	if (daxpy.spread > NOISY || gemm.spread > NOISY)
		say("s: spread %.0f%% (DAXPY-like), %.0f%% (DGEMM-like) over %d repetitions: %s",
		    100 * daxpy.spread, 100 * gemm.spread, reps, what);
	for (int i = 0; i < nlv; i++) {
		if (lv[i].l.spread > NOISY)
			say("p %d: l's spread %.0f%% over %d repetitions: %s", lv[i].p,
			    100 * lv[i].l.spread, reps, what);
		if (lv[i].g.spread > NOISY)
			say("p %d: g's spread %.0f%% over %d repetitions: %s", lv[i].p,
			    100 * lv[i].g.spread, reps, what);
		if (lv[i].n_half_valid && lv[i].n_half.spread > NOISY)
			say("p %d: n_half's spread %.0f%% over %d repetitions: %s", lv[i].p,
			    100 * lv[i].n_half.spread, lv[i].n_half_reps, what);
		if (lv[i].p >= 2 && !lv[i].n_half_valid)
			say("p %d: no n_half: the message times do not grow as t0 + x/r", lv[i].p);
	}
}

/* A barrier on WORLD after a level: the ranks that measured it (MEASURED)
 * wait in MPI, the others, which reach it at once, sleep between tests, for
 * a rank polling inside MPI would take a core from the measurement.  (A
 * nonblocking barrier matches only nonblocking ones: every rank starts one.) */
static void level_barrier(int measured)
{
	MPI_Request req;
	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	if (measured) {
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		return;
	}
	int done = 0;
	struct timespec ms = {0, 1000000};
	while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
		nanosleep(&ms, NULL);
}

/* -o's file, opened by rank 0 before anything is measured (stdout without
 * -o, NULL on the other ranks); every rank returns whether that went well. */
static int open_output(const struct probe_opts *o, FILE **f)
{
	int ok = 1;
	*f = NULL;
	if (rank_of(MPI_COMM_WORLD) == 0) {
		*f = o->out ? fopen(o->out, "w") : stdout;
		if (!*f) {
			say("%s: %s", o->out, strerror(errno));
			ok = 0;
		}
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return ok;
}

static int run(const struct probe_opts *o, int world)
{
	int me = rank_of(MPI_COMM_WORLD);
	double start = MPI_Wtime();
	FILE *f;
	if (!open_output(o, &f))
		return 1;
	/* an h-relation receives at most h + p - 2 words (where h does not
	 * divide evenly), a pair exchange x <= H_MAX */
	_Static_assert(H_MAX >= 1 << (X_POINTS - 1), "a message fits the buffers");
	double *sbuf = calloc(H_MAX, sizeof *sbuf);
	double *rbuf = calloc((size_t)H_MAX + (size_t)world, sizeof *rbuf);
	int *counts = malloc(4 * sizeof *counts * (size_t)world);
	struct level *lv = calloc((size_t)o->maxp, sizeof *lv);
	int ok = sbuf && rbuf && counts && lv, all_ok;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all_ok) {
		say("out of memory");
		free(sbuf), free(rbuf), free(counts), free(lv);
		discard_output(f, o);
		return 1;
	}

	double dx[MAX_REPS] = {0}, gx[MAX_REPS] = {0}, gemm;
	speeds(&gemm); /* untimed: the clock of a core that was idle ramps up */
	for (int r = 0; r < o->reps; r++) {
		double d = speeds(&gemm);
		/* the slowest rank's speed: the least */
		MPI_Allreduce(&d, &dx[r], 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
		MPI_Allreduce(&gemm, &gx[r], 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
	}
	struct measure daxpy = stat_of(dx, o->reps), gemms = stat_of(gx, o->reps);
	struct measure ovh = send_overhead(o->reps);

	int nlv = 0;
	double last = 0;
	for (int p = 1; p <= o->maxp; p++) {
		/* rank 0 decides, every rank follows: p = 1 is always measured,
		 * the next p when the last one's time, grown as p (p = 2 adds the
		 * exchanges for N_1/2: 4 times p = 1's), still fits the budget */
		double grown = p == 2 ? 4 * last : last * p / (p > 1 ? p - 1 : 1);
		int go = p == 1 || MPI_Wtime() - start + grown <= o->budget;
		MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (!go)
			break;
		double t0 = MPI_Wtime();
		MPI_Comm c;
		MPI_Comm_split(MPI_COMM_WORLD, me < p ? 0 : MPI_UNDEFINED, me, &c);
		int in = c != MPI_COMM_NULL;
		if (in) {
			measure_level(c, p, o->reps, &lv[nlv], sbuf, rbuf, counts);
			MPI_Comm_free(&c);
		}
		level_barrier(in);
		MPI_Bcast(&lv[nlv], (int)sizeof lv[nlv], MPI_BYTE, 0, MPI_COMM_WORLD);
		nlv++;
		last = MPI_Wtime() - t0;
		MPI_Bcast(&last, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	}

	int st = 0;
	if (me == 0) {
		if (nlv < o->maxp)
			say("p %d to %d not measured: the time budget (-t %g s) ran out", nlv + 1,
			    o->maxp, o->budget);
		warn_noise(lv, nlv, daxpy, gemms, o->reps);
		if (measured(lv, nlv)) {
			st = emit_profile(f, o, lv, nlv, daxpy, gemms, ovh, world,
					  MPI_Wtime() - start);
		} else {
			st = 1;
			discard_output(f, o);
		}
	}
	MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
	free(sbuf);
	free(rbuf);
	free(counts);
	free(lv);
	return st;
}

int main(int argc, char **argv)
{
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fputs("bspcost-probe: MPI_Init failed\n", stderr);
		return 1;
	}
	int world;
	MPI_Comm_size(MPI_COMM_WORLD, &world);
	struct probe_opts o;
	int st = parse_args(argc, argv, world, &o);
	if (st == 0)
		st = run(&o, world);
	else if (st == 1)
		st = 0;
	MPI_Finalize();
	return st;
}
