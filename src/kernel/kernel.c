/* SPDX-License-Identifier: MIT */
/*
 * kernel.c - the kernel group (kernel.h): its rows planned, each entry
 * self-checked in the kernel and then timed by the engine's method through
 * the module's kernel ioctl (an executor whose loop is one ioctl), the
 * contended spin lock in windows, and the results filed.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kernel.h"
#include "alloc/alloc.h"
#include "core/contain.h"
#include "core/executor.h"
#include "core/primcost.h"
#include "core/select.h"
#include "core/stats.h"
#include "core/util.h"
#include "results/group.h"
#include "results/results.h"
#if defined(__x86_64__)
#include "ring0/ring0_backend.h"
#endif

#define KE_ROW(id, name, touches, twin, what) [PC_KE_##id] = "kernel." name,
const char *const pc_kernel_row_names[PC_KE_COUNT + 1] = { PC_KERNEL_ENTRIES(KE_ROW)
							   PC_KERNEL_CONTENDED };
#undef KE_ROW
#define KE_TOUCHES(id, name, touches, twin, what) [PC_KE_##id] = touches,
const unsigned pc_kernel_entry_touches[PC_KE_COUNT] = { PC_KERNEL_ENTRIES(KE_TOUCHES) };
#undef KE_TOUCHES
#define KE_TWIN(id, name, touches, twin, what) [PC_KE_##id] = twin,
const char *const pc_kernel_entry_twins[PC_KE_COUNT] = { PC_KERNEL_ENTRIES(KE_TWIN) };
#undef KE_TWIN
#define KE_WHAT(id, name, touches, twin, what) [PC_KE_##id] = what,
const char *const pc_kernel_entry_whats[PC_KE_COUNT] = { PC_KERNEL_ENTRIES(KE_WHAT) };
#undef KE_WHAT

/* ---- selection ----------------------------------------------------------------- */

int pc_kernel_select(const char *list, struct pc_kernel_options *o, char *err, size_t errlen)
{
	bool hit[PC_KE_COUNT + 1];
	int n = pc_select_names(list, pc_kernel_row_names, PC_KE_COUNT + 1, hit,
				"the kernel group: kernel.*, see primcost list", err, errlen);

	if (n < 0)
		return -1;
	memcpy(o->entries, hit, sizeof(o->entries));
	o->contended = hit[PC_KE_COUNT];
	return n;
}

/* ---- the module ----------------------------------------------------------------- */

static int kernel_ioctl(int fd, struct pc_kernel_cmd *c, char *err, size_t errlen)
{
	if (ioctl(fd, PC_KMOD_IOC_KERNEL, c) == 0)
		return 0;
	if (errno == ENOTTY)
		snprintf(err, errlen, "the primcost_ring0 module loaded has no kernel "
			 "ioctl (an older build): unload it and load this version's");
	else
		snprintf(err, errlen, "%s: %s", PC_KMOD_DEVICE, strerror(errno));
	return -1;
}

