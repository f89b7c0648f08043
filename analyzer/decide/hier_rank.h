/* Decisions on a hierarchical machine: which grid shape, which numbering of
 * the grid onto the machine and which candidate, for a number of processes
 * p = 2^k, ranked by the D-BSP cost on a topology (analyzer/machine/
 * topology.h, Theorem 3.1 of Soviani and Singh), the flat BSP cost on the
 * same machine beside it.
 *
 * Each (shape, numbering, candidate) is a row; the shapes are -p's (every
 * ordered factorization, analyzer/decide/rank.h), each axis a power of two
 * since p is one.  Rows are ranked by their D-BSP cost, lowest first,
 * compared exactly (the costs are sums of fractions times 2^(r/n):
 * root2_cmp); rows of equal cost share a rank (1, 1, 3, ...) and are ties;
 * within a tie, the shapes' order, then the numberings', then the
 * candidates'.  Rows without a cost follow, never ranked. */
#ifndef BSPCOST_HIER_RANK_H
#define BSPCOST_HIER_RANK_H

#include <stdbool.h>

#include "analyzer/cost/hierarchy.h"
#include "analyzer/machine/topology.h"

struct hier_row {
	int shape;              /* index into hier_ranking.shapes */
	enum numbering nb;
	int cand;               /* -1: every candidate (a shape refused) */
	bool ok;                /* counted: DBSP and FLAT hold its costs */
	char *reason;           /* why not (malloc'd); NULL: not counted yet */
	bool late;              /* not counted: the run's deadline came first */
	bool failed;            /* not counted: refused or failed (not the values'
				 * assumptions, not the deadline) */
	struct root2 dbsp, flat;
	int rank;               /* ranked rows: 1, 2, ... */
	bool tie;
};

struct hier_ranking {
	long procs;
	int k;                  /* procs = 2^k; -1 when it is no power of two */
	int naxes;
	int nshapes;
	long (*shapes)[3];
	const struct topology *topo;
	int nrows, nranked;
	struct hier_row *rows;
	char *why;              /* no rows: the machine lacks a level (malloc'd) */
};

/* *R for PROCS processes on a grid of NAXES axes and topology T: its shapes
 * (none when PROCS is no power of two), no rows.  Returns 0, or -1 when out
 * of memory (*R then fit for hier_ranking_clear). */
int hier_ranking_init(struct hier_ranking *r, long procs, int naxes, const struct topology *t);

/* A new row, not counted yet; NULL when out of memory. */
struct hier_row *hier_ranking_add(struct hier_ranking *r, int shape, enum numbering nb, int cand);

/* Orders R's rows: the counted ones by D-BSP cost, ranked, then the rest. */
void hier_ranking_sort(struct hier_ranking *r);

void hier_ranking_clear(struct hier_ranking *r);

#endif
