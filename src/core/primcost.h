/* SPDX-License-Identifier: MIT */
/* primcost.h - the core's types and functions, shared by the subcommands. */
#ifndef PRIMCOST_H
#define PRIMCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch/arch.h"
#include "engine/method.h"
#include "probes/portable.h"

#define PC_SCHEMA_NAME "primcost-result"
#define PC_SCHEMA_VERSION 1
/* primcost info --format json */
#define PC_INFO_SCHEMA "primcost-info/1"

/* Exit status, documented in primcost(1). */
enum {
	PC_EXIT_OK = 0,
	PC_EXIT_FAILURE = 1,	/* a probe failed, or compare found a regression */
	PC_EXIT_USAGE = 2,	/* bad option, bad input file, cannot write output */
	PC_EXIT_SIGNAL = 128,	/* + the signal number: interrupted (SIGINT: 130) */
};

#define PC_ERRLEN 512

/* ---- stats.c ------------------------------------------------------------ */

struct pc_summary {
	double min, q1, median, q3, max, mad, mean;
	size_t n;
};

/* Summarises x[0..n) (n > 0) into *s; returns -1 when out of memory. */
int pc_summarize(const double *x, size_t n, struct pc_summary *s);
/* Quantile p (0..1) of sorted[0..n), linear between closest ranks. */
double pc_quantile_sorted(const double *sorted, size_t n, double p);
/* The same summary with every statistic multiplied by k (k > 0). */
struct pc_summary pc_summary_scale(const struct pc_summary *s, double k);
double pc_median(double *x, size_t n);	/* sorts x in place */
/* x rounded to the 7 significant digits result files carry (a decimal
 * reader gives back the very double): results_build.c. */
double pc_round7(double x);

/* Mann-Whitney U test (two-sided, normal approximation, tie-corrected,
 * continuity-corrected). */
struct pc_mwu {
	double u;	/* U statistic of x */
	double z;
	double p;	/* two-sided p-value */
};
/* Returns -1 when a side is empty or memory runs out (r->p is then 1). */
int pc_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		    struct pc_mwu *r);
/* The same of x and y already in ascending order (pc_sort_doubles). */
int pc_mann_whitney_sorted(const double *xs, size_t nx, const double *ys, size_t ny,
			   struct pc_mwu *r);
/* Sort in place (radix: no comparison); -1 when memory runs out. Doubles
 * are ordered by sign and bits (-0 before +0); an array already in order
 * is only checked. */
int pc_sort_doubles(double *v, size_t n);
int pc_sort_i64(int64_t *v, size_t n);

/* ---- topology.c: packages, NUMA nodes, cores, caches (hwloc) --------------- */

#define PC_TOPO_CACHES 6

struct pc_topology {
	char source[48];	/* "hwloc 2.9.0", or "sysconf" without hwloc */
	int packages, numa_nodes, cores;
	int threads;		/* logical CPUs (online ones, on this machine) */
	int threads_per_core;	/* most threads any core has */
	char allowed[128];	/* the CPUs this process may run on, as a list */
	bool os_caches;		/* the kernel describes the caches (sysfs) */
	int ncaches;
	struct pc_topo_cache {
		int level;
		char type[12];		/* "data", "instruction" or "unified" */
		long size_kb;
		int instances;
		int cpus_each;		/* logical CPUs sharing one instance */
		char sharing[160];	/* each instance's CPUs: "0,4 1,5 ..." */
	} caches[PC_TOPO_CACHES];
};

/* This machine's topology (xml_path NULL), or an hwloc XML export's.
 * Without hwloc, only threads (sysconf) is known. */
int pc_topology_load(struct pc_topology *t, const char *xml_path, char *err,
		     size_t errlen);
/* The OS's size of cache level/type ("data", "unified", ...), or 0. */
long pc_topology_cache_kb(const struct pc_topology *t, int level, const char *type);

/* ---- cpu.c ---------------------------------------------------------------- */