int pc_kernel_open(const void *opts, void *state, char *err, size_t errlen)
{
	struct pc_kernel_run *kr = state;
	struct pc_kernel_cmd c;
	char why[400];
	long n;

	(void)opts;
	kr->fd = -1;
#if defined(__x86_64__)
	kr->kmod = pc_ring0_kmod_open(NULL, true, why, sizeof(why));
	if (kr->kmod)
		kr->fd = pc_ring0_kmod_fd(kr->kmod);
#else
	snprintf(why, sizeof(why), "the kernel module is x86-64 only");
#endif
	if (kr->fd < 0) {
		snprintf(err, errlen, "kernel group unsupported: %s", why);
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_INFO;
	if (kernel_ioctl(kr->fd, &c, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "kernel group unsupported: %s", why);
		return -1;
	}
	kr->config = c.config | pc_kernel_config_read(PC_KERNEL_ROOT, c.kmalloc_max,
						      kr->cache_alias, sizeof(kr->cache_alias));
	kr->kmalloc_max = c.kmalloc_max;
	kr->page_shift = c.page_shift;
	kr->preempt = c.preempt;
	memcpy(kr->release, c.release, sizeof(kr->release));
	kr->release[sizeof(kr->release) - 1] = 0;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	kr->online = n < 1 ? 1 : n > PC_KERNEL_MAX_THREADS ? PC_KERNEL_MAX_THREADS : (unsigned)n;
	/* the remote rows' pairs, read before the thread is pinned; none
	 * on one CPU, and those rows then say why */
	if (pc_alloc_pairs(kr->pairs, &kr->npairs, why, sizeof(why)) < 0) {
		kr->npairs = 0;
		snprintf(kr->no_pairs, sizeof(kr->no_pairs), "%.150s", why);
	}
	return 0;
}

void pc_kernel_close(void *state)
{
	struct pc_kernel_run *kr = state;

#if defined(__x86_64__)
	if (kr->kmod)
		pc_ring0_kmod_backend.close(kr->kmod);
#endif
	kr->kmod = NULL;
	free(kr->rows);
	kr->rows = NULL;
}

/* ---- the plan ------------------------------------------------------------------- */

static int plan(const struct pc_kernel_options *o, struct pc_kernel_run *kr,
		struct pc_profile *prof)
{
	size_t cap = PC_KE_COUNT * PC_KERNEL_SIZES * (PC_ALLOC_PAIRS + 1) + 8, n = 0;
	unsigned s, t, p;
	int e;

	kr->rows = calloc(cap, sizeof(*kr->rows));
	prof->probes = calloc(cap, sizeof(*prof->probes));
	if (!kr->rows || !prof->probes)
		return -1;
	for (e = 0; e < PC_KE_COUNT; e++) {
		if (!o->entries[e])
			continue;
		/* a remote row at each pair of CPUs (one, unsupported, where
		 * there is none), size by size */
		for (p = 0; p < (PC_KE_REMOTE(e) && kr->npairs ? kr->npairs : 1); p++)
			for (s = 0; s < (PC_KE_SIZED(e) ? PC_KERNEL_SIZES : 1); s++)
				kr->rows[n++] = (struct pc_kernel_row){
					.entry = e, .size = PC_KE_SIZED(e) ? 8u << s : 0,
					.pair = PC_KE_REMOTE(e) && kr->npairs ? (int)p : -1 };
	}
	for (t = 1; o->contended && t <= kr->online; t *= 2)
		kr->rows[n++] = (struct pc_kernel_row){ .entry = -1, .pair = -1, .threads = t };
	kr->nrows = prof->nprobes = n;
	for (n = 0; n < kr->nrows; n++) {
		/* timed in the kernel, but not through the ring-0 target of the
		 * probe table's copies: the engine calibrates it here, as a
		 * caller's body (the file says ring 0) */
		prof->probes[n].ring = 3;
		prof->probes[n].linearity = NAN;
		prof->probes[n].round_spread = NAN;
	}
	return 0;
}

/* ---- the entries, by the engine ------------------------------------------------- */

struct kernel_loop {
	int fd;
	struct pc_kernel_row *row;
	char why[192];		/* the first failure, or "" */
};

/* One loop of the engine: one ioctl, or several summed when the engine
 * asks for more iterations than one window may hold. 0 after a failure. */
static uint64_t kernel_run(void *ctx, int probe, struct pc_probe_state *st, uint64_t iters,
			   int hi)
{
	struct kernel_loop *l = ctx;
	uint64_t ticks = 0, max = PC_KERNEL_MAX_OPS / PC_UNROLL_HI, n;
	struct pc_kernel_cmd c;
	char err[160];

	(void)probe;
	(void)st;
	while (iters && !l->why[0]) {
		n = iters < max ? iters : max;
		memset(&c, 0, sizeof(c));
		c.op = PC_KERNEL_OP_RUN;
		c.entry = (uint32_t)l->row->entry;
		c.size = l->row->size;
		c.iters = n;
		c.hi = hi != 0;
		if (kernel_ioctl(l->fd, &c, err, sizeof(err)) < 0)
			snprintf(l->why, sizeof(l->why), "%s", err);
		else if (c.status != PC_KERNEL_OK)
			snprintf(l->why, sizeof(l->why), "%s", c.reason);
		l->row->nulls += c.nulls;
		ticks += c.ticks;
		iters -= n;
	}
	return l->why[0] ? 0 : ticks;
}

static const struct pc_executor kernel_executor = { NULL, kernel_run };

/* The entry's self-check in the kernel: 0 when it passed; else r says
 * why (failed, or unsupported where this kernel lacks it). */
static int selfcheck(struct pc_kernel_run *kr, struct pc_kernel_row *row,
		     struct pc_probe_result *r, char *err, size_t errlen)
{
	struct pc_kernel_cmd c;

	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_SELFCHECK;
	c.entry = (uint32_t)row->entry;
	c.size = row->size;
	if (kernel_ioctl(kr->fd, &c, err, errlen) < 0)
		return -1;
	if (c.status == PC_KERNEL_OK)
		return 0;
	row->check_failed = c.status == PC_KERNEL_CHECK_FAILED;
	r->status = c.status == PC_KERNEL_UNSUPPORTED ? PC_STATUS_UNSUPPORTED : PC_STATUS_FAILED;
	snprintf(r->reason, sizeof(r->reason), "%s%s",
		 c.status == PC_KERNEL_CHECK_FAILED ? "self-check failed in the kernel: " : "",
		 c.reason);
	return 0;
}

static int measure_entries(struct pc_kernel_run *kr, const struct pc_measure_config *cfg,
			   const struct pc_clock *clk, struct pc_profile *prof, char *err,
			   size_t errlen)
{
	struct pc_measure_item *items = calloc(kr->nrows + 1, sizeof(*items));
	struct kernel_loop *loops = calloc(kr->nrows + 1, sizeof(*loops));
	size_t i, n = 0;
	int rc = -1;

	if (!items || !loops) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < kr->nrows; i++) {
		struct pc_kernel_row *row = &kr->rows[i];

		if (row->entry < 0 || PC_KE_BATCH(row->entry) || PC_KE_REMOTE(row->entry))
			continue;
		if (selfcheck(kr, row, &prof->probes[i], err, errlen) < 0)
			goto out;
		loops[n] = (struct kernel_loop){ kr->fd, row, "" };
		items[n].r = &prof->probes[i];
		items[n].body = (struct pc_body){ &kernel_executor, &loops[n] };
		/* the allocator's slow paths come every so many calls */
		items[n].loops_vary = PC_KE_SIZED(row->entry) ||
				      row->entry == PC_KE_kmem_cache_alloc_free;
		items[n].spread_limit = items[n].loops_vary ? PC_NOISY_SPREAD_ALLOC : 0;
		if (row->size)
			snprintf(items[n].name, sizeof(items[n].name), "%s/%u",
				 pc_kernel_row_names[row->entry], row->size);
		else
			snprintf(items[n].name, sizeof(items[n].name), "%s",
				 pc_kernel_row_names[row->entry]);
		n++;
	}
	rc = n ? pc_measure_items(items, n, cfg, clk, prof, err, errlen) : 0;
	for (i = 0; rc == 0 && i < n; i++) {
		struct pc_probe_result *r = items[i].r;

		if (loops[i].why[0]) {
			r->status = PC_STATUS_FAILED;
			snprintf(r->reason, sizeof(r->reason), "in the kernel: %s", loops[i].why);
		} else if (loops[i].row->nulls) {
			r->status = PC_STATUS_FAILED;
			snprintf(r->reason, sizeof(r->reason), "kmalloc(%u) returned NULL "
				 "%llu times", loops[i].row->size,
				 (unsigned long long)loops[i].row->nulls);
		}
	}
out:
	free(items);
	free(loops);
	return rc;
}

