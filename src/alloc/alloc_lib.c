/* SPDX-License-Identifier: MIT */
/*
 * alloc_lib.c - the allocators by name (alloc.h): each library is opened
 * with dlopen(RTLD_LOCAL) and its malloc and free taken from its own
 * handle, so the timed calls reach it while the rest of primcost keeps the
 * C library's allocator (docs/design.md says why not LD_PRELOAD).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "core/select.h"

const char *const pc_alloc_rows[PC_ALLOC_ROWS] = {
	"alloc.malloc", "alloc.free", "alloc.malloc_free",
	"alloc.remote.malloc", "alloc.remote.free",
};

/* ---- each allocator's version and count of bytes in use --------------------- */

static void glibc_version(struct pc_allocator *a)
{
	const char *(*v)(void) = (const char *(*)(void))dlsym(a->handle,
							       "gnu_get_libc_version");

	if (v)
		snprintf(a->version, sizeof(a->version), "%s", v());
}

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);

static void jemalloc_version(struct pc_allocator *a)
{
	mallctl_fn ctl = (mallctl_fn)dlsym(a->handle, "mallctl");
	const char *v = NULL;
	size_t len = sizeof(v);

	if (ctl && ctl("version", &v, &len, NULL, 0) == 0 && v)
		snprintf(a->version, sizeof(a->version), "%s", v);
}

/* jemalloc counts, per thread, the bytes this thread allocated and freed:
 * their difference is what the thread holds. */
static long long jemalloc_in_use(const struct pc_allocator *a)
{
	mallctl_fn ctl = (mallctl_fn)dlsym(a->handle, "mallctl");
	uint64_t in = 0, out = 0;
	size_t len = sizeof(in);

	if (!ctl || ctl("thread.allocated", &in, &len, NULL, 0) != 0 ||
	    ctl("thread.deallocated", &out, &len, NULL, 0) != 0)
		return -1;
	return (long long)(in - out);
}

static void tcmalloc_version(struct pc_allocator *a)
{
	const char *(*v)(int *, int *, const char **) =
		(const char *(*)(int *, int *, const char **))dlsym(a->handle,
								    "tc_version");
	int major = 0, minor = 0;
	const char *patch = "";

	if (v)
		snprintf(a->version, sizeof(a->version), "%s", v(&major, &minor, &patch));
}

/* tcmalloc's bytes in use by the application (its caches not counted). */
static long long tcmalloc_in_use(const struct pc_allocator *a)
{
	int (*get)(const char *, size_t *) = (int (*)(const char *, size_t *))
		dlsym(a->handle, "MallocExtension_GetNumericProperty");
	size_t v = 0;

	if (!get || !get("generic.current_allocated_bytes", &v))
		return -1;
	return (long long)v;
}

/* mimalloc's areas of the thread's default heap, as mi_heap_area_t. */
struct mi_area {
	void *blocks;
	size_t reserved, committed, used, block_size, full_block_size;
};

static bool mi_count(const void *heap, const struct mi_area *area, void *block,
		     size_t block_size, void *arg)
{
	(void)heap;
	(void)block;
	(void)block_size;
	*(long long *)arg += (long long)(area->used * area->block_size);
	return true;
}

/* mimalloc counts the blocks in use of every page, freed ones out at once
 * (a page hands out fresh blocks before it takes freed ones back, so the
 * addresses alone would not tell). */
static long long mimalloc_in_use(const struct pc_allocator *a)
{
	void *(*heap)(void) = (void *(*)(void))dlsym(a->handle, "mi_heap_get_default");
	bool (*visit)(const void *, bool, void *, void *) =
		(bool (*)(const void *, bool, void *, void *))dlsym(a->handle,
								    "mi_heap_visit_blocks");
	long long bytes = 0;

	if (!heap || !visit || !visit(heap(), false, (void *)mi_count, &bytes))
		return -1;
	return bytes;
}

static void mimalloc_version(struct pc_allocator *a)
{
	int (*v)(void) = (int (*)(void))dlsym(a->handle, "mi_version");

	if (v) {
		int n = v();

		snprintf(a->version, sizeof(a->version), "%d.%d.%d", n / 100,
			 n / 10 % 10, n % 10);
	}
}

