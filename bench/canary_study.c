/* SPDX-License-Identifier: MIT */
/*
 * bench/canary_study.c - which canary follows a slow phase of the host
 * (built and run by bench/canary-study.sh; x86-64 only).
 *
 * Every PERIOD seconds it times, interleaved, the same batch of work for
 * each candidate canary and for the code the slow phases were seen in (an
 * 8-byte malloc+free pair of glibc), and prints one line: the time and each
 * one's median cycles per operation over the period's batches. Cycles are
 * ticks scaled by a dependent add chain timed in the same period (one cycle
 * per add), so a change of the core clock does not read as a slow phase.
 *
 * Each line also gives how busy the other CPUs were during the period
 * (from /proc/stat), so that a slowdown this machine's own work caused can
 * be told from the host's.
 *
 * The candidates:
 *   adds4   4 independent adds (primcost's canary, calib.add_throughput)
 *   l1      a dependent load chain over 32 lines in 2 KiB (L1)
 *   l2      a dependent load chain over 4096 lines in 256 KiB (L2)
 *   branch  64 conditional branches in a fixed pattern a predictor learns
 *   icall   indirect calls through 16 small functions in a fixed order
 *   front   64 distinct functions called in turn (instruction cache, BTB)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <x86intrin.h>

#define BATCH 2000
#define BATCHES 64

static inline uint64_t ticks(void)
{
	unsigned aux;
	return __rdtscp(&aux);
}

static double add_chain(void)
{
	uint64_t x = 0, t0 = ticks();
	for (int i = 0; i < BATCH; i++)
		__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
				 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
				 : "+r"(x));
	return (double)(ticks() - t0) / (BATCH * 8.0);
}

static double adds4(void)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, t0 = ticks();
	for (int i = 0; i < BATCH; i++)
		__asm__ volatile("add $1, %0\n\tadd $1, %1\n\tadd $1, %2\n\tadd $1, %3\n\t"
				 "add $1, %0\n\tadd $1, %1\n\tadd $1, %2\n\tadd $1, %3"
				 : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
	return (double)(ticks() - t0) / (BATCH * 2.0);
}

static void **chain_l1, **chain_l2;

/* A cyclic chain through n lines of 64 bytes in a shuffled order. */
static void **make_chain(size_t n)
{
	void **mem = aligned_alloc(64, n * 64);
	size_t *order = malloc(n * sizeof(*order));
	if (!mem || !order)
		exit(1);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	srand(7);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		mem[order[i] * 8] = &mem[order[(i + 1) % n] * 8];
	free(order);
	return mem;
}

static double chase(void **p)
{
	uint64_t t0 = ticks();
	for (int i = 0; i < BATCH; i++) {
		p = *p; p = *p; p = *p; p = *p;
		p = *p; p = *p; p = *p; p = *p;
	}
	__asm__ volatile("" : : "r"(p));
	return (double)(ticks() - t0) / (BATCH * 8.0);
}

static double l1(void) { return chase(chain_l1); }
static double l2(void) { return chase(chain_l2); }

static unsigned char pattern[64];

static double branch(void)
{
	unsigned sum = 0;
	uint64_t t0 = ticks();
	for (int i = 0; i < BATCH; i++)
		for (int k = 0; k < 64; k++) {
			unsigned char v = pattern[k];
			__asm__ volatile("" : "+r"(v));
			if (v)
				sum += k;
			else
				sum ^= k;
		}
	__asm__ volatile("" : : "r"(sum));
	return (double)(ticks() - t0) / (BATCH * 64.0);
}

#define FN(n) __attribute__((noinline, aligned(64))) static unsigned f##n(unsigned x) \
	{ __asm__ volatile("" : "+r"(x)); return x * 3 + n; }
#define FN8(n) FN(n##0) FN(n##1) FN(n##2) FN(n##3) FN(n##4) FN(n##5) FN(n##6) FN(n##7)
FN8(1) FN8(2) FN8(3) FN8(4) FN8(5) FN8(6) FN8(7) FN8(8)
#define P8(n) f##n##0, f##n##1, f##n##2, f##n##3, f##n##4, f##n##5, f##n##6, f##n##7
static unsigned (*const fns[64])(unsigned) = { P8(1), P8(2), P8(3), P8(4), P8(5), P8(6),
					       P8(7), P8(8) };
static unsigned char icall_order[16];

