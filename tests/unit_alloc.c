/* SPDX-License-Identifier: MIT */
/*
 * unit_alloc.c - the allocator group's pieces: names and rows, each
 * allocator found with its version, freed memory that comes back (and a
 * leaking allocator caught), glibc keeping a batch's memory above its
 * reserve, its loops held to their fastest only in the calibration's
 * loops, the group's JSON accepted by the validator, its views showing
 * every point.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/alloc/alloc.h"
#include "src/results/group.h"
#include "src/core/samples.h"
#include "src/results/results.h"
#include "tap.h"
#include "core/primcost.h"

static void test_names(void)
{
	char err[PC_ERRLEN];
	bool rows[PC_ALLOC_ROWS];

	ok(pc_allocator_list_check("glibc,jemalloc,tcmalloc,mimalloc", err,
				   sizeof(err)) == 0, "the four allocator names are known");
	ok(pc_allocator_list_check("glibc,nonesuch", err, sizeof(err)) < 0 &&
	   strstr(err, "unknown allocator 'nonesuch'") && strstr(err, "jemalloc"),
	   "an unknown allocator is refused, naming the known ones: %s", err);
	ok(pc_allocator_list_check("jemalloc,jemalloc", err, sizeof(err)) < 0,
	   "an allocator given twice is refused: %s", err);
	ok(pc_alloc_select("alloc.*", rows, err, sizeof(err)) == 3 && rows[0] &&
	   rows[1] && rows[2], "alloc.* selects the three rows");
	ok(pc_alloc_select("alloc.malloc,alloc.remote.free", rows, err, sizeof(err)) == 2 &&
	   rows[0] && !rows[1] && !rows[2] && !rows[PC_ALLOC_REMOTE_MALLOC] &&
	   rows[PC_ALLOC_REMOTE_FREE], "a row and a remote row by name: the two");
	ok(pc_alloc_select("alloc.*.*", rows, err, sizeof(err)) == 2 && !rows[0] && !rows[1] &&
	   !rows[2] && rows[PC_ALLOC_REMOTE_MALLOC] && rows[PC_ALLOC_REMOTE_FREE],
	   "alloc.*.* selects the remote rows alone, and keeps them (it selected nothing)");
	ok(pc_alloc_select("alloc.free", rows, err, sizeof(err)) == 1 && !rows[0] &&
	   rows[1] && !rows[2], "alloc.free selects one row");
	ok(pc_alloc_select("alloc.nope", rows, err, sizeof(err)) < 0,
	   "a glob matching no row is refused: %s", err);
	ok(pc_group_list_only(&pc_group_alloc, "alloc.malloc,alloc.free") &&
	   !pc_group_list_only(&pc_group_alloc, "*") &&
	   !pc_group_list_only(&pc_group_alloc, "alloc.malloc,cmpxchg"),
	   "only lists of alloc.* names select the group through -p");
}

/* Every size, for one allocator: the memory freed comes back. */
static void test_returns(const struct pc_allocator *a)
{
	char why[256];
	const char *bad = NULL;
	size_t size;

	for (size = PC_ALLOC_SIZE_MIN; !bad && size < PC_ALLOC_SIZE_MIN << PC_ALLOC_NSIZES;
	     size *= 2)
		bad = pc_allocator_returns(a, size, PC_UNROLL_HI, why, sizeof(why));
	ok(!bad, "%s: freed memory comes back at every size, 8 .. 16384%s%s", a->name,
	   bad ? ": " : "", bad ? bad : "");
}

static void test_allocators(void)
{
	static const char *const names[] = { "glibc", "jemalloc", "tcmalloc", "mimalloc" };
	char err[PC_ERRLEN];
	unsigned i;

	for (i = 0; i < 4; i++) {
		struct pc_allocator a;
		int rc = pc_allocator_open(names[i], &a, err, sizeof(err));

		/* glibc is always there; jemalloc is a test dependency
		 * (bootstrap); the other two are optional. */
		if (rc < 0 && i >= 2 && strstr(err, "is not installed")) {
			skip(err, "%s is found, with its version", names[i]);
			continue;
		}
		ok(rc == 0 && ((a.version[0] >= '0' && a.version[0] <= '9') ||
			       strncmp(a.version, "gperftools ", 11) == 0),
		   "%s is found, version %s, in %s%s%s", names[i], rc == 0 ? a.version : "?",
		   rc == 0 ? a.library : "?", rc ? ": " : "", rc ? err : "");
		if (rc == 0) {
			void *p = a.malloc(100);

			ok(p && a.usable_size(p) >= 100, "%s: malloc(100) gives at least "
			   "100 usable bytes", names[i]);
			a.free(p);
			test_returns(&a);
			pc_allocator_close(&a);
		}
	}
}

