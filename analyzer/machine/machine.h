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
	MACHINE_NKEYS
};

/* The key's name in a profile ("l", "g_us", ...). */
extern const char *const machine_key_name[MACHINE_NKEYS];

struct machine_entry {
	long p;
	bool has[MACHINE_NKEYS];
	mpq_t v[MACHINE_NKEYS];
};

struct machine {
	char *name;        /* `machine NAME` */
	char *title;       /* `title ...`: for people (NULL: none) */
	char *source;      /* `source ...`: where the numbers come from (NULL: none) */
	char *path;        /* the file read */
	bool has_s;
	mpq_t s;           /* `s`: flop/s for every p, unless an entry has its own */
	long word;         /* `word`: bytes per word (0: not said; for people) */
	int n;
	struct machine_entry *at;   /* by increasing p */
};

/* Reads the profile at PATH into M.  Returns 0; or -1 with *ERROR, a
 * malloc'd "PATH:LINE: ..." message (M is then fit for machine_clear). */
int machine_read(struct machine *m, const char *path, char **error);

/* The entry for P processes, or NULL when the profile has none. */
const struct machine_entry *machine_at(const struct machine *m, long p);

/* The numbers of processes M lists, "1, 2, 4, 8", malloc'd. */
char *machine_counts(const struct machine *m);

/* *OUT = flop/s at entry E (its own s, or the machine's); -1 when neither
 * says. */
int machine_speed(const struct machine *m, const struct machine_entry *e, mpq_t out);

void machine_clear(struct machine *m);

#endif