struct pc_cpu_info {
	char arch[16];
	char vendor[32];	/* "AuthenticAMD", "GenuineIntel", ... */
	char brand[128];
	char codename[64];	/* libcpuid's name for the core */
	char pmu[64];		/* libpfm4's most specific core PMU, "" if none */
	char pmu_desc[128];
	int family, model, stepping;	/* as /proc/cpuinfo shows them */
	int cores, threads;
	int l1d_kb, l1i_kb, l2_kb, l3_kb;
	bool virtualized;
	char hypervisor[32];	/* "kvm", "vmware", ... or "" */
	char kernel[160];
	char host[128];
	char key[256];		/* the model key: same CPU model -> same key */
	unsigned long midr;	/* arm64: MIDR_EL1 (family-model-stepping are
				 * its part-variant-revision); 0 elsewhere */
	char emulated[224];	/* why this looks like an emulator, or "" */
	/* ---- what the identity means (data/uarch.tsv), and who says so ---- */
	char uarch[64];		/* "Zen 5", "" when the table has no row */
	char uarch_source[96];	/* the row's source */
	char codename_note[160];	/* libcpuid's codename when it disagrees */
	char pmu_note[96];	/* why libpfm4 names no PMU */
	char caches_note[192];	/* CPUID's caches against the OS's */
	/* ---- virtualization, named by each witness ---- */
	char hv_cpuid_raw[16];	/* CPUID 0x40000000 signature, 12 bytes, or "" */
	char hv_cpuid[32];	/* its name: "bhyve", "KVM", ... */
	char hv_kernel[64];	/* the kernel's: /sys/hypervisor/type, boot log */
	char hv_kernel_source[48];
	struct pc_topology topo;
};

int pc_cpu_detect(struct pc_cpu_info *ci, char *err, size_t errlen);
/* What the OS says about this CPU's features, for the backend (AT_HWCAP). */
const struct pc_arch_env *pc_arch_env(void);
/* Fills vendor, brand, family (part), model (variant) and stepping
 * (revision) from an arm64 MIDR_EL1 value, with the names of known
 * implementers and parts. */
void pc_cpu_from_midr(struct pc_cpu_info *ci, unsigned long midr);
/* Builds the model key from the identity fields into ci->key. */
void pc_cpu_make_key(struct pc_cpu_info *ci);
/* Fills uarch and uarch_source from data/uarch.tsv, and codename_note when
 * libcpuid's codename (ci->codename, which it then clears) disagrees. */
void pc_cpu_name_uarch(struct pc_cpu_info *ci);
/* Fills hv_cpuid_raw, hv_cpuid (and hypervisor), hv_kernel and its source,
 * and virtualized when either witness saw a hypervisor (hypervisor.c). */
void pc_cpu_detect_hypervisor(struct pc_cpu_info *ci);
/* Sets caches_note: CPUID's cache sizes (l1d_kb ... l3_kb) against the
 * kernel's (topo, from sysfs), both where they differ; or, when the kernel
 * describes no caches, that the sizes are CPUID's. */
void pc_cpu_note_caches(struct pc_cpu_info *ci);
/* The name of a CPUID hypervisor signature ("bhyve bhyve " -> "bhyve"),
 * or NULL when unknown. */
const char *pc_hypervisor_signature_name(const char *sig);
/* The emulator whose CPUID hypervisor signature this CPU presents ("TCG"
 * for QEMU's TCGTCGTCGTCG), or NULL: under it no timing is the CPU's. */
const char *pc_hypervisor_emulator(void);
/* The hypervisor the kernel names in a boot log line ("Hypervisor
 * detected: PVM" -> "PVM"), copied into out; -1 when the line has none. */
int pc_hypervisor_from_log(const char *line, char *out, size_t len);

/* ---- clock.c -------------------------------------------------------------- */

enum pc_cycles_source {
	PC_CYCLES_CALIBRATED,	/* ticks scaled by the dependent add chain */
	PC_CYCLES_PMU,		/* the PMU's core-cycles counter */
};

struct pc_clock {
	const char *timer;		/* the arch timer's name */
	double tick_hz;			/* timer ticks per second */
	bool tick_hz_measured;		/* measured against CLOCK_MONOTONIC_RAW */
	uint64_t tick_step;		/* resolution: ticks per timer step */
	enum pc_cycles_source source;
	int pmu_fd;			/* perf event fd counting cycles, or -1 */
	char pmu_reason[256];		/* why the PMU is not the source */
	/* ---- how the PMU cycles are read (clock.c) ---- */
	void *pmu_page;			/* the event's perf mmap page, or NULL */
	bool pmu_rdpmc;			/* read in user mode through the page */
	bool pmu_user_only;		/* kernel-mode cycles not permitted */
	char pmu_read_reason[256];	/* how they are read, or why not rdpmc */
};