/* Batches of the largest size, allocated and freed: how many times the
 * heap's end (the program break) moved, looked at after the mallocs and
 * after the frees of each batch. */
static unsigned break_moves(const struct pc_allocator *a, unsigned batches)
{
	size_t size = (size_t)PC_ALLOC_SIZE_MIN << (PC_ALLOC_NSIZES - 1);
	void *ptr[PC_UNROLL_HI], *end = sbrk(0);
	unsigned b, i, moves = 0;

	for (b = 0; b < batches; b++) {
		for (i = 0; i < PC_UNROLL_HI; i++)
			ptr[i] = a->malloc(size);
		moves += sbrk(0) != end;
		end = sbrk(0);
		for (i = 0; i < PC_UNROLL_HI; i++)
			a->free(ptr[i]);
		moves += sbrk(0) != end;
		end = sbrk(0);
	}
	return moves;
}

/* glibc gives the top of an empty heap back to the kernel after a batch of
 * 16 KiB blocks is freed; above the reserve, it keeps the memory. */
static void test_reserve(void)
{
	struct pc_allocator a;
	char err[PC_ERRLEN];
	unsigned before;
	void *pin;

	if (pc_allocator_open("glibc", &a, err, sizeof(err)) < 0) {
		ok(0, "glibc opens: %s", err);
		return;
	}
	before = break_moves(&a, 10);
	pin = pc_alloc_reserve(&a, PC_ALLOC_RESERVE);
	ok(pin && a.usable_size(pin) >= PC_ALLOC_PIN_SIZE,
	   "the reserve holds a block of %zu bytes", (size_t)PC_ALLOC_PIN_SIZE);
	ok(break_moves(&a, 10) == 0, "glibc: 10 batches of 80 x 16 KiB above the "
	   "reserve leave the program break where it was (without the reserve it "
	   "moved %u times in 20 looks)", before);
	a.free(pin);
	pc_allocator_close(&a);
}

/* The group's loops vary by design (measure.c takes loops_vary from its
 * items): a probe loop 60 % above its fastest is kept, a calibration loop
 * 50 % above its fastest is not; without the flag the probe loop is not. */
static void test_loops_vary(void)
{
	const struct pc_sample fast = { { 100, 1100 }, { 100, 700 }, { 0, 0 }, { 0, 0 } },
			       slow = { { 100, 1700 }, { 100, 700 }, { 0, 0 }, { 0, 0 } },
			       slow_cal = { { 100, 1100 }, { 100, 1000 }, { 0, 0 }, { 0, 0 } };
	struct pc_sample_set s;
	enum pc_put a, b, c, d;

	if (pc_sample_set_init(&s, 4, false) < 0) {
		ok(0, "a sample set");
		return;
	}
	s.iters = s.cal_iters = 1;
	s.probe_loops_vary = true;
	a = pc_sample_set_put(&s, 0, &fast, NULL);
	b = pc_sample_set_put(&s, 1, &slow, NULL);
	c = pc_sample_set_put(&s, 1, &slow_cal, NULL);
	s.probe_loops_vary = false;
	d = pc_sample_set_put(&s, 1, &slow, NULL);
	ok(a == PC_PUT_OK && b == PC_PUT_OK && c == PC_PUT_SLOW_CAL && d == PC_PUT_SLOW,
	   "loops that vary: a slow probe loop is kept (%d), a slow calibration loop "
	   "is not (%d); otherwise a slow probe loop is not (%d)", b, c, d);
	pc_sample_set_free(&s);
}

