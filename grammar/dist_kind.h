/* The kinds of one-dimensional distribution: shared by the AST (the syntax) and
 * distributions/ (their meaning as ISL constraints). */
#ifndef BSPCOST_DIST_KIND_H
#define BSPCOST_DIST_KIND_H

enum dist_kind {
	DIST_NONE,         /* '*': not distributed; the dimension uses no axis */
	DIST_BLOCK,        /* block: the paper's "linear", blocks of ceil(n/P) */
	DIST_CYCLIC,       /* cyclic: index i on coordinate i mod P */
	DIST_BLOCK_CYCLIC, /* cyclic(B): blocks of B elements dealt cyclically */
	DIST_IDENTITY,     /* identity: index i on coordinate i */
	DIST_REPLICATED,   /* replicated: every index on every coordinate (a set
			    * distribution: each element has several owners) */
	DIST_NKINDS
};

#endif