const char *pc_cycles_source_name(enum pc_cycles_source s);
/* Finds the timer's rate and whether the PMU can count core cycles. */
int pc_clock_init(struct pc_clock *c, bool want_pmu, char *err, size_t errlen);
void pc_clock_close(struct pc_clock *c);
/* Reads the PMU cycles counter (c->pmu_fd must be open). */
uint64_t pc_clock_pmu_read(const struct pc_clock *c);
/* The same with the times it was enabled and running (rdpmc through the
 * mmap page where allowed, else read()); r->ok false when it failed. */
struct pc_counter_reading;
void pc_clock_pmu_sample(const struct pc_clock *c, struct pc_counter_reading *r);
/* Makes fd (a perf event counting for this thread, read_format
 * TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING) the cycles source: checks that it
 * counts and maps its page for rdpmc. -1 (fd closed) with c->pmu_reason. */
int pc_clock_pmu_attach(struct pc_clock *c, int fd);

/* ---- measure.c ------------------------------------------------------------ */

/* One progress line on the --status-fd descriptor (primcost-run(1) gives the
 * format). Nothing happens when fd < 0; a failed write (a reader that went
 * away) is ignored: it stops the lines, not the run. */
void pc_status_line(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* NOISY: a figure, the best clean estimate, from a probe whose samples
 * stayed disturbed past the sampling bound; the reason says why. */
enum pc_status { PC_STATUS_OK, PC_STATUS_SKIPPED, PC_STATUS_UNSUPPORTED,
		 PC_STATUS_FAILED, PC_STATUS_NOISY };

const char *pc_status_name(enum pc_status s);

struct pc_ring0;

struct pc_measure_config {
	unsigned samples;		/* differential samples per probe */
	double sample_s;		/* target duration of one hi loop */
	bool keep_samples;
	bool progress;			/* progress line on stderr */
	int status_fd;			/* --status-fd: progress lines; -1: none */
	int cpu;			/* pinned CPU */
	bool emulated;			/* an emulator's timings: spread not judged */
	struct pc_ring0 *ring0;		/* where ring-0 rows run (ring0.h); NULL: nowhere */
	/* ---- events counted around each sample (events.c) ---- */
	struct pc_events *events;	/* open group (-e, disturbance), or NULL */
	double probe_timeout_s;		/* time limit of one probe; 0: none */
	bool keep_contended;		/* keep samples the contention canary flags */
};

struct pc_probe_result {
	enum pc_probe_id id;
	enum pc_status status;
	char reason[512];
	int ring;
	struct pc_summary ticks, cycles, ns;	/* per operation */
	size_t samples;
	uint64_t iters;			/* loop iterations per sample */
	uint64_t ops_per_sample;	/* iters * PC_UNROLL_DIFF */
	double linearity;		/* D(2N)/D(N); NAN when D is ~0 */
	bool nonlinear;			/* failed the linearity check */
	/* (max - min) / median of the per-round medians: how far the figure
	 * moved within the run; NAN when not measured in rounds. */
	double round_spread;
	enum pc_cycles_source cycles_source;
	double cycles_per_tick;
	double *raw_ticks;		/* per-op ticks of every sample, or NULL */
	double *raw_cycles;
	/* ---- events counted around each sample (events.c) ---- */
	struct pc_probe_events {
		const struct pc_events *def;	/* names and states, or NULL */
		struct pc_summary *per_op;	/* [def->n]: hi minus lo, per op */
		bool *counted;		/* [def->n]: false: never counted here */
		double **raw;		/* [def->n][samples], --keep-samples */
		bool checked;		/* disturbances were looked for */
		unsigned disturbed, multiplexed;	/* samples discarded */
		unsigned short_by;	/* samples missing: discard budget spent */
		unsigned contended;	/* samples dropped: the core was shared */
		unsigned slow, slow_cal;	/* samples refused: a loop of the
						 * probe's (the calibration's)
						 * pair far above its floor */
		unsigned slow_late;	/* samples dropped after sampling: a
					 * loop far above the run's fastest */
		unsigned noisy_retries;	/* times sampled again, disturbed */
	} events;
	bool partial;			/* cut short by an interruption */
};

struct pc_profile {
	struct pc_probe_result *probes;
	size_t nprobes;
	double cycles_per_tick;		/* median calibration of the run */
	double calib_drift;		/* (max - min) / median of calibrations */
	double wall_s;
	bool unreliable;		/* calibration makes no sense (emulator) */
	char unreliable_reason[256];
	int interrupted;		/* the signal that stopped the run, or 0 */
	/* The contention canary (calib.add_throughput paired with every
	 * sample): its cycles per operation at their best (first quartile)
	 * and at the median over the run, and the samples it dropped. */
	double canary_best, canary_median;
	unsigned contended;
	bool canary;			/* the canary ran */
};

/* Marks keep[i] = canary[i] <= limit; returns how many are kept. */
size_t pc_contention_keep(const double *canary, size_t n, double limit, bool *keep);

/* The implementation of a row on this build: backend first, then portable
 * C bodies, then the backend's fallback when this CPU cannot run the body;
 * NULL when nothing implements it. */
const struct pc_arch_probe *pc_probe_impl(enum pc_probe_id id);
/* Why a row is unsupported here, or why its fallback runs; NULL when the
 * row's own body runs. */
const char *pc_probe_note(enum pc_probe_id id);
/* The width of a column of probe names: the longest row name. */
int pc_probe_name_width(void);
/* Finds a probe id by exact name; -1 when none. */
int pc_probe_find(const char *name);

/* Runs a probe's functional self-check. NULL when right, else the reason
 * in buf. */
const char *pc_selfcheck(const struct pc_arch_probe *p, char *buf, size_t len);

/* Measures the selected probes (selected[id] true) in table order. */
int pc_profile_run(const bool *selected, const struct pc_measure_config *cfg,
		   const struct pc_clock *clk, struct pc_profile *prof,
		   char *err, size_t errlen);
void pc_profile_free(struct pc_profile *prof);

/* Pins the calling thread to cpu (-1: the one it runs on); returns the CPU
 * or -1 with err filled. */
int pc_pin_cpu(int cpu, char *err, size_t errlen);

/* Ticks one timed loop should last: `seconds` of the timer, but never so
 * few timer steps that its resolution would cost 0.5 % of a sample. */
double pc_sample_ticks(const struct pc_clock *clk, double seconds);

/* Calibrates core cycles per timer tick with the dependent add chain. */
int pc_calibrate(const struct pc_clock *clk, unsigned samples, double sample_s,
		 double *cycles_per_tick, char *err, size_t errlen);

/* ---- select.c -------------------------------------------------------------- */

/* Marks in selected[] the probes named by a comma-separated list of names
 * and shell globs. Each element must match at least one probe. */
int pc_select_probes(const char *list, bool *selected, char *err, size_t errlen);

/* ---- util.c ---------------------------------------------------------------- */

/* The one line on stderr of a user-facing error: "primcost: CMD: what",
 * control characters replaced (cmd NULL: "primcost: what"). */
void pc_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Writes s into out[outlen] with every character a terminal would obey
 * escaped: C0 and DEL as \n, \t, \r, \x1b; C1 and the bidirectional
 * controls as \u009b, \u202e; a byte that is not UTF-8 as \xff. The one
 * way to show a string that came from outside (a file name, a JSON string)
 * on a terminal or in CSV. Cuts what does not fit; returns the length. */
size_t pc_escape_text(const char *s, char *out, size_t outlen);
/* s escaped as pc_escape_text does, in one of 8 static buffers used in
 * turn (for the arguments of one printf). */
const char *pc_shown(const char *s);
/* One CSV field (RFC 4180): escaped as pc_escape_text does, then quoted,
 * with its quotes doubled, when it holds a comma, a double quote or an outer
 * space; NULL is empty. */
void pc_csv_field(FILE *f, const char *s);

/* The index of s in words[0..n), or -1 when s is none of them. */
int pc_word_index(const char *s, const char *const *words, size_t n);

#endif