/*
 * The final pass drops the samples no allocator call can give: 31 samples
 * of about 35 cycles (lo loops of 1000 to 1030 ticks), then one of 2.4
 * cycles whose lo loop took 5 times the median (an interrupt in it), one
 * under zero, and one of 12 cycles whose lo loop was as fast as the rest
 * (a batch that met no slow path: the allocator's, kept).
 */
static void test_impossible(void)
{
	struct pc_sample_set s;
	bool keep[34];
	unsigned i, dropped;

	if (pc_sample_set_init(&s, 34, false) < 0) {
		ok(0, "a sample set");
		return;
	}
	s.probe_loops_vary = true;
	for (i = 0; i < 31; i++) {
		s.dc[i] = 34.0 + (i % 3);
		s.loops[i][0] = 1000 + i;
		s.loops[i][1] = 5000;
	}
	s.dc[31] = 2.4, s.loops[31][0] = 5000, s.loops[31][1] = 5000;
	s.dc[32] = -3.0, s.loops[32][0] = 7000, s.loops[32][1] = 5000;
	s.dc[33] = 12.0, s.loops[33][0] = 1010, s.loops[33][1] = 5000;
	s.n = 34;
	for (i = 0; i < 4; i++)
		s.least[i] = 1000;
	s.least[1] = 5000;
	dropped = pc_sample_set_final(&s, keep);
	ok(dropped == 2 && !keep[31] && !keep[32] && keep[33] && keep[0],
	   "loops that vary: the final pass drops a sample an interrupted lo loop "
	   "lowered and one under zero, and keeps a low one whose loops ran as "
	   "fast as the rest (%u dropped)", dropped);
	s.probe_loops_vary = false;
	dropped = pc_sample_set_final(&s, keep);
	ok(keep[31] == false && keep[33], "otherwise the lo loop is held to the "
	   "fastest, as before (%u dropped)", dropped);
	pc_sample_set_free(&s);
}

/* The group's spread limit: a point that a slower host cut in two (glibc's
 * 8-byte pair: MAD 14.6 cycles on a median of 34.6, 42 %, quartiles 20.0
 * and 36.1) is noisy; jemalloc's batches at their widest on the development
 * VM (MAD 27 %) are not. */
static void test_spread_limit(void)
{
	double wide[11] = { 20, 20, 20, 20, 20, 34.6, 36.1, 36.1, 50, 55, 60 },
	       quiet[11] = { 73, 73, 73, 127, 127, 127, 100, 100, 100, 100, 100 },
	       spread;
	bool noisy;

	noisy = pc_samples_noisy(wide, 11, PC_NOISY_SPREAD_ALLOC, &spread);
	ok(noisy, "a point half at one level and half at another is noisy (spread "
	   "%.0f %%)", spread * 100);
	noisy = pc_samples_noisy(quiet, 11, PC_NOISY_SPREAD_ALLOC, &spread);
	ok(!noisy, "an allocator's own spread is not (%.0f %%)", spread * 100);
	ok(pc_samples_noisy(quiet, 11, PC_NOISY_SPREAD, &spread),
	   "though the probe table's limit would call it noisy");
}

/* ---- a leaking allocator is caught ------------------------------------------------ */

/* What the leaking allocator kept, freed for real when the test is done
 * (the leak is the test's, not the program's: the sanitizers' run counts
 * leaks). */
static void *kept[4096];
static size_t nkept;

static void no_free(void *p)
{
	if (nkept < sizeof(kept) / sizeof(kept[0]))
		kept[nkept++] = p;
}

static void free_kept(void)
{
	while (nkept)
		free(kept[--nkept]);
}

static long long counted;

static void *counting_malloc(size_t n)
{
	counted += (long long)n;
	return malloc(n);
}

static long long count(const struct pc_allocator *a)
{
	(void)a;
	return counted;
}

static void test_leaks(void)
{
	struct pc_allocator a = { .name = "leaky", .malloc = malloc, .free = no_free,
				  .usable_size = malloc_usable_size };
	char why[256];
	const char *r = pc_allocator_returns(&a, 64, PC_UNROLL_HI, why, sizeof(why));

	ok(r && strstr(r, "not reused"), "an allocator whose free keeps the memory "
	   "is caught by the addresses: %s", r ? r : "(passed)");
	a.malloc = counting_malloc;
	a.in_use = count;
	r = pc_allocator_returns(&a, 64, PC_UNROLL_HI, why, sizeof(why));
	ok(r && strstr(r, "bytes in use"), "and by its own count of bytes in use: %s",
	   r ? r : "(passed)");
	free_kept();
}

