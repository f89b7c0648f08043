/* The cluster hierarchy of Soviani and Singh (shared/seeds/001, section 2):
 * a machine of p = 2^k processes, numbered 0 .. p-1, is split level by level
 * into halves; its i-clusters C(i, u) are the 2^i runs of 2^(k-i) processes
 * with consecutive numbers.  For an R-routing (processor x sends R(x, y)
 * words to y) Definition 2.3 gives, for 0 <= i < k,
 *
 *   H(i) = max over the (i+1)-clusters C of max(|C_s|, |C_r|) / 2^(k-i-1)
 *
 * |C_s| the words the processes of C send to processes outside C, |C_r|
 * those they receive from outside; H(k-1) is BSP's h = max_q max(fan-in,
 * fan-out).  Definition 2.4: the relation is an (h, alpha)-relation when
 * H(j) <= h / 2^((k-j-1) alpha) for every level j (of a 0-superstep, the
 * whole machine); the largest such alpha is
 *
 *   alpha = min over j < k-1 with H(j) > 0 of log2(h / H(j)) / (k-j-1)
 *
 * unbounded when every such H(j) is 0, undefined when h is 0.
 *
 * How the grid's processes are numbered decides the clusters.  Under each
 * numbering here (row-major, column-major, Morton) a cluster is a box of
 * the grid, the same shape for every cluster of a level (hierarchy_box), so
 * that its words are counted as a process's are, on the coarser grid of the
 * boxes. */
#ifndef BSPCOST_HIERARCHY_H
#define BSPCOST_HIERARCHY_H

#include <stdbool.h>

#include <gmp.h>

/* How the grid's processes are numbered 0 .. p-1 (--numbering). */
enum numbering {
	NUMBERING_ROW,     /* row-major: the last axis fastest (the default) */
	NUMBERING_COL,     /* column-major: the first axis fastest */
	NUMBERING_MORTON,  /* Morton (Z) order: the axes' bits interleaved, the
			    * last axis's lowest, an axis whose bits are used up
			    * left out */
	NUMBERING_N,
	NUMBERING_MAP      /* a user's: process j is the one a map lists j-th
			    * (struct numbering_map) */
};

extern const char *const numbering_name[NUMBERING_N];

/* NB's name ("row", "col", "morton", or "map"). */
const char *numbering_label(enum numbering nb);

/* A user's numbering (--numbering FILE): Q[j], the grid coordinates of the
 * process numbered j, 0 <= j < N, a coordinate per axis (DIMS of them). */
struct numbering_map {
	const char *path;
	int n, dims;
	long (*q)[3];
};

/* The most processes a numbering file's grid may have: its clusters are
 * counted from the words between every pair of processes. */
enum { HIERARCHY_MAP_MAX = 256 };

/* MAP against the grid of SIZES (NAXES axes): every process listed once.
 * Returns 0, or -1 with *WHY (malloc'd) saying what is wrong. */
int numbering_map_check(const struct numbering_map *map, const long sizes[], int naxes,
			char **why);

/* The numbering called NAME into *OUT; -1 when there is none. */
int numbering_parse(const char *name, enum numbering *out);

/* k, when the grid of SIZES[0 .. NAXES) has 2^k processes (every axis a
 * power of two); -1 otherwise. */
int hierarchy_levels(const long sizes[], int naxes);

/* BOX[a], the extent along axis a of every cluster of 2^BITS processes
 * (0 <= BITS <= k) under numbering NB on the grid of SIZES (of 2^k
 * processes, hierarchy_levels); the (i+1)-clusters have BITS = k - i - 1. */
void hierarchy_box(enum numbering nb, const long sizes[], int naxes, int bits, long box[]);

/* The largest alpha of Definition 2.4. */
enum alpha_kind {
	ALPHA_NONE,        /* h = 0: no word moves, no alpha */
	ALPHA_UNBOUNDED,   /* no words leave the smallest clusters (every H(j)
			    * below the top 0): every alpha holds */
	ALPHA_RATIONAL,    /* alpha = VALUE exactly */
	ALPHA_LOG,         /* alpha = log2(VALUE) / DEN, irrational */
};

/* One superstep's H vector and alpha at values.  For a superstep in loops,
 * H(i) is the sum over its runs of each run's, and alpha the largest every
 * run meets (the least of theirs; hierarchy_add_run). */
struct hierarchy {
	int k;                 /* levels: the grid has 2^k processes */
	mpq_t *H;              /* H(0) .. H(k-1), exact; NULL when k = 0 */
	enum alpha_kind alpha;
	mpq_t value;           /* ALPHA_RATIONAL: alpha */
	mpq_t ratio;           /* ALPHA_RATIONAL and ALPHA_LOG: alpha = */
	long den;              /* log2(ratio) / den */
	double approx;         /* alpha, rounded (ALPHA_RATIONAL, ALPHA_LOG) */
	long runs;             /* the runs summed (1 outside loops) */
	mpq_t *ceil;           /* [k] the sum over the runs of ceil(H_run(i)),
				* which Theorem 3.1 prices (topology.h) */
};

/* *HR with K levels, every H(i) 0; -1 when out of memory (*HR then fit
 * for hierarchy_clear). */
int hierarchy_init(struct hierarchy *hr, int k);
void hierarchy_clear(struct hierarchy *hr);

/* HR's alpha from its H (Definition 2.4; the ratios h / H(j) compared
 * exactly: log2(a)/d < log2(b)/e when a^e < b^d). */
void hierarchy_alpha(struct hierarchy *hr);

/* Adds RUN, one run of a superstep in loops, to SUM (of the same levels;
 * SUM->runs 0: none yet): H(i) summed, alpha the least. */
void hierarchy_add_run(struct hierarchy *sum, const struct hierarchy *run);

/* HR's alpha as people read it, exact ("1", "3/2", "log2(3)/2",
 * "unbounded", "none"), malloc'd; NULL when out of memory. */
char *hierarchy_alpha_text(const struct hierarchy *hr);

#endif
