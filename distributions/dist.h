/* Distribution kinds: how an index of one array dimension maps to a coordinate of
 * one grid axis (Niculescu's delta : n -> P), written as ISL constraints.
 *
 * One module per kind (block.c, cyclic.c, block_cyclic.c, identity.c, none.c,
 * replicated.c), which owns the kind's arithmetic: its owner relation, its
 * digits on the symbolic grid, its share of an extent (the memory's formulas
 * and values, in an arithmetic the caller supplies) and whether it
 * replicates; a new kind is a new module plus one line in dist.c, and
 * tests/unit/test_dist.c checks every kind's share against its owner
 * relation.  The modules know nothing of the specification language or of
 * reports: they build ISL sets by position.
 *
 * Concrete grid: the axis has a known number of processes, so every kind is
 * quasi-affine (divisions by constants) and sizes may stay symbolic and need not
 * be divisible.
 *
 * Symbolic grid: the axis size is a parameter, so an index i is written as a pair
 * (coordinate, offset) whose product-free constraints stay affine, with the block
 * length as a parameter of its own (e.g. m = M*mb for block).  See digits below. */
#ifndef BSPCOST_DIST_H
#define BSPCOST_DIST_H

#include <stdbool.h>

#include <isl/aff.h>
#include <isl/set.h>
#include <isl/val.h>

#include "grammar/dist_kind.h"

/* One dimension's distribution: a kind, the grid axis it spreads over (-1 for
 * DIST_NONE) and, for DIST_BLOCK_CYCLIC, the constant block. */
struct dist {
	enum dist_kind kind;
	int axis;
	long block;
	/* block-cyclic by a size, cyclic(nb): the size's parameter index
	 * (block is then that size's value where one is known), else -1 */
	int block_param;
};

/* A dimension seen by the symbolic grid: the index is written as a mixed-radix
 * number of up to three digits, most significant first, so that ownership is a
 * digit and every constraint stays affine.  Digit d ranges over [0, size[d]).
 *   block over P:          (s, u)     i = s*(X/P) + u          owner digit s
 *   cyclic over P:         (u, s)     i = u*P + s              owner digit s
 *   block-cyclic(b) over P:(u, s, r)  i = (u*P + s)*b + r      owner digit s
 *   identity over P:       (s)        i = s, X = P             owner digit s
 *   not distributed:       (i)        i                        no owner digit
 * X/P (or X/(P*b)) is a block-length parameter of its own: the homogeneous form
 * assumes P (or P*b) divides X. */
enum digit_size {
	DIGIT_AXIS,         /* the axis size P */
	DIGIT_LOCAL,        /* the block length X/P, or X/(P*b) for block-cyclic */
	DIGIT_BLOCK,        /* the constant b of block-cyclic */
	DIGIT_EXTENT,       /* the whole extent X (not distributed) */
};
struct digits {
	int n;
	enum digit_size size[3];
	int owner;          /* index of the owner digit, -1 if none */
};

/* The arithmetic a kind writes its share in (dist_ops.share), supplied by
 * the caller: exact integers at values, formulas on the symbolic grid; so a
 * kind writes it once, and the caller knows no kind.  The values are the
 * caller's, opaque here.  Every operation takes its operands, passes a
 * failure on (an operand NULL: NULL) and returns a new value, or NULL. */
struct dist_arith {
	void *user;
	void *(*constant)(void *user, long c);
	void *(*param)(void *user, int index);      /* the model's size INDEX */
	void *(*copy)(void *user, const void *a);
	void *(*add)(void *user, void *a, void *b);
	void *(*sub)(void *user, void *a, void *b);
	void *(*mul)(void *user, void *a, void *b);
	void *(*floor_div)(void *user, void *a, void *b);   /* NULL unless B >= 1 */
	void *(*min)(void *user, void *a, void *b);
	void (*free)(void *user, void *a);
};

struct dist_ops {
	const char *name;
	/* The set, on the common space of INDEX and COORD (both taken), where
	 * coordinate COORD owns index INDEX of a dimension of EXTENT elements
	 * (kept: an affine form on the same space, of the parameters only) on an
	 * axis of SIZE processes; COORD is known to lie in [0, SIZE).  Sizes need
	 * not divide: blocks are ceil(EXTENT/SIZE) long and the last ones may be
	 * short or empty (as HPF's BLOCK).  Built by position, with no name read
	 * or written.  NULL when ISL failed. */
	__isl_give isl_set *(*owner)(const struct dist *d, __isl_take isl_aff *index,
				     __isl_take isl_aff *coord, __isl_keep isl_aff *extent,
				     long size);
	/* The digits of an index in the symbolic grid. */
	struct digits digits;
	/* The most indices 0 <= i < X one coordinate of an axis of P processes
	 * holds (the first coordinate's: ceil(X/P) for block), X and P taken,
	 * written in AR; with sizes that break no assumption, at least 1 when
	 * X is.  NULL when AR failed. */
	void *(*share)(const struct dist *d, const struct dist_arith *ar, void *x, void *p);
	/* Every coordinate of the axis holds every index (the symbolic grid
	 * then writes the index whole, and the holders are the axis). */
	bool replicated;
};

const struct dist_ops *dist_ops(enum dist_kind kind);

/* The constant block of D's blocks when its digits have one (DIGIT_BLOCK:
 * cyclic(b)), else 1: the b of a block length X/(P*b). */
long dist_block_length(const struct dist *d);

/* ceil(X/P) in AR, X and P taken: block and cyclic's share. */
void *dist_ceil_share(const struct dist_arith *ar, void *x, void *p);

/* { f = M*k for some integer k } on F's space (F and M taken): an existential
 * equality rather than a floor of F, which keeps what F names free to be
 * eliminated by the equalities around it (ISL then never has to rewrite a
 * floor of a projected variable as inequalities). */
__isl_give isl_set *dist_multiple_of(__isl_take isl_aff *f, __isl_take isl_val *m);

/* The ops of each kind, defined in their own modules. */
extern const struct dist_ops dist_none_ops;
extern const struct dist_ops dist_block_ops;
extern const struct dist_ops dist_cyclic_ops;
extern const struct dist_ops dist_block_cyclic_ops;
extern const struct dist_ops dist_identity_ops;
extern const struct dist_ops dist_replicated_ops;

#endif