/* ---- the 2007 pattern, in batches ------------------------------------------------ */

/* The rows of one size of the 2007 pattern: its kmalloc.batch10000 and
 * kfree.batch10000 results (either NULL where not selected), and the
 * mean ticks a call of each of its batches. */
struct batch_size {
	unsigned size;
	struct pc_kernel_row *row[2];
	struct pc_probe_result *r[2];
	double *v[2];
	unsigned n;
	bool refused;		/* its self-check failed, or it is unsupported */
	bool unsupported;	/* its batch is: why says why */
	char why[192];		/* the first failure of its batches, or "" */
};

/* One batch of the size: its two means into v[], or why not. 1 when the
 * caller got a fatal signal (the batch's ioctl said EINTR), -1 on error. */
static int batch_once(int fd, struct batch_size *b, bool keep)
{
	struct pc_kernel_cmd c;
	char err[160];

	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_BATCH;
	c.entry = PC_KE_kmalloc_batch10000;
	c.size = b->size;
	c.count = PC_KERNEL_BATCH;
	if (kernel_ioctl(fd, &c, err, sizeof(err)) < 0) {
		snprintf(b->why, sizeof(b->why), "%s", err);
		return errno == EINTR ? 1 : -1;
	}
	if (c.status != PC_KERNEL_OK || c.nulls) {
		if (c.nulls)
			snprintf(b->why, sizeof(b->why), "kmalloc(%u) returned NULL %llu times "
				 "in a batch of %d", b->size, (unsigned long long)c.nulls,
				 PC_KERNEL_BATCH);
		else
			snprintf(b->why, sizeof(b->why), "%s", c.reason);
		b->unsupported = c.status == PC_KERNEL_UNSUPPORTED && !c.nulls;
		return 0;
	}
	if (keep) {
		b->v[0][b->n] = (double)c.ticks / PC_KERNEL_BATCH;
		b->v[1][b->n] = (double)c.ticks_free / PC_KERNEL_BATCH;
		b->n++;
	}
	return 0;
}

