/* Machine profiles: the BSP parameters of a real machine for each number of
 * processes it was measured with, read from a plain-text file (the format is
 * in bspcost(5), MACHINE PROFILES; the bundled ones are in machines/).
 *
 * Every number is kept exactly as printed (a GMP rational: 7.5, 26e6,
 * 0.007).  A number of processes the profile does not list has no entry:
 * nothing is interpolated. */
#ifndef BSPCOST_MACHINE_H
#define BSPCOST_MACHINE_H

#include <stdbool.h>

#include <gmp.h>

#include "analyzer/cost/cost_model.h"

/* What a profile gives for one number of processes.  The cost uses L and G
 * (in flops, as Hill et al.'s Table 1 gives them) and S (flop/s) for
 * seconds; the rest is kept as printed, for people (tests/brute/machine.py
 * checks the bundled microseconds against l / s and g / s). */
enum machine_key {
	MACHINE_L,       /* l: barrier synchronisation, in flops */
	MACHINE_G,       /* g: flops per word communicated */
	MACHINE_L_US,    /* l in microseconds, as printed */
	MACHINE_G_US,    /* g in microseconds, as printed */
	MACHINE_N_HALF,  /* N_1/2: the message size (words) at which g doubles */
	MACHINE_S,       /* s: flop/s (for this number of processes) */
	MACHINE_G_I,     /* g_i, g_o, g_M: Bianco and Pucci's coefficients of */
	MACHINE_G_O,     /* h_in, h_out and NCom (= M), in the profile's unit */
	MACHINE_G_M,
	MACHINE_O,       /* o: LogP's overhead of a message at each end, in the unit of l */
	MACHINE_LAT,     /* L: LogP's latency, in the unit of l */
	MACHINE_NKEYS
};

/* The key's name in a profile ("l", "g_us", ...). */
extern const char *const machine_key_name[MACHINE_NKEYS];

/* The unit of a profile's l, g, g_i, g_o and g_M (`unit`). */
enum machine_unit { UNIT_FLOPS, UNIT_S, UNIT_MS, UNIT_US };

struct machine_entry {
	long p;
	/* `p N MODEL ...`: the coefficients fitted for that cost function;
	 * NULL (`p N ...`): l and g, for every function of g and l alone (bsp,
	 * F_h, overlap) */
	const struct cost_model *model;
	bool has[MACHINE_NKEYS];
	mpq_t v[MACHINE_NKEYS];
};

/* `level C g G l L [pf PF]`: the D-BSP parameters of a cluster of C
 * processes (a power of two, at least 2): an h-relation inside it costs
 * h*G + L, a parallel prefix PF (0 when not said); in the profile's unit
 * and per its word, as the entries' l and g (machine_level). */
struct machine_level {
	long p;
	mpq_t g, l, pf;
};

struct machine {
	char *name;        /* `machine NAME` */
	char *title;       /* `title ...`: for people (NULL: none) */
	char *source;      /* `source ...`: where the numbers come from (NULL: none) */
	char *path;        /* the file read */
	bool has_s;
	mpq_t s;           /* `s`: flop/s for every p, unless an entry has its own */
	bool s_forced;     /* S is the user's (--speed): it wins over the entries' */
	long word;         /* `word`: bytes per word (0: not said) */
	enum machine_unit unit;   /* `unit`: of the coefficients (flops by default) */
	bool unit_given;
	bool per_byte;     /* `per byte`: the g's are per byte (then `word` is needed) */
	int n;
	struct machine_entry *at;   /* by increasing p */
	int nlevels;
	struct machine_level *levels;   /* by increasing p */
};

/* Reads the profile at PATH into M.  Returns 0; or -1 with *ERROR, a
 * malloc'd "PATH[:LINE]: error: ..." message, a diagnostic of the profile
 * (M is then fit for machine_clear). */
int machine_read(struct machine *m, const char *path, char **error);

/* The entry that prices cost function CM at P processes: the one fitted for
 * CM; for bsp, the one fitted for F_h (the same function), and the other way
 * round; else the entry of l and g alone when CM reads no other coefficient.
 * NULL when the profile has none. */
const struct machine_entry *machine_at(const struct machine *m, long p,
				       const struct cost_model *cm);

/* The numbers of processes at which M prices CM, "1, 2, 4, 8", malloc'd
 * ("" when none). */
char *machine_counts(const struct machine *m, const struct cost_model *cm);

/* The cost functions M prices at some number of processes, "bsp, F_h,
 * overlap" (in cost_model order), malloc'd. */
char *machine_models(const struct machine *m);

/* Entry E's coefficients into P (initialized for a cost function): every
 * one it gives, per word (times `word` when the profile counts bytes) and in
 * flops (times s when the profile's unit is a time, so that they add to w),
 * and *SPEED = s.  Returns 0; 1 when the profile has no s and its unit is
 * flops (the prices hold, there are no seconds); -1 when it has no s and its
 * unit is a time (no prices). */
int machine_prices(const struct machine *m, const struct machine_entry *e,
		   struct cost_prices *p, mpq_t speed);

/* *OUT = flop/s at entry E (its own s, or the machine's); -1 when neither
 * says. */
int machine_speed(const struct machine *m, const struct machine_entry *e, mpq_t out);

/* The level of M for clusters of P processes, its g, l and Pf in flops a
 * word (times s for a unit of time, times `word` for a g per byte) into G,
 * L and PF.  Returns 0; -1 when M has no such level, or no speed where its
 * unit is a time. */
int machine_level(const struct machine *m, long p, mpq_t g, mpq_t l, mpq_t pf);

void machine_clear(struct machine *m);

#endif
