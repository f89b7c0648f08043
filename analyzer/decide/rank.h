/* Decisions: which grid shape and which candidate, for a number of processes.
 *
 * For P processes and a grid of NAXES axes, the shapes are every ordered
 * factorization of P into NAXES sizes (for 2 axes: 1 x P, 2 x P/2, ..., P x 1),
 * in lexicographic order.  Each (shape, candidate) is a row of a table: its w,
 * h, h_in, h_out and NCom summed over the supersteps and its cost (the sum of
 * the supersteps' costs, w + h*g + l or the run's cost function), all exact, from the values counted
 * directly for that shape (analyzer/cost/cost.h, cost_request.values); or the
 * reason it has none.  rank_table_sort orders the rows best first.
 *
 * Ranking: by cost, lowest first; rows of equal cost share a rank (the
 * standard competition ranking: 1, 1, 3, ...) and are marked as ties; within
 * a tie, and for the other rows, the shapes' order, then the candidates'.  Rows without a cost are
 * never ranked and never given a number: they follow the ranked rows. */
#ifndef BSPCOST_RANK_H
#define BSPCOST_RANK_H

#include <stdbool.h>

#include <gmp.h>

#include "analyzer/cost/cost.h"
#include "analyzer/util/limits.h"

/* The most process counts one run ranks, and the most processes in one. */
enum { RANK_MAX_COUNTS = 256, RANK_MAX_PROCS = LIMIT_PROCESSES };

enum rank_status {
	RANK_OK,        /* counted: ranked */
	RANK_OUTSIDE,   /* the values break the specification's assumptions for
			 * this shape (every candidate, CAND = -1): no number */
	RANK_REFUSED,   /* no exact value (the counting engine's reason) */
	RANK_FAILED,    /* ISL, the engine or memory failed */
	RANK_LATE,      /* the run's deadline came first: not counted */
};

struct rank_row {
	int shape;              /* index into rank_table.shapes */
	int cand;               /* the candidate; -1: every candidate */
	enum rank_status status;
	char *reason;           /* why not RANK_OK (malloc'd) */
	mpq_t w, h, h_in, h_out, ncom, cost;   /* RANK_OK: sums over the supersteps */
	int nsteps;             /* RANK_OK: its supersteps (program variants differ) */
	/* RANK_OK under w + h*g + l (rank_model_linear): its cost is
	 * cost(g = 0, l = 0) + gcoef*g + lcoef*l; lcoef counts the supersteps
	 * run, each run of one in a loop once */
	mpq_t gcoef, lcoef;
	mpq_t mem;              /* RANK_OK: the most words a process holds (memory.h) */
	int rank;               /* after rank_table_sort, RANK_OK rows: 1, 2, ... */
	bool tie;               /* another ranked row has the same cost */
};

struct rank_table {
	long procs;
	int naxes;
	int nshapes;
	long (*shapes)[3];      /* every ordered factorization, lexicographic */
	int nrows;
	struct rank_row *rows;
	/* after rank_table_sort: rows[0..nranked) ranked, best first, then the
	 * refused and failed ones, then the late ones */
	int nranked;
	int nlate;
	/* rows that are candidates for the answer but have no cost: refused,
	 * failed or late (not the shapes outside the assumptions).  While there
	 * is one, the best ranked row is not proven the best: an uncounted row
	 * could cost less. */
	int nuncounted;
	bool sorted;
};

/* The shapes of PROCS processes on NAXES axes (1 to 3) into T, no rows yet.
 * Returns 0, or -1 when out of memory. */
int rank_table_init(struct rank_table *t, long procs, int naxes);

/* One shape, SIZES (NAXES of them), into T, no rows yet: a table of the
 * candidates on a given grid.  Returns 0, or -1 when out of memory. */
int rank_table_init_shape(struct rank_table *t, const long *sizes, int naxes);

/* A new row for SHAPE and CAND, its numbers zero and its status RANK_LATE
 * (not counted yet); NULL when out of memory.  The pointer stays valid until
 * the next rank_table_add_row. */
struct rank_row *rank_table_add_row(struct rank_table *t, int shape, int cand);

/* Fills ROW from CC, the values counted for its shape (cost_request.values):
 * RANK_OK with the sums over the supersteps and the sum of their costs at
 * PRICES (cost_model.h: exact, fractions too); or the status and reason of CC
 * (RANK_LATE when the deadline stopped it); RANK_REFUSED when the prices
 * cannot price it (MACHINE, may be NULL, names whose prices in the reason). */
void rank_row_measure(struct rank_row *row, const struct candidate_cost *cc,
		      const struct cost_prices *prices, const char *machine);

/* Whether CM (NULL: the default) is w + h*g + l, summed over the supersteps:
 * a cost linear in g and l, whose rows rank_row_measure splits into
 * gcoef and lcoef. */
bool rank_model_linear(const struct cost_model *cm);

/* Orders the rows and gives the ranked ones their ranks and ties. */
void rank_table_sort(struct rank_table *t);

/* Why ranked row I (>= 1) of sorted T costs more than row I - 1, its
 * neighbour above: BY = the difference of their costs; and when the cost
 * function CM (NULL: the default) is w + h*g + l, summed over the
 * supersteps, its parts PARTS[0..3): the differences of w, of h*g and of l
 * (the number of supersteps times L), G and L the prices.  Returns 3 then,
 * 0 for another cost function (BY alone).  PARTS initialized. */
int rank_row_gap(const struct rank_table *t, int i, const struct cost_model *cm, mpq_srcptr g,
		 mpq_srcptr l, mpq_t by, mpq_t parts[3]);

void rank_table_clear(struct rank_table *t);

#endif