/* ---- the validator -------------------------------------------------------------- */

static const char point_ok[] =
	"{\"size\": 8, \"allocator\": \"glibc\", \"status\": \"ok\", "
	"\"cycles_source\": \"calibrated\", \"samples\": 9, "
	"\"ticks\": {\"min\":1,\"q1\":1,\"median\":1,\"q3\":1,\"max\":1,\"mad\":0}, "
	"\"cycles\": {\"min\":1,\"q1\":1,\"median\":1,\"q3\":1,\"max\":1,\"mad\":0}, "
	"\"ns\": {\"min\":1,\"q1\":1,\"median\":1,\"q3\":1,\"max\":1,\"mad\":0}}";

static int validate(const char *points, char *err, size_t errlen)
{
	char text[2048];
	json_t *p;
	int rc;

	snprintf(text, sizeof(text), "{\"status\": \"ok\", \"group\": \"alloc\", "
		 "\"points\": [%s]}", points);
	p = json_loads(text, 0, NULL);
	rc = p ? pc_validate_probe(p, "alloc.malloc", err, errlen) : -2;
	json_decref(p);
	return rc;
}

static void test_validator(void)
{
	char err[PC_ERRLEN], bad[1024];

	ok(validate(point_ok, err, sizeof(err)) == 0,
	   "a probe whose figures are its points is valid");
	snprintf(bad, sizeof(bad), "%s", point_ok);
	memcpy(strstr(bad, "\"size\": 8"), "\"size\": 0", 9);
	ok(validate(bad, err, sizeof(err)) < 0 && strstr(err, "points[0].size"),
	   "a point of size 0 is refused: %s", err);
	snprintf(bad, sizeof(bad), "%.*s}", (int)(strstr(point_ok, ", \"ns\"") - point_ok),
		 point_ok);
	ok(validate(bad, err, sizeof(err)) < 0 && strstr(err, "points[0].ns"),
	   "a measured point without ns is refused: %s", err);
	ok(validate("{\"size\": 8, \"status\": \"failed\"}", err, sizeof(err)) < 0 &&
	   strstr(err, "allocator"), "a point without its allocator is refused: %s", err);
}

/* ---- the views ------------------------------------------------------------------ */

/* A document of one CPU entry, key, whose alloc.malloc_free points are
 * nalloc allocators ("a0", "a1" ...) at nsize sizes (8, 16, 24 ...), the
 * largest first; a point's median is 1000 x its allocator's number + its
 * size. */
static json_t *points_doc(const char *key, unsigned nalloc, unsigned nsize)
{
	json_t *points = json_array();
	unsigned a, s;
	char name[16];

	for (a = 0; a < nalloc; a++)
		for (s = nsize; s > 0; s--) {
			snprintf(name, sizeof(name), "a%u", a);
			json_array_append_new(points, json_pack("{s:s, s:i, s:s, s:{s:f}}",
				"allocator", name, "size", 8 * s, "status", "ok", "cycles",
				"median", 1000.0 * a + 8 * s));
		}
	return json_pack("{s:{s:{s:{s:{s:o}}}}}", "cpus", key, "probes",
			 "alloc.malloc_free", "points", points);
}

/* compare --by allocator, as text. */
static int by_allocator(FILE *f, json_t *const *docs, const char *const *names, unsigned n,
			const char *base, char *err, size_t errlen)
{
	struct pc_view v;
	int rc;

	pc_view_init(&v, f, PC_FORMAT_TABLE);
	rc = pc_alloc_compare(&v, docs, names, n, base, err, errlen);
	return pc_view_end(&v) < 0 ? -1 : rc;
}