/* The figures of one row from its samples' means (batches of ops calls):
 * the engine's summary, cycles by the run's calibration; noisy where the
 * samples spread over the allocator's limit (not judged when emulated). */
static void batch_figures(struct pc_probe_result *r, const double *v, unsigned n,
			  double cpt, const struct pc_clock *clk, bool emulated, uint64_t ops)
{
	double spread;

	if (pc_summarize(v, n, &r->ticks) < 0) {
		r->status = PC_STATUS_FAILED;
		snprintf(r->reason, sizeof(r->reason), "no batch measured");
		return;
	}
	r->status = PC_STATUS_OK;
	r->samples = n;
	r->iters = ops;
	r->ops_per_sample = ops;
	r->cycles_source = PC_CYCLES_CALIBRATED;
	r->cycles_per_tick = cpt;
	r->cycles = pc_summary_scale(&r->ticks, cpt);
	r->ns = pc_summary_scale(&r->ticks, 1e9 / clk->tick_hz);
	spread = r->ticks.median > 0 ? r->ticks.mad / r->ticks.median : 0;
	if (!emulated && spread > PC_NOISY_SPREAD_ALLOC) {
		r->status = PC_STATUS_NOISY;
		snprintf(r->reason, sizeof(r->reason), "its batches spread by %.0f %% (MAD over "
			 "median; over %.0f %%)", 100 * spread, 100 * PC_NOISY_SPREAD_ALLOC);
	}
}

/* The sizes of the 2007 pattern's rows, each with what was selected of
 * it; how many. */
static unsigned batch_sizes(struct pc_kernel_run *kr, struct pc_profile *prof,
			    struct batch_size *b)
{
	unsigned n = 0, k, j;
	size_t i;

	for (i = 0; i < kr->nrows; i++) {
		struct pc_kernel_row *row = &kr->rows[i];

		if (row->entry < 0 || !PC_KE_BATCH(row->entry))
			continue;
		for (j = 0; j < n && b[j].size != row->size; j++)
			;
		if (j == n)
			b[n++] = (struct batch_size){ .size = row->size };
		k = row->entry == PC_KE_kfree_batch10000;
		b[j].row[k] = row;
		b[j].r[k] = &prof->probes[i];
	}
	return n;
}

/*
 * The 2007 pattern: PC_KERNEL_BATCH kmalloc()s of a size, then their
 * kfree()s, each pass timed as a whole and its mean a call the sample, as
 * the 2007 table was made; one warm-up batch a size, then the samples in
 * rounds, a batch of every size in each, so that a phase of the host
 * touches every size alike.
 */
static int measure_batches(struct pc_kernel_run *kr, const struct pc_measure_config *cfg,
			   const struct pc_clock *clk, struct pc_profile *prof, char *err,
			   size_t errlen)
{
	struct batch_size b[PC_KERNEL_SIZES];
	unsigned nb = batch_sizes(kr, prof, b), s, k, round;
	double cpt = prof->cycles_per_tick;
	int rc = 0, got;

	if (!nb)
		return 0;
	for (s = 0; s < nb; s++) {
		struct pc_kernel_row *row = b[s].row[0] ? b[s].row[0] : b[s].row[1];
		struct pc_probe_result *r = b[s].r[0] ? b[s].r[0] : b[s].r[1];

		b[s].v[0] = calloc(cfg->samples + 1, sizeof(double));
		b[s].v[1] = calloc(cfg->samples + 1, sizeof(double));
		if (!b[s].v[0] || !b[s].v[1]) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
			goto out;
		}
		if ((rc = selfcheck(kr, row, r, err, errlen)) < 0)
			goto out;
		/* failed or unsupported: both rows of the size say so */
		b[s].refused = r->status != PC_STATUS_OK;
		for (k = 0; k < 2; k++)
			if (b[s].r[k] && b[s].r[k] != r) {
				b[s].r[k]->status = r->status;
				memcpy(b[s].r[k]->reason, r->reason, sizeof(r->reason));
			}
	}
	if (!(cpt > 0) && (rc = pc_calibrate(clk, 21, cfg->sample_s, &cpt, err, errlen)) < 0)
		goto out;
	if (!(prof->cycles_per_tick > 0))
		prof->cycles_per_tick = cpt;
	for (round = 0; round <= cfg->samples && !prof->interrupted; round++) {
		pc_progress(cfg, round ? "round" : "warm-up", round ? round : 1,
			    round ? cfg->samples : 1, pc_kernel_row_names[PC_KE_kmalloc_batch10000]);
		for (s = 0; s < nb; s++) {
			if (b[s].refused || b[s].why[0])
				continue;
			if ((got = batch_once(kr->fd, &b[s], round > 0)) < 0) {
				snprintf(err, errlen, "%s", b[s].why);
				rc = -1;
				goto out;
			}
			if (got > 0 || pc_interrupted()) {
				prof->interrupted = pc_interrupted() ? pc_interrupted() : SIGINT;
				break;
			}
		}
	}
	for (s = 0; s < nb; s++)
		for (k = 0; k < 2; k++) {
			struct pc_probe_result *r = b[s].r[k];

			if (!r || b[s].refused)
				continue;
			if (b[s].unsupported) {
				r->status = PC_STATUS_UNSUPPORTED;
				snprintf(r->reason, sizeof(r->reason), "%s", b[s].why);
			} else if (b[s].why[0]) {
				r->status = PC_STATUS_FAILED;
				snprintf(r->reason, sizeof(r->reason), "in the kernel: %s", b[s].why);
			} else if (!b[s].n && prof->interrupted) {
				r->status = PC_STATUS_SKIPPED;
				r->partial = true;
				snprintf(r->reason, sizeof(r->reason), "interrupted before it was "
					 "measured");
			} else {
				batch_figures(r, b[s].v[k], b[s].n, cpt, clk, cfg->emulated,
					      PC_KERNEL_BATCH);
				r->partial = prof->interrupted != 0;
			}
		}
