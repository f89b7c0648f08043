/* Ranking shapes, numberings and candidates by D-BSP cost (hier_rank.h). */
#include <stdlib.h>
#include <string.h>

#include "analyzer/decide/hier_rank.h"
#include "analyzer/decide/rank.h"

int hier_ranking_init(struct hier_ranking *r, long procs, int naxes, const struct topology *t)
{
	memset(r, 0, sizeof(*r));
	r->procs = procs;
	r->naxes = naxes;
	r->topo = t;
	r->k = hierarchy_levels(&procs, 1);
	if (r->k < 0)
		return 0;
	struct rank_table shapes;
	if (rank_table_init(&shapes, procs, naxes) < 0) {
		rank_table_clear(&shapes);
		return -1;
	}
	r->shapes = shapes.shapes;
	r->nshapes = shapes.nshapes;
	shapes.shapes = NULL;
	shapes.nshapes = 0;
	rank_table_clear(&shapes);
	return 0;
}

struct hier_row *hier_ranking_add(struct hier_ranking *r, int shape, enum numbering nb, int cand)
{
	struct hier_row *n = realloc(r->rows, sizeof(*n) * (size_t)(r->nrows + 1));
	if (!n)
		return NULL;
	r->rows = n;
	struct hier_row *row = &r->rows[r->nrows++];
	memset(row, 0, sizeof(*row));
	row->shape = shape;
	row->nb = nb;
	row->cand = cand;
	root2_init(&row->dbsp, r->topo->root);
	root2_init(&row->flat, r->topo->root);
	return row;
}

/* Counted rows first, by cost, then in the order they were added. */
static int by_cost(const void *pa, const void *pb)
{
	const struct hier_row *a = pa, *b = pb;
	if (a->ok != b->ok)
		return a->ok ? -1 : 1;
	int c = a->ok ? root2_cmp(&a->dbsp, &b->dbsp) : 0;
	if (c)
		return c;
	/* the order added: shapes, then numberings, then candidates */
	if (a->shape != b->shape)
		return a->shape < b->shape ? -1 : 1;
	if (a->nb != b->nb)
		return a->nb < b->nb ? -1 : 1;
	return (a->cand > b->cand) - (a->cand < b->cand);
}

void hier_ranking_sort(struct hier_ranking *r)
{
	if (r->nrows > 1)
		qsort(r->rows, (size_t)r->nrows, sizeof(*r->rows), by_cost);
	r->nranked = 0;
	for (int i = 0; i < r->nrows && r->rows[i].ok; i++) {
		struct hier_row *row = &r->rows[i];
		bool same = i > 0 && root2_cmp(&row->dbsp, &r->rows[i - 1].dbsp) == 0;
		row->rank = same ? r->rows[i - 1].rank : i + 1;
		row->tie = same || (i + 1 < r->nrows && r->rows[i + 1].ok &&
				    root2_cmp(&row->dbsp, &r->rows[i + 1].dbsp) == 0);
		r->nranked++;
	}
}

void hier_ranking_clear(struct hier_ranking *r)
{
	for (int i = 0; i < r->nrows; i++) {
		free(r->rows[i].reason);
		root2_clear(&r->rows[i].dbsp);
		root2_clear(&r->rows[i].flat);
	}
	free(r->rows);
	free(r->shapes);
	free(r->why);
	memset(r, 0, sizeof(*r));
}