/* A noisy point shows its median with the mark '*', a failed one '-'. */
static void test_view_noisy(void)
{
	json_t *doc = points_doc("k", 1, 3);
	json_t *pts = json_object_get(json_object_get(json_object_get(json_object_get(
		json_object_get(doc, "cpus"), "k"), "probes"), "alloc.malloc_free"), "points");
	char *md = NULL, *txt = NULL;
	size_t len;
	FILE *f;
	int rc;

	/* the points run from the largest size: 24, 16, 8 */
	json_object_set_new(json_array_get(pts, 0), "status", json_string("noisy"));
	json_object_set_new(json_array_get(pts, 1), "status", json_string("failed"));
	f = open_memstream(&md, &len);
	rc = pc_view_show(f, PC_FORMAT_MARKDOWN, pc_alloc_show, doc);
	fclose(f);
	f = open_memstream(&txt, &len);
	rc |= pc_view_show(f, PC_FORMAT_TABLE, pc_alloc_show, doc);
	fclose(f);
	ok(rc == 0 && strstr(md, "| 24 | - | - | 24.0* |") && strstr(md, "| 16 | - | - | - |") &&
	   strstr(md, "| 8 | - | - | 8.0 |") && strstr(txt, "24.0*"),
	   "a noisy point's median is shown with its mark, a failed one's is not");
	free(md);
	free(txt);
	json_decref(doc);
}

/* More allocators and sizes than a screen holds: every one shown, a row
 * per size in ascending order, malloc, free and malloc+free per allocator. */
static void test_view_all_points(void)
{
	json_t *doc = points_doc("k", 20, 40);
	char *s = NULL, *r8, *r16, *r320;
	size_t len;
	FILE *f = open_memstream(&s, &len);
	int rc = pc_view_show(f, PC_FORMAT_MARKDOWN, pc_alloc_show, doc);

	fclose(f);
	r8 = strstr(s, "\n| 8 | - | - | 8.0 | - | - | 1008 |");
	r16 = strstr(s, "\n| 16 | - | - | 16.0 |");
	r320 = strstr(s, "\n| 320 | - | - | 320 |");
	ok(rc == 0 && strstr(s, "| size | a0 malloc | a0 free | a0 malloc+free | a1 malloc |") &&
	   strstr(s, "| a19 malloc+free |\n") && r8 && r16 && r320 && r8 < r16 && r16 < r320 &&
	   strstr(r320, "| 19320 |\n"),
	   "markdown: 20 allocators of 3 columns, 40 sizes ascending, every point shown");
	free(s);
	json_decref(doc);
}

/* compare --by allocator: an allocator met again in another file is
 * name#2, and can be the base. */