out:
	for (s = 0; s < nb; s++) {
		free(b[s].v[0]);
		free(b[s].v[1]);
	}
	return rc;
}

/* ---- the remote pattern ------------------------------------------------------------ */

/* The remote rows of one size on one pair of CPUs: their kmalloc.remote
 * and kfree.remote results (either NULL where not selected). */
struct remote_set {
	int pair;
	unsigned size;
	struct pc_kernel_row *row[2];
	struct pc_probe_result *r[2];
};

/* One REMOTE command: the near end's ticks a kmalloc and the far end's a
 * kfree into near and far; 0, or 1 with why (unsupported: *refused), -1
 * with why when the module refused the command itself. */
static int remote_once(struct pc_kernel_run *kr, const struct remote_set *set, double *near,
		       double *far, unsigned long *objects, unsigned long *freed, char *why,
		       size_t len, bool *refused)
{
	const struct pc_alloc_pair *pair = &kr->pairs[set->pair];
	struct pc_kernel_cmd c;

	memset(&c, 0, sizeof(c));
	c.op = PC_KERNEL_OP_REMOTE;
	c.entry = PC_KE_kmalloc_remote;
	c.size = set->size;
	c.count = PC_KERNEL_REMOTE_BATCHES;
	c.cpus[0] = (uint32_t)pair->cpus[0];
	c.cpus[1] = (uint32_t)pair->cpus[1];
	if (kernel_ioctl(kr->fd, &c, why, len) < 0)
		return -1;
	*objects += (unsigned long)c.count * PC_KERNEL_REMOTE_OBJS;
	*freed += c.ops;
	if (c.status != PC_KERNEL_OK || c.nulls) {
		*refused = c.status == PC_KERNEL_UNSUPPORTED;
		if (c.nulls)
			snprintf(why, len, "kmalloc(%u) returned NULL %llu times", set->size,
				 (unsigned long long)c.nulls);
		else
			snprintf(why, len, "%s", c.reason);
		return 1;
	}
	*near = (double)c.ticks / (PC_KERNEL_REMOTE_BATCHES * PC_KERNEL_REMOTE_OBJS);
	*far = (double)c.ticks_free / (PC_KERNEL_REMOTE_BATCHES * PC_KERNEL_REMOTE_OBJS);
	return 0;
}

/* The remote sets of the rows selected; how many. */
static unsigned remote_sets(struct pc_kernel_run *kr, struct pc_profile *prof,
			    struct remote_set *set, unsigned max)
{
	unsigned n = 0, j, k;
	size_t i;

	for (i = 0; i < kr->nrows; i++) {
		struct pc_kernel_row *row = &kr->rows[i];

		if (row->entry < 0 || !PC_KE_REMOTE(row->entry))
			continue;
		for (j = 0; j < n && (set[j].size != row->size || set[j].pair != row->pair); j++)
			;
		if (j == n && n < max)
			set[n++] = (struct remote_set){ .pair = row->pair, .size = row->size };
		if (j == n)
			continue;
		k = row->entry == PC_KE_kfree_remote;
		set[j].row[k] = row;
		set[j].r[k] = &prof->probes[i];
	}
	return n;
}

