/* SPDX-License-Identifier: MIT */
/* merge.h - combining result documents from many hosts (primcost merge). */
#ifndef PC_MERGE_H
#define PC_MERGE_H

#include "results.h"

struct pc_merge_stats {
	size_t cpus_added;		/* model keys new to the output */
	size_t runs_added;
	size_t runs_duplicate;		/* runs the output already held */
	size_t probes_current;		/* figures that became current */
	size_t probes_history;		/* figures moved to (or kept in) history */
};

/*
 * Merges every CPU of `in` into `out` (both valid documents; in is not
 * changed). A model key new to out is copied whole. A key out already has:
 * in's runs are appended (a run equal to one out holds, probes aside, is the
 * same run and is not repeated), and for every probe the figure of the newer
 * run (run dates as ISO 8601 text; on a tie, in's) is current while the
 * other moves to runs[k].probes of the run that measured it; but a measured
 * figure (ok) always wins over a row that was not measured (skipped,
 * unsupported, failed), whatever their dates. The cpu
 * description follows the newest run. Nothing is dropped; two different
 * figures claiming the same run of the same probe are an error.
 */
int pc_doc_merge(json_t *out, json_t *in, struct pc_merge_stats *st, char *err,
		 size_t errlen);

#endif