static const struct known {
	const char *name, *library, *package;
	void (*version)(struct pc_allocator *a);
	long long (*in_use)(const struct pc_allocator *a);
} known[] = {
	{ "glibc", "libc.so.6", "libc6", glibc_version, NULL },
	{ "jemalloc", "libjemalloc.so.2", "libjemalloc2", jemalloc_version,
	  jemalloc_in_use },
	{ "tcmalloc", "libtcmalloc_minimal.so.4", "libtcmalloc-minimal4",
	  tcmalloc_version, tcmalloc_in_use },
	{ "mimalloc", "libmimalloc.so.2", "libmimalloc2.0", mimalloc_version,
	  mimalloc_in_use },
	/* the tests' own (tests/test_alloc.c): its library named by
	 * PRIMCOST_TEST_ALLOCATOR, never found otherwise */
	{ "test", NULL, "none: primcost's tests build it", glibc_version, NULL },
};

#define NKNOWN (sizeof(known) / sizeof(known[0]))

const char *pc_allocator_names(void)
{
	return "glibc, jemalloc, tcmalloc, mimalloc";
}

static const struct known *find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NKNOWN; i++)
		if (strlen(known[i].name) == len && strncmp(known[i].name, name, len) == 0)
			return &known[i];
	return NULL;
}