/* One set's samples into its rows' figures, or why not. */
static int remote_point(struct pc_kernel_run *kr, struct remote_set *set,
			const struct pc_measure_config *cfg, const struct pc_clock *clk,
			double cpt, char *err, size_t errlen)
{
	double *v[2] = { calloc(cfg->samples, sizeof(double)), calloc(cfg->samples, sizeof(double)) };
	unsigned long objects = 0, freed = 0;
	bool refused = false;
	char why[192] = "";
	unsigned s, k;
	int rc = 0, got = 0;

	if (!v[0] || !v[1]) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
		goto out;
	}
	for (s = 0; s <= cfg->samples && got == 0 && !pc_interrupted(); s++)
		got = remote_once(kr, set, &v[0][s ? s - 1 : 0], &v[1][s ? s - 1 : 0], &objects,
				  &freed, why, sizeof(why), &refused);
	if (got < 0) {
		snprintf(err, errlen, "%s", why);
		rc = -1;
		goto out;
	}
	for (k = 0; k < 2; k++) {
		struct pc_probe_result *r = set->r[k];

		if (!r)
			continue;
		set->row[k]->objects = objects;
		set->row[k]->freed = freed;
		if (got > 0) {
			r->status = refused ? PC_STATUS_UNSUPPORTED : PC_STATUS_FAILED;
			snprintf(r->reason, sizeof(r->reason), "%s%s", refused ? "" :
				 "in the kernel: ", why);
		} else if (s <= cfg->samples) {
			r->status = PC_STATUS_SKIPPED;
			r->partial = true;
			snprintf(r->reason, sizeof(r->reason), "interrupted before it was measured");
		} else {
			batch_figures(r, v[k], cfg->samples, cpt, clk, cfg->emulated,
				      PC_KERNEL_REMOTE_BATCHES * PC_KERNEL_REMOTE_OBJS);
		}
	}
out:
	free(v[0]);
	free(v[1]);
	return rc;
}

/*
 * The remote pattern: objects kmalloc()ed on one CPU and kfree()d on
 * another by kernel threads the module binds there, handed over through a
 * ring that is not timed (the module's REMOTE command), at each pair of
 * CPUs of the allocator group's placements; each sample a command of
 * PC_KERNEL_REMOTE_BATCHES batches, after one untimed, the kfree()s on the
 * far CPU counted there.
 */
static int measure_remote(struct pc_kernel_run *kr, const struct pc_measure_config *cfg,
			  const struct pc_clock *clk, struct pc_profile *prof, char *err,
			  size_t errlen)
{
	struct remote_set set[PC_ALLOC_PAIRS * PC_KERNEL_SIZES];
	unsigned n = remote_sets(kr, prof, set, PC_ALLOC_PAIRS * PC_KERNEL_SIZES), s, k;
	double cpt = prof->cycles_per_tick;

	for (s = 0; s < n; s++) {
		struct pc_kernel_row *row = set[s].row[0] ? set[s].row[0] : set[s].row[1];
		struct pc_probe_result *r = set[s].r[0] ? set[s].r[0] : set[s].r[1];

		if (set[s].pair < 0) {
			for (k = 0; k < 2; k++)
				if (set[s].r[k]) {
					set[s].r[k]->status = PC_STATUS_UNSUPPORTED;
					snprintf(set[s].r[k]->reason, sizeof(set[s].r[k]->reason),
						 "%s", kr->no_pairs);
				}
			continue;
		}
		if (selfcheck(kr, row, r, err, errlen) < 0)
			return -1;
		if (r->status != PC_STATUS_OK) {
			for (k = 0; k < 2; k++)
				if (set[s].r[k] && set[s].r[k] != r) {
					set[s].r[k]->status = r->status;
					memcpy(set[s].r[k]->reason, r->reason, sizeof(r->reason));
				}
			continue;
		}
		if (!(cpt > 0) && pc_calibrate(clk, 21, cfg->sample_s, &cpt, err, errlen) < 0)
			return -1;
		if (!(prof->cycles_per_tick > 0))
			prof->cycles_per_tick = cpt;
		pc_progress(cfg, "round", s + 1, n, pc_kernel_row_names[PC_KE_kmalloc_remote]);
		if (remote_point(kr, &set[s], cfg, clk, cpt, err, errlen) < 0)
			return -1;
	}
	if (pc_interrupted() && !prof->interrupted)
		prof->interrupted = pc_interrupted();
	return 0;
}