static double icall(void)
{
	unsigned x = 1;
	uint64_t t0 = ticks();
	/* the 16 calls in their order, BATCH times */
	for (int i = 0; i < BATCH * 16; i++) {
		unsigned (*f)(unsigned) = fns[icall_order[i % 16]];
		__asm__ volatile("" : "+r"(f));
		x = f(x);
	}
	__asm__ volatile("" : : "r"(x));
	return (double)(ticks() - t0) / (BATCH * 16.0);
}

static double front(void)
{
	unsigned x = 1;
	uint64_t t0 = ticks();
	for (int i = 0; i < BATCH / 4; i++) {
		x = f10(x); x = f11(x); x = f12(x); x = f13(x); x = f14(x); x = f15(x);
		x = f16(x); x = f17(x); x = f20(x); x = f21(x); x = f22(x); x = f23(x);
		x = f24(x); x = f25(x); x = f26(x); x = f27(x); x = f30(x); x = f31(x);
		x = f32(x); x = f33(x); x = f34(x); x = f35(x); x = f36(x); x = f37(x);
		x = f40(x); x = f41(x); x = f42(x); x = f43(x); x = f44(x); x = f45(x);
		x = f46(x); x = f47(x); x = f50(x); x = f51(x); x = f52(x); x = f53(x);
		x = f54(x); x = f55(x); x = f56(x); x = f57(x); x = f60(x); x = f61(x);
		x = f62(x); x = f63(x); x = f64(x); x = f65(x); x = f66(x); x = f67(x);
		x = f70(x); x = f71(x); x = f72(x); x = f73(x); x = f74(x); x = f75(x);
		x = f76(x); x = f77(x); x = f80(x); x = f81(x); x = f82(x); x = f83(x);
		x = f84(x); x = f85(x); x = f86(x); x = f87(x);
	}
	__asm__ volatile("" : : "r"(x));
	return (double)(ticks() - t0) / (BATCH / 4 * 64.0);
}

static double malloc_free(void)
{
	uint64_t t0 = ticks();
	for (int i = 0; i < BATCH; i++) {
		void *p = malloc(8);
		__asm__ volatile("" : : "r"(p) : "memory");
		free(p);
	}
	return (double)(ticks() - t0) / BATCH;
}

/* The busy and total jiffies of every CPU but this one, from /proc/stat. */
static void others(unsigned long long *busy, unsigned long long *total)
{
	char line[512];
	int self = sched_getcpu(), cpu;
	FILE *f = fopen("/proc/stat", "r");

	*busy = *total = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9' ||
		    sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 || cpu == self)
			continue;
		for (int i = 0; i < 8; i++)
			*total += v[i];
		*busy += v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	}
	fclose(f);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define NK 7
static double (*const kinds[NK])(void) = { adds4, l1, l2, branch, icall, front,
					   malloc_free };
static const char *const names[NK] = { "adds4", "l1", "l2", "branch", "icall", "front",
				       "malloc_free" };

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 600, period = argc > 2 ? atof(argv[2]) : 2;
	static double v[NK][BATCHES * 64], cal[BATCHES * 64];
	struct timespec start, now;

	chain_l1 = make_chain(32);
	chain_l2 = make_chain(4096);
	for (int k = 0; k < 64; k++)
		pattern[k] = (unsigned char)((k * 37 + 11) % 7 < 3);
	for (int k = 0; k < 16; k++)
		icall_order[k] = (unsigned char)((k * 23 + 5) % 64);
	printf("t_s others_busy cpt");
	for (int k = 0; k < NK; k++)
		printf(" %s", names[k]);
	printf("\n");
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct timespec p0;
		unsigned long long b0, t0, b1, t1;
		size_t n = 0;

		others(&b0, &t0);
		clock_gettime(CLOCK_MONOTONIC, &p0);
		do {
			cal[n] = add_chain();
			for (int k = 0; k < NK; k++)
				v[k][n] = kinds[k]();
			n++;
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while (n < BATCHES * 64 &&
			 (now.tv_sec - p0.tv_sec) + (now.tv_nsec - p0.tv_nsec) / 1e9 < period);
		others(&b1, &t1);
		qsort(cal, n, sizeof(double), cmp);
		/* the add chain's fastest quartile: ticks per cycle this period */
		double tpc = cal[n / 4];
		printf("%.1f %.2f %.4f",
		       (now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9,
		       t1 > t0 ? (double)(b1 - b0) / (double)(t1 - t0) : 0.0, 1 / tpc);
		for (int k = 0; k < NK; k++) {
			qsort(v[k], n, sizeof(double), cmp);
			printf(" %.3f", v[k][n / 2] / tpc);
		}
		printf("\n");
		fflush(stdout);
		if ((now.tv_sec - start.tv_sec) >= seconds)
			return 0;
	}
}