static void test_view_compare(void)
{
	json_t *docs[2] = { points_doc("k1", 2, 3), points_doc("k2", 1, 3) };
	const char *names[2] = { "1.json", "2.json" };
	char err[PC_ERRLEN], *s = NULL;
	size_t len;
	FILE *f = open_memstream(&s, &len);
	int rc = by_allocator(f, docs, names, 2, "a0#2", err, sizeof(err));

	fclose(f);
	ok(rc == 0 && strstr(s, "\n  a0#2 ") && strstr(s, "\nB = a0 against A = a0#2,") &&
	   strstr(s, "\nB = a1 against A = a0#2,") && strstr(s, "malloc+free") &&
	   strstr(s, "\n   24         -       -      -         -       -      -      24.0    "
		     "1024  42.7x\n"),
	   "compare --by allocator: a0 of the second file is a0#2, the base; "
	   "a1 against it size by size");
	free(s);
	f = open_memstream(&s, &len);
	rc = by_allocator(f, docs + 1, names + 1, 1, NULL, err, sizeof(err));
	fclose(f);
	ok(rc < 0 && strstr(err, "two allocators (found 1) in 2.json"),
	   "compare --by allocator of one allocator is refused: %s", err);
	free(s);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

/* A point's distribution from known calls: every 10th of 16000 takes
 * 1000 ticks, the rest 10; the timer's empty interval 5 ticks; 2 cycles a
 * tick. The slow mode has mass 1/10 in the histogram, p50 and p90 are the
 * fast calls less the timer, p99 the slow ones, the step (the ticks'
 * greatest common divisor, 5) the resolution, and the JSON says it all. */
static void test_dist(void)
{
	static uint32_t calls[PC_DIST_CALLS], empty[PC_DIST_EMPTY];
	struct pc_alloc_timer timer;
	struct pc_alloc_dist d;
	unsigned i, slow = 0, all = 0;
	json_t *j;

	for (i = 0; i < PC_DIST_CALLS; i++)
		calls[i] = i % 10 == 9 ? 1000 : 10;
	for (i = 0; i < PC_DIST_EMPTY; i++)
		empty[i] = 5;
	pc_alloc_timer_cost(empty, PC_DIST_EMPTY, calls, PC_DIST_CALLS, 2.0, &timer);
	ok(timer.ticks == 5 && timer.resolution_cycles == 10,
	   "the timer: 5 ticks an empty interval, resolution its step (5 ticks) = %.1f cycles",
	   timer.resolution_cycles);
	ok(pc_alloc_dist_make(&d, calls, PC_DIST_CALLS, &timer, 2.0) == 0 && d.calls == PC_DIST_CALLS,
	   "a distribution of 16000 calls");
	ok(d.p50 == 10 && d.p90 == 10 && d.p99 == 1990 && d.p999 == 1990 && d.max == 1990 &&
	   d.timer_cycles == 10,
	   "p50 %.0f, p90 %.0f (the fast calls less the timer), p99 %.0f, p99.9, max (the slow)",
	   d.p50, d.p90, d.p99);
	for (i = 0; i < PC_DIST_BUCKETS; i++) {
		all += d.bucket[i];
		if (pc_alloc_dist_bucket_lo(i) >= 1000)
			slow += d.bucket[i];
	}
	ok(all == PC_DIST_CALLS && slow == PC_DIST_CALLS / 10,
	   "the histogram holds every call, the slow mode 1/10 of them (%u)", slow);
	ok(pc_alloc_dist_bucket_lo(0) == 0 && pc_alloc_dist_bucket_lo(1) == 1 &&
	   pc_alloc_dist_bucket_lo(1 + PC_DIST_PER_OCTAVE) == 2,
	   "buckets: below 1 cycle, then %d a power of two", PC_DIST_PER_OCTAVE);
	for (i = 0; i < PC_DIST_CHUNKS && d.chunk_p99[i] == 1990; i++)
		;
	ok(i == PC_DIST_CHUNKS, "each chunk's p99 is the slow mode's");
	j = pc_alloc_dist_json(&d);
	ok(j && json_integer_value(json_object_get(j, "calls")) == PC_DIST_CALLS &&
	   json_number_value(json_object_get(j, "p99.9")) == 1990 &&
	   json_array_size(json_object_get(j, "p99_chunks")) == PC_DIST_CHUNKS &&
	   json_array_size(json_object_get(json_object_get(j, "histogram"), "buckets")) == 2,
	   "its JSON: calls, the percentiles, the chunks' p99, two buckets not empty");
	json_decref(j);
	for (i = 0; i < PC_DIST_CALLS; i++)
		calls[i] = 3;
	pc_alloc_timer_cost(empty, PC_DIST_EMPTY, calls, PC_DIST_CALLS, 2.0, &timer);
	pc_alloc_dist_make(&d, calls, PC_DIST_CALLS, &timer, 2.0);
	ok(d.p50 == 0 && d.max == 0 && timer.resolution_cycles == 2,
	   "calls faster than the empty interval read 0, never below; a timer of 1-tick "
	   "steps resolves a tick");
}

int main(int argc, char **argv)
{
	const char *t = getenv("GLIBC_TUNABLES");

	(void)argc;
	/* jemalloc's thread-local storage needs the room primcost run makes
	 * by running itself again: the same here. */
	if (!t || !strstr(t, PC_ALLOC_TLS_TUNABLE)) {
		char env[128];

		snprintf(env, sizeof(env), "%s=%d", PC_ALLOC_TLS_TUNABLE, PC_ALLOC_TLS_BYTES);
		setenv("GLIBC_TUNABLES", env, 1);
		execv("/proc/self/exe", argv);
	}
	test_names();
	test_allocators();
	test_reserve();
	test_loops_vary();
	test_impossible();
	test_spread_limit();
	test_leaks();
	test_validator();
	test_view_all_points();
	test_view_noisy();
	test_view_compare();
	test_dist();
	return done_testing();
}