/* ---- the contended spin lock, in windows ------------------------------------------ */

static void contended_point(struct pc_kernel_run *kr, struct pc_kernel_row *row,
			    unsigned windows, double cycles_per_tick, const struct pc_clock *clk,
			    struct pc_probe_result *r)
{
	double *v = calloc(windows, sizeof(*v));
	struct pc_kernel_cmd c;
	char err[160];
	unsigned w, n = 0;

	r->status = PC_STATUS_FAILED;
	if (!v) {
		snprintf(r->reason, sizeof(r->reason), "out of memory");
		return;
	}
	for (w = 0; w < windows; w++) {
		memset(&c, 0, sizeof(c));
		c.op = PC_KERNEL_OP_CONTEND;
		c.threads = row->threads;
		c.window_us = PC_KERNEL_WINDOW_US;
		if (kernel_ioctl(kr->fd, &c, err, sizeof(err)) < 0) {
			snprintf(r->reason, sizeof(r->reason), "%s", err);
			goto out;
		}
		if (c.status != PC_KERNEL_OK) {
			row->check_failed = c.status == PC_KERNEL_CHECK_FAILED;
			if (c.status == PC_KERNEL_UNSUPPORTED)
				r->status = PC_STATUS_UNSUPPORTED;
			snprintf(r->reason, sizeof(r->reason), "%s", c.reason);
			goto out;
		}
		if (c.ops)	/* every thread's ticks over all their pairs */
			v[n++] = (double)c.ticks / (double)c.ops;
		r->ops_per_sample += c.ops;
	}
	if (n < windows || pc_summarize(v, n, &r->ticks) < 0) {
		snprintf(r->reason, sizeof(r->reason), "a window without a lock+unlock pair");
		goto out;
	}
	r->status = PC_STATUS_OK;
	r->samples = n;
	r->ops_per_sample /= n;
	r->iters = r->ops_per_sample ? r->ops_per_sample : 1;	/* pairs a window */
	r->cycles_source = PC_CYCLES_CALIBRATED;
	r->cycles_per_tick = cycles_per_tick;
	r->cycles = pc_summary_scale(&r->ticks, cycles_per_tick);
	r->ns = pc_summary_scale(&r->ticks, 1e9 / clk->tick_hz);
out:
	free(v);
}

static int measure_contended(struct pc_kernel_run *kr, const struct pc_measure_config *cfg,
			     const struct pc_clock *clk, struct pc_profile *prof, char *err,
			     size_t errlen)
{
	unsigned windows = cfg->samples < PC_KERNEL_WINDOWS ? cfg->samples : PC_KERNEL_WINDOWS;
	double cpt = prof->cycles_per_tick;
	size_t i;

	for (i = 0; i < kr->nrows; i++) {
		if (kr->rows[i].entry >= 0)
			continue;
		if (!(cpt > 0) &&
		    pc_calibrate(clk, 21, cfg->sample_s, &cpt, err, errlen) < 0)
			return -1;
		if (!(prof->cycles_per_tick > 0))
			prof->cycles_per_tick = cpt;
		contended_point(kr, &kr->rows[i], windows, cpt, clk, &prof->probes[i]);
	}
	return 0;
}

int pc_kernel_measure(const void *opts, void *state, const struct pc_measure_config *cfg,
		      const struct pc_clock *clk, struct pc_profile *prof, char *err,
		      size_t errlen)
{
	struct pc_kernel_run *kr = state;

	memset(prof, 0, sizeof(*prof));
	if (plan(opts, kr, prof) < 0) {
		pc_profile_free(prof);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (measure_entries(kr, cfg, clk, prof, err, errlen) < 0 ||
	    measure_batches(kr, cfg, clk, prof, err, errlen) < 0 ||
	    measure_remote(kr, cfg, clk, prof, err, errlen) < 0 ||
	    measure_contended(kr, cfg, clk, prof, err, errlen) < 0)
		return -1;
	if (cfg->emulated && !prof->unreliable) {
		prof->unreliable = true;
		snprintf(prof->unreliable_reason, sizeof(prof->unreliable_reason),
			 "the CPU is emulated: the kernel's figures are the emulator's");
	}
	return 0;
}

/* ---- the results ------------------------------------------------------------------ */

static json_t *figures(const struct pc_probe_result *r, json_t *p, const char *inflated)
{
	if (!p)
		return NULL;
	if (pc_json_outcome(p, r))
		pc_json_figures(p, r);
	if (inflated[0])
		json_object_set_new(p, "inflated_by", json_string(inflated));
	return p;
}

/* Its contended spin lock's points: threads on CPUs 0 .. threads-1, one
 * kernel thread each; named by their count (kernel.spin_lock.contended.threads2). */
static int threads_check(json_t *pt, const char *where, char *err, size_t errlen)
{
	json_t *v = json_object_get(pt, "threads");

	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > 65536)
		return pc_fail(err, errlen, "%s.threads: not a thread count", where);
	if (!json_is_string(json_object_get(pt, "cpus")))
		return pc_fail(err, errlen, "%s.cpus: missing or not a string", where);
	return 0;
}

