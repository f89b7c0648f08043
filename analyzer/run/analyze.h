/* What the analysis (analyze_cmd.c) and the ranking of -p (rank_cmd.c) share;
 * analyzer/run only.  Each file given to the analysis is loaded and lowered
 * once (analyze_cmd.c), then analyzed or ranked. */
#ifndef BSPCOST_ANALYZE_H
#define BSPCOST_ANALYZE_H

#include <stdbool.h>
#include <stdio.h>

#include <isl/ctx.h>

#include "analyzer/check/load.h"
#include "analyzer/run/options.h"
#include "analyzer/cost/cost.h"
#include "analyzer/decide/rank.h"
#include "analyzer/model/model.h"
#include "analyzer/util/session.h"

/* The report of every candidate of M (loaded as LS) as options OPT ask:
 * symbolic or concrete grid, values, --verify.  Returns an exit status. */
int analyze_model(const struct loaded_spec *ls, const struct model *m,
		  const struct options *opt, struct session *session);

/* LS (checked) as the model of OPT's kind of work, or NULL after saying why
 * on OPT's error stream.  Free it with model_free. */
struct model *analyze_lower(const struct loaded_spec *ls, const struct options *opt);

/* M (of LS) analyzed or ranked as OPT asks, after its -D names are checked
 * against it: KNOWN[i] is set when -D i names something of M; with ALONE,
 * a name M does not have is an error.  *TABLES as for rank_model.  Returns
 * an exit status. */
int analyze_loaded(const struct loaded_spec *ls, const struct model *m, const struct options *opt,
		   struct session *session, int *tables, bool *known, bool alone);

/* --machine (OPT->machine_arg, and --speed): the profile read into
 * *MACHINE and OPT->machine pointed at it; nothing without one.  Returns an
 * exit status (the message on OPT's error stream); clear *MACHINE with
 * machine_clear when OPT->machine is set or this failed. */
int analyze_open_machine(struct options *opt, struct machine *machine);

/* -p: every shape of each process count of OPT, every candidate, ranked
 * (rank_cmd.c).  *TABLES counts the rankings printed in the run, the files
 * before included (CSV has one header, the text a blank line between
 * tables).  Returns an exit status. */
int rank_model(const struct loaded_spec *ls, const struct model *m, const struct options *opt,
	       struct session *session, int *tables);

/* -p with --hierarchy: every shape of each process count of OPT, every
 * numbering (or --numbering's) and every candidate, ranked by the D-BSP cost
 * on --topology's machine (hierarchy_cmd.c).  Returns an exit status. */
int hierarchy_rank_model(const struct loaded_spec *ls, const struct model *m,
			 const struct options *opt, struct session *session);

/* --numbering FILE: the grid coordinates of process 0, 1, ..., a line each,
 * into *MAP (clear it with numbering_map_clear, whatever this returns).
 * Returns EXIT_OK, or EXIT_USAGE after saying why on ERR (hierarchy_cmd.c). */
int numbering_map_read(const char *path, struct numbering_map *map, FILE *err);
void numbering_map_clear(struct numbering_map *map);

/* The machine --hierarchy prices on into *OUT: --topology's, or --machine's
 * level entries as one (built in *BUF), or NULL; with K >= 0, one that
 * gives every level of 2^K processes.  Returns EXIT_OK, or EXIT_USAGE after
 * saying why on OPT's error stream (hierarchy_cmd.c). */
int hierarchy_topology(const struct options *opt, const char *file, int k, struct topology *buf,
		       const struct topology **out);

/* --hierarchy with the sizes left free (H(i)'s formulas in them): EXIT_OK
 * when the grid of SIZES (NAXES axes; SYMBOLIC: no concrete grid) has 2^k
 * processes, no size of M is given (some but not all: neither numbers nor
 * formulas) and nothing asks for what is counted at values only (a
 * numbering file, a machine's levels, a picture); else EXIT_USAGE after
 * saying why on OPT's error stream (hierarchy_cmd.c). */
int hierarchy_formulas_asked(const struct options *opt, const char *file, const struct model *m,
			     bool symbolic, const long sizes[]);

/* Why the shape of REQ gets no number at VALUES (a malloc'd sentence,
 * *STATUS its kind), or NULL when its values can be counted (rank_cmd.c). */
char *rank_shape_refusal(isl_ctx *ctx, const struct loaded_spec *ls, const struct model *m,
			 const struct options *opt, const struct cost_request *req,
			 const long long *values, enum rank_status *status);

/* The specification's own assumptions, as written (canonical form), one per
 * condition; *N of them, each malloc'd, in a malloc'd array. */
char **spec_assumptions(const struct ast_spec *ast, int *n);

/* Whether -D gives every size parameter of M. */
bool all_params(const struct model *m, const struct options *opt);

/* Whether -D gives every size parameter and axis of M. */
bool all_values(const struct model *m, const struct options *opt);

/* Whether the values given (-D, and the grid of REQ when concrete) leave some
 * point of M's assumptions: 1 yes, 0 no, -1 when ISL failed. */
int values_meet_assumptions(isl_ctx *ctx, const struct model *m, const struct options *opt,
			    const struct cost_request *req);

/* The first implicit assumption (every axis and every extent is at least 1)
 * the values given break, as a malloc'd sentence; NULL when none is (or ISL
 * failed). */
char *broken_implicit(isl_ctx *ctx, const struct model *m, const struct options *opt,
		      const struct cost_request *req);

/* The assumptions of AST (as written, joined by ", ") that the values break,
 * malloc'd, *N of them; NULL when none can be named.  Size parameter i is
 * VALUES[i] and axis a is SIZES[a]; PKNOWN[i] and AKNOWN[a] say which are
 * known (NULL: all).  Catches what the sets of the model cannot hold, a
 * divisibility by an axis (n % P == 0). */
char *broken_assumptions(const struct ast_spec *ast, const struct model *m,
			 const long long *values, const bool *pknown, const long sizes[3],
			 const bool *aknown, int *n);

/* --machine ARG: the profile of that name (NAME.machine in $BSPCOST_MACHINES,
 * the installed profiles, or machines/ beside the binary's directory) or at
 * that path, into M.  Returns an exit status; on failure the message is on
 * ERR and M is fit for machine_clear. */
int machine_open(const char *arg, struct machine *m, FILE *err);

/* What a machine gives for one number of processes and cost function. */
struct machine_pick {
	const struct machine_entry *e;
	struct param_value coefs[COEF_N];   /* its coefficients, as -D values */
	int ncoefs;
	struct cost_prices prices;          /* the same, with w's factor */
	bool timed;                         /* seconds are known: cost / per_second */
	mpq_t per_second;                   /* the machine's s (flop/s) */
};

/* The entry of M that prices CM at P processes into *PICK (clear it with
 * machine_pick_clear, whatever this returns); -1, with the message on ERR
 * (FILE's), when M does not (the message names what M does list: no value is
 * interpolated). */
int machine_for(const struct machine *m, const struct cost_model *cm, long p, const char *file,
		struct machine_pick *pick, FILE *err);
void machine_pick_clear(struct machine_pick *pick);

/* The counting engine's settings for the analysis' workers. */
void engine_setup(struct count_engine *e);

/* --grid against M: as many sizes as M has axes, and none another than a -D
 * of the same axis gives.  Returns EXIT_OK, or EXIT_USAGE after saying why
 * on OPT's error stream. */
int grid_option_check(const char *file, const struct model *m, const struct options *opt);

#endif
