/* SPDX-License-Identifier: MIT */
/*
 * test_alloc.c - the test allocator, tests/libpctestalloc.so: primcost's
 * fifth --allocator (test), for the tests only (PRIMCOST_TEST_ALLOCATOR
 * names the library). glibc's malloc and free underneath, but every K-th
 * malloc of a thread takes a known slow path first: it spins until
 * PRIMCOST_TEST_ALLOCATOR_SLOW_US microseconds (default 20) have passed
 * on the monotonic clock. K is PRIMCOST_TEST_ALLOCATOR_EVERY (default
 * 100). A distribution of its calls must show that mode with mass 1/K:
 * nothing the measurement does can tune it away (tests/alloc_dist.sh).
 * free() counts the frees of each thread: the remote pattern must count
 * every free at its far end (pc_test_alloc_frees(), which primcost finds
 * by name); with PRIMCOST_TEST_ALLOCATOR_MISCOUNT set, the count leaves
 * out every 1000th free, and the remote points must fail on it.
 * malloc_usable_size() is glibc's own, found in libc itself: found through
 * this library's dependencies, it was AddressSanitizer's where the tests
 * are built with it, which refuses a block that glibc gave.
 */
#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *p);

static unsigned long every = 100, slow_ns = 20000;
static int miscount;
static size_t (*libc_usable_size)(void *);
static __thread unsigned long mallocs, frees;

__attribute__((constructor)) static void test_alloc_init(void)
{
	const char *k = getenv("PRIMCOST_TEST_ALLOCATOR_EVERY");
	const char *us = getenv("PRIMCOST_TEST_ALLOCATOR_SLOW_US");
	void *libc;

	if (k && strtoul(k, NULL, 10) >= 1)
		every = strtoul(k, NULL, 10);
	if (us && strtoul(us, NULL, 10) >= 1)
		slow_ns = strtoul(us, NULL, 10) * 1000;
	miscount = getenv("PRIMCOST_TEST_ALLOCATOR_MISCOUNT") != NULL;
	libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
	if (libc)
		libc_usable_size = (size_t (*)(void *))dlsym(libc, "malloc_usable_size");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The slow path: a spin of slow_ns on the clock. */
static void __attribute__((noinline)) slow_path(void)
{
	uint64_t end = now_ns() + slow_ns;

	while (now_ns() < end)
		;
}

void *malloc(size_t size)
{
	if (++mallocs % every == 0)
		slow_path();
	return __libc_malloc(size);
}

void free(void *p)
{
	static __thread unsigned long calls;

	if (p && !(miscount && ++calls % 1000 == 0))
		frees++;
	__libc_free(p);
}

size_t malloc_usable_size(void *p)
{
	return libc_usable_size && p ? libc_usable_size(p) : 0;
}

/* The frees of the calling thread so far. */
unsigned long pc_test_alloc_frees(void)
{
	return frees;
}