static int threads_name(char *buf, size_t len, const char *probe, json_t *pt)
{
	return snprintf(buf, len, "%s.threads%lld", probe,
			(long long)json_integer_value(json_object_get(pt, "threads")));
}

/* Its key; its x axis: word, title, tag; its check and name (group.h). */
const struct pc_point_shape pc_kernel_threads_shape = {
	"threads", "threads", "threads", "threads", threads_check, threads_name,
};

/* A remote point's pair of CPUs (the allocator group's keys) and the
 * objects handed over and kfree()d on the far CPU. */
static void remote_keys(json_t *pt, const struct pc_alloc_pair *pair,
			const struct pc_kernel_row *row)
{
	char cpus[32];

	snprintf(cpus, sizeof(cpus), "%d,%d", pair->cpus[0], pair->cpus[1]);
	json_object_set_new(pt, "placement", json_string(pair->placement));
	json_object_set_new(pt, "cpus", json_string(cpus));
	json_object_set_new(pt, "class", json_string(pair->cls));
	if (row->objects) {
		json_object_set_new(pt, "objects", json_integer((json_int_t)row->objects));
		json_object_set_new(pt, "freed_far", json_integer((json_int_t)row->freed));
	}
}

json_t *pc_kernel_json_probes(const void *state, const struct pc_profile *prof,
			      const struct pc_clock *clk)
{
	const struct pc_kernel_run *kr = state;
	struct pc_points sized[PC_KE_COUNT] = { { NULL, 0 } }, cont = { NULL, 0 };
	json_t *probes = json_object();
	char inflated[160], served[64];
	size_t i;
	int e;

	(void)clk;

	for (i = 0; probes && i < kr->nrows && i < prof->nprobes; i++) {
		const struct pc_kernel_row *row = &kr->rows[i];
		const struct pc_probe_result *r = &prof->probes[i];

		pc_kernel_inflated_by(kr->config, row->entry < 0 ? PC_KT_LOCK :
				      pc_kernel_entry_touches[row->entry], inflated,
				      sizeof(inflated));
		if (row->entry < 0) {
			char cpus[16];

			if (row->threads > 1)
				snprintf(cpus, sizeof(cpus), "0-%u", row->threads - 1);
			else
				snprintf(cpus, sizeof(cpus), "0");
			pc_points_add(&cont, &pc_group_kernel, figures(r, json_pack(
				"{s:i, s:s, s:s}", "threads", row->threads, "cpus", cpus,
				"status", pc_status_name(r->status)), inflated), r->status);
		} else if (PC_KE_SIZED(row->entry)) {
			json_t *pt = json_pack("{s:i, s:s, s:s}", "size", row->size,
					       "allocator", "kmalloc", "status",
					       pc_status_name(r->status));

			if (pt && pc_kernel_served_by(row->size, kr->kmalloc_max, kr->page_shift,
						      served, sizeof(served)))
				json_object_set_new(pt, "served_by", json_string(served));
			if (pt && row->pair >= 0 && PC_KE_REMOTE(row->entry))
				remote_keys(pt, &kr->pairs[row->pair], row);
			pc_points_add(&sized[row->entry], &pc_group_kernel, figures(r, pt, inflated),
				      r->status);
		} else {
			json_object_set_new(probes, pc_kernel_row_names[row->entry],
				figures(r, json_pack("{s:s, s:i, s:s}", "status",
					pc_status_name(r->status), "ring", 0, "group", "kernel"),
					inflated));
		}
	}
	for (e = 0; e < PC_KE_COUNT; e++)
		if (PC_KE_SIZED(e))
			pc_points_file(probes, pc_kernel_row_names[e], &sized[e], &pc_group_kernel,
				       0, "per call", NULL);
	pc_points_file(probes, PC_KERNEL_CONTENDED, &cont, &pc_group_kernel, 0,
		       "per lock+unlock per thread", NULL);
	return probes;
}