int pc_allocator_list_check(const char *list, char *err, size_t errlen)
{
	const struct known *seen[PC_ALLOCATORS_MAX];
	const char *p = list;
	unsigned n = 0, i;

	for (;;) {
		size_t len = strcspn(p, ",");
		const struct known *k = find(p, len);

		if (!k) {
			snprintf(err, errlen, "--allocator: unknown allocator '%.*s' "
				 "(known: %s)", (int)(len < 64 ? len : 64), p,
				 pc_allocator_names());
			return -1;
		}
		for (i = 0; i < n; i++)
			if (seen[i] == k) {
				snprintf(err, errlen, "--allocator: '%s' given twice", k->name);
				return -1;
			}
		seen[n++] = k;	/* n < NKNOWN <= PC_ALLOCATORS_MAX: no repeats */
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int pc_allocator_open(const char *name, struct pc_allocator *a, char *err,
		      size_t errlen)
{
	const struct known *k = find(name, strlen(name));
	const char *library;
	Dl_info info;

	memset(a, 0, sizeof(*a));
	if (!k) {
		snprintf(err, errlen, "--allocator: unknown allocator '%.64s' (known: %s)",
			 name, pc_allocator_names());
		return -1;
	}
	a->name = k->name;
	a->package = k->package;
	library = k->library ? k->library : getenv(PC_TEST_ALLOCATOR_ENV);
	if (!library || !library[0]) {
		snprintf(err, errlen, "--allocator %s: the test allocator is for primcost's "
			 "tests: %s names its library", k->name, PC_TEST_ALLOCATOR_ENV);
		return -1;
	}
	a->handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
	if (!a->handle) {
		const char *e = dlerror();

		if (e && strstr(e, "static TLS")) {
			snprintf(err, errlen, "--allocator %s: %s", k->name, e);
			return PC_ALLOC_NEEDS_TLS;
		}
		if (!k->library)
			snprintf(err, errlen, "--allocator %s: %s: %.200s", k->name,
				 PC_TEST_ALLOCATOR_ENV, e ? e : "cannot be opened");
		else
			snprintf(err, errlen, "--allocator %s: %s is not installed (Debian "
				 "package %s)", k->name, k->library, k->package);
		return -1;
	}
	a->malloc = (void *(*)(size_t))dlsym(a->handle, "malloc");
	a->free = (void (*)(void *))dlsym(a->handle, "free");
	a->usable_size = (size_t (*)(void *))dlsym(a->handle, "malloc_usable_size");
	if (!a->malloc || !a->free || !a->usable_size) {
		snprintf(err, errlen, "--allocator %s: %.200s has no malloc, free and "
			 "malloc_usable_size", k->name, library);
		dlclose(a->handle);
		a->handle = NULL;
		return -1;
	}
	a->in_use = k->in_use;
	a->frees = (unsigned long (*)(void))dlsym(a->handle, "pc_test_alloc_frees");
	snprintf(a->version, sizeof(a->version), "unknown");
	k->version(a);
	if (dladdr((void *)a->malloc, &info) && info.dli_fname)
		snprintf(a->library, sizeof(a->library), "%s", info.dli_fname);
	return 0;
}

void pc_allocator_close(struct pc_allocator *a)
{
	/* Never unloaded: an allocator's thread caches and atexit handlers
	 * outlive the run, and dlclose would pull the code from under them. */
	a->handle = NULL;
}

static const char *say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static const char *say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return why;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;

	return x < y ? -1 : x > y;
}

/* Rounds of n blocks allocated, then freed; the distinct addresses of all
 * rounds into *distinct. NULL when every block had size usable bytes. */
static const char *rounds(const struct pc_allocator *a, size_t size, unsigned n,
			  void **seen, size_t *distinct, char *why, size_t len)
{
	unsigned r, i;
	size_t k;

	for (r = 0; r < PC_RETURN_ROUNDS; r++) {
		void **p = seen + (size_t)r * n;

		for (i = 0; i < n; i++)
			if (!(p[i] = a->malloc(size)) || a->usable_size(p[i]) < size)
				break;
		if (i < n) {
			const char *what = p[i] ? "fewer usable bytes" : "NULL";

			for (k = 0; k <= i; k++)
				if (p[k])
					a->free(p[k]);
			return say(why, len, "%s: malloc(%zu) gave %s", a->name, size, what);
		}
		for (i = 0; i < n; i++)
			a->free(p[i]);
	}
	qsort(seen, (size_t)PC_RETURN_ROUNDS * n, sizeof(*seen), by_address);
	for (k = 1, *distinct = 1; k < (size_t)PC_RETURN_ROUNDS * n; k++)
		*distinct += seen[k] != seen[k - 1];
	return NULL;
}

const char *pc_allocator_returns(const struct pc_allocator *a, size_t size,
				 unsigned n, char *why, size_t len)
{
	void **seen = calloc((size_t)PC_RETURN_ROUNDS * (n ? n : 1), sizeof(*seen));
	long long before = a->in_use ? a->in_use(a) : -1, after;
	const char *res;
	size_t distinct = 0;

	if (!seen)
		return say(why, len, "out of memory");
	res = rounds(a, size, n, seen, &distinct, why, len);
	free(seen);
	after = a->in_use ? a->in_use(a) : -1;
	if (!res && before >= 0 && after >= 0 && after != before)
		return say(why, len, "%s: %lld bytes in use after %d rounds of %u blocks "
			   "of %zu allocated and freed, %lld before", a->name, after,
			   PC_RETURN_ROUNDS, n, size, before);
	/* Memory that went back is handed out again: a leak would give
	 * PC_RETURN_ROUNDS * n distinct addresses. */
	if (!res && !a->in_use && distinct > PC_RETURN_REUSE * (size_t)n)
		return say(why, len, "%s: %zu distinct addresses in %d rounds of %u "
			   "blocks of %zu: freed memory is not reused", a->name,
			   distinct, PC_RETURN_ROUNDS, n, size);
	return res;
}

/* ---- the rows ---------------------------------------------------------------- */

int pc_alloc_select(const char *list, bool *rows, char *err, size_t errlen)
{
	int n = pc_select_names(list, pc_alloc_rows, PC_ALLOC_ROWS, rows,
				"the allocator group: alloc.malloc, alloc.free, "
				"alloc.malloc_free, alloc.remote.malloc, alloc.remote.free",
				err, errlen);
	unsigned r, others = 0;

	/* alloc.* is the default run's three: a list that selects any of them
	 * takes the remote rows only where it names alloc.remote; one that
	 * selects the remote rows alone ('alloc.*.*') keeps them */
	for (r = 0; r < PC_ALLOC_REMOTE_MALLOC; r++)
		others += rows[r];
	if (n > 0 && others && !strstr(list, "alloc.remote"))
		for (r = PC_ALLOC_REMOTE_MALLOC; r < PC_ALLOC_ROWS; r++)
			if (rows[r]) {
				rows[r] = false;
				n--;
			}
	return n;
}

/* ---- room for an allocator's thread-local storage ------------------------------ */

int pc_alloc_reexec(char **argv, char *err, size_t errlen)
{
	const char *old = getenv("GLIBC_TUNABLES");
	char *env, **av;
	int argc, i;

	if (old && strstr(old, PC_ALLOC_TLS_TUNABLE)) {
		snprintf(err, errlen, "%s set, and still no room", PC_ALLOC_TLS_TUNABLE);
		return -1;
	}
	for (argc = 0; argv[argc]; argc++)
		;
	av = calloc((size_t)argc + 2, sizeof(*av));
	if (!av || asprintf(&env, "%s%s%s=%d", old ? old : "", old ? ":" : "",
			    PC_ALLOC_TLS_TUNABLE, PC_ALLOC_TLS_BYTES) < 0) {
		free(av);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	av[0] = (char *)"primcost";
	for (i = 0; i < argc; i++)
		av[i + 1] = argv[i];
	setenv("GLIBC_TUNABLES", env, 1);
	fflush(NULL);
	execv("/proc/self/exe", av);
	snprintf(err, errlen, "cannot execute /proc/self/exe again: %s", strerror(errno));
	free(env);
	free(av);
	return -1;
}
