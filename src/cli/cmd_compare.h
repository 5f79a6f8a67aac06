/* SPDX-License-Identifier: MIT */
/* cmd_compare.h - primcost compare's options (parsed apart from the core). */
#ifndef PC_CMD_COMPARE_H
#define PC_CMD_COMPARE_H

#include "results/compare.h"
#include "results/group.h"

#define PC_COMPARE_MAX_FILES 64
#define PC_COMPARE_MAX_GLOBS 64

enum pc_color { PC_COLOR_AUTO, PC_COLOR_ALWAYS, PC_COLOR_NEVER };

struct pc_compare_options {
	const char *files[PC_COMPARE_MAX_FILES];
	size_t nfiles;
	const char *globs[PC_COMPARE_MAX_GLOBS + 1];	/* NULL-terminated */
	size_t nglobs;
	enum pc_metric metric;
	bool metric_given;
	enum pc_stat stat;		/* --stat */
	enum pc_format format;
	enum pc_color color;
	double threshold_pct;
	double alpha;
	bool fail_on_regression;
	bool matrix;		/* --matrix: pc_compare_matrix() */
	/* --by BY: the measurement group whose view that is (group.h) */
	const struct pc_measurement_group *by;
	const char *base;		/* --base NAME: what the others are compared to */
};


/* Loads files[0..nfiles) into in[], with the names they were read from in
 * paths[]; *n counts those loaded (the documents to free). On an error,
 * reports it as cmd (pc_error) and returns -1. */
int pc_compare_load_inputs(const char *cmd, const char *const *files, size_t nfiles,
			   struct pc_compare_input *in, char (*paths)[4096], size_t *n);

/* 0: compare; 1: --help asked; -1: error in err. */
int pc_compare_options_parse(int argc, char **argv, struct pc_compare_options *o,
			     char *err, size_t errlen);

#endif
