/* The sizes bspcost accepts, in one place: a concrete grid's axis (--grid,
 * -D for an axis) and the processes of a grid (a -p count, a concrete grid
 * analyzed process by process, a numbering file's lines).  Macros, so that
 * a message can write them (LIMIT_TEXT). */
#ifndef BSPCOST_LIMITS_H
#define BSPCOST_LIMITS_H

#define LIMIT_AXIS 4096
#define LIMIT_PROCESSES 65536

/* LIMIT_TEXT(LIMIT_AXIS) is "4096" */
#define LIMIT_TEXT(x) LIMIT_TEXT_(x)
#define LIMIT_TEXT_(x) #x

#endif
