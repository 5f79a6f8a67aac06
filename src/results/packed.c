/* SPDX-License-Identifier: MIT */
/* packed.c - raw samples as packed strings (see packed.h). */
#include <errno.h>
#include <math.h>
#if defined(__i386__) && !defined(__SSE2_MATH__)
#include <fpu_control.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "packed.h"
#include "core/stats.h"

#define MAX_POW 22		/* 10^22 is the largest exact power of ten */
#define MAX_EXACT 9007199254740992.0	/* 2^53 */
/* Shorter strings are left to the JSON lexer: not worth a placeholder. */
#define EXTRACT_MIN 64

static const double pow10_exact[MAX_POW + 1] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* n over 10^k: division and multiplication by an exact power of ten are
 * correctly rounded, so this is the double nearest n x 10^-k, the one a
 * decimal reader gives. */
static double scaled(int64_t n, int k)
{
	/* volatile: an i386 build computes in the x87's 80 bits, and the value
	 * must be rounded to a double before it is compared or returned. */
	volatile double d;
#if defined(__i386__) && !defined(__SSE2_MATH__)
	/* ...and rounded once: a quotient rounded to 64 bits, then to 53,
	 * is not always the correctly rounded one a decimal reader gives.
	 * The x87 divides to 53 bits while its precision control says so. */
	fpu_control_t cw, dbl;

	_FPU_GETCW(cw);
	dbl = (fpu_control_t)((cw & ~_FPU_EXTENDED) | _FPU_DOUBLE);
	_FPU_SETCW(dbl);
#endif
	d = k >= 0 ? (double)n / pow10_exact[k] : (double)n * pow10_exact[-k];
#if defined(__i386__) && !defined(__SSE2_MATH__)
	_FPU_SETCW(cw);
#endif
	return d;
}

/* The integers of v at 10^k, when every one decodes back exactly. */
static int to_integers(const double *v, size_t n, int k, int64_t *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double x = k >= 0 ? v[i] * pow10_exact[k] : v[i] / pow10_exact[-k];

		if (!(fabs(x) < MAX_EXACT))
			return -1;
		out[i] = llround(x);
		if (scaled(out[i], k) != v[i])
			return -1;
	}
	return 0;
}

/* The power of ten that gives the least significant of 7 digits. */
static int finest_power(const double *v, size_t n)
{
	int k = -MAX_POW;
	size_t i;

	for (i = 0; i < n; i++) {
		int ki;

		if (v[i] == 0)
			continue;
		ki = 6 - (int)floor(log10(fabs(v[i])));
		if (ki > k)
			k = ki;
	}
	return k < -MAX_POW ? -MAX_POW : k;
}

static size_t put_varint(unsigned char *p, uint64_t z)
{
	size_t len = 0;

	while (z >= 0x80) {
		p[len++] = (unsigned char)(z | 0x80);
		z >>= 7;
	}
	p[len++] = (unsigned char)z;
	return len;
}

static void put_base64(char *o, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		*o++ = b64[b[i] >> 2];
		*o++ = b64[((b[i] & 3) << 4) | (b[i + 1] >> 4)];
		*o++ = b64[((b[i + 1] & 15) << 2) | (b[i + 2] >> 6)];
		*o++ = b64[b[i + 2] & 63];
	}
	if (n - i == 1) {
		*o++ = b64[b[i] >> 2];
		*o++ = b64[(b[i] & 3) << 4];
		*o++ = '=';
		*o++ = '=';
	} else if (n - i == 2) {
		*o++ = b64[b[i] >> 2];
		*o++ = b64[((b[i] & 3) << 4) | (b[i + 1] >> 4)];
		*o++ = b64[(b[i + 1] & 15) << 2];
		*o++ = '=';
	}
	*o = 0;
}

char *pc_pack_doubles(const double *v, size_t n)
{
	int64_t *ints = malloc((n ? n : 1) * sizeof(*ints)), prev = 0;
	unsigned char *bytes = malloc(n * 10 + 1);
	char *s = NULL;
	size_t i, nb = 0, head;
	int k, k0;

	if (!ints || !bytes)
		goto out;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			goto out;
	k0 = finest_power(v, n);
	for (k = k0; k <= k0 + 2 && k <= MAX_POW; k++)
		if (to_integers(v, n, k, ints) == 0)
			break;
	if (k > k0 + 2 || k > MAX_POW)
		goto out;
	for (i = 0; i < n; i++) {
		uint64_t d = (uint64_t)ints[i] - (uint64_t)prev;

		nb += put_varint(bytes + nb, (d << 1) ^ (uint64_t)((int64_t)d >> 63));
		prev = ints[i];
	}
	s = malloc(64 + (nb + 2) / 3 * 4 + 1);
	if (!s)
		goto out;
	head = (size_t)sprintf(s, PC_PACKED_PREFIX "%d:%zu:", k, n);
	put_base64(s + head, bytes, nb);
out:
	free(ints);
	free(bytes);
	return s;
}

int pc_is_packed(const char *s)
{
	return s && strncmp(s, PC_PACKED_PREFIX, sizeof(PC_PACKED_PREFIX) - 1) == 0;
}

/* "K:N:" after the prefix: *k, *n, and where the payload starts. */
static const char *header(const char *s, int *k, size_t *n)
{
	char *end;
	long kv;
	unsigned long long nv;

	if (!pc_is_packed(s))
		return NULL;
	s += sizeof(PC_PACKED_PREFIX) - 1;
	errno = 0;
	kv = strtol(s, &end, 10);
	if (end == s || *end != ':' || kv < -MAX_POW || kv > MAX_POW)
		return NULL;
	s = end + 1;
	if (*s < '0' || *s > '9')
		return NULL;
	nv = strtoull(s, &end, 10);
	if (errno || *end != ':' || nv > 100000000ULL)
		return NULL;
	*k = (int)kv;
	*n = (size_t)nv;
	return end + 1;
}

size_t pc_packed_count(const char *s)
{
	int k;
	size_t n = 0;

	return header(s, &k, &n) ? n : 0;
}

/* Per byte: its base64 value, PAD_OK for the other characters of a packed
 * string ('=', ':', '-'), or BAD. Built once. */
#define BAD 0xff
#define PAD_OK 0xfe
static unsigned char cls[256];
/* Per byte: 1 where cls is BAD, for scans eight bytes a step. */
static unsigned char foreign[256];

static void cls_init(void)
{
	int c;

	if (cls['A'] == 0 && cls['B'] == 1)
		return;
	memset(cls, BAD, sizeof(cls));
	for (c = 0; c < 64; c++)
		cls[(unsigned char)b64[c]] = (unsigned char)c;
	cls['='] = cls[':'] = cls['-'] = PAD_OK;
	for (c = 0; c < 256; c++)
		foreign[c] = cls[c] == BAD;
}

/* The first byte of u[i..n) that no packed string holds, or n. */
static size_t clean_span(const unsigned char *u, size_t i, size_t n)
{
	while (i + 8 <= n && !(foreign[u[i]] | foreign[u[i + 1]] | foreign[u[i + 2]] |
			       foreign[u[i + 3]] | foreign[u[i + 4]] | foreign[u[i + 5]] |
			       foreign[u[i + 6]] | foreign[u[i + 7]]))
		i += 8;
	while (i < n && !foreign[u[i]])
		i++;
	return i;
}


/* Decoding state: the values so far and the varint being read. */
struct unpack {
	double *out;		/* NULL: only check */
	size_t i, count;
	int64_t acc;
	uint64_t z;
	unsigned shift;
	int k;
	double limit;
	double inside;		/* |n| below it: |n / 10^k| is within limit */
};

/* One byte of the varint stream; -1 with err filled on a bad value. */
static int take(struct unpack *u, unsigned char b, char *err, size_t errlen)
{
	double v;

	u->z |= (uint64_t)(b & 0x7f) << u->shift;
	if (b & 0x80) {
		u->shift += 7;
		if (u->shift > 63) {
			snprintf(err, errlen, "packed samples: value %zu: varint too long", u->i);
			return -1;
		}
		return 0;
	}
	if (u->i >= u->count) {
		snprintf(err, errlen, "packed samples: more values than the %zu announced",
			 u->count);
		return -1;
	}
	u->acc = (int64_t)((uint64_t)u->acc + ((u->z >> 1) ^ (0 - (u->z & 1))));
	u->z = 0;
	u->shift = 0;
	if (u->acc > (int64_t)MAX_EXACT || u->acc < -(int64_t)MAX_EXACT) {
		snprintf(err, errlen, "packed samples: value %zu out of range", u->i);
		return -1;
	}
	/* Checking only, a value well inside the limit needs no division. */
	if (!u->out && fabs((double)u->acc) < u->inside) {
		u->i++;
		return 0;
	}
	v = scaled(u->acc, u->k);
	if (!isfinite(v) || fabs(v) > u->limit) {
		snprintf(err, errlen, "packed samples: value %zu is %g (limit %g)", u->i, v,
			 u->limit);
		return -1;
	}
	if (u->out)
		u->out[u->i] = v;
	u->i++;
	return 0;
}

/* Base64 straight into the varint stream: no buffer of bytes. */
static int decode_stream(const char *s, size_t len, struct unpack *u, char *err,
			 size_t errlen)
{
	size_t i, pad = 0;

	if (len % 4) {
		snprintf(err, errlen, "packed samples: not base64 (length %zu)", len);
		return -1;
	}
	if (len && s[len - 1] == '=')
		pad = len >= 2 && s[len - 2] == '=' ? 2 : 1;
	for (i = 0; i < len; i += 4) {
		const unsigned char *c = (const unsigned char *)s + i;
		unsigned q0 = cls[c[0]], q1 = cls[c[1]], q2 = cls[c[2]], q3 = cls[c[3]];
		unsigned char b[3];
		size_t nb = 3, j;

		if (i + 4 == len && pad) {	/* the '=' of the last group */
			q3 = 0;
			nb = 2;
			if (pad == 2) {
				q2 = 0;
				nb = 1;
			}
		}
		if ((q0 | q1 | q2 | q3) > 63) {
			snprintf(err, errlen, "packed samples: not base64");
			return -1;
		}
		b[0] = (unsigned char)((q0 << 2) | (q1 >> 4));
		b[1] = (unsigned char)((q1 << 4) | (q2 >> 2));
		b[2] = (unsigned char)((q2 << 6) | q3);
		for (j = 0; j < nb; j++)
			if (take(u, b[j], err, errlen) < 0)
				return -1;
	}
	return 0;
}

/* One value's varint byte, for fast_stream: 0 on, -1 on any failure. */
#define FAST_TAKE(b) do {						\
	unsigned char b_ = (unsigned char)(b);				\
	z |= (uint64_t)(b_ & 0x7f) << shift;				\
	if (b_ & 0x80) {						\
		shift += 7;						\
		if (shift > 63)						\
			return -1;					\
	} else {							\
		if (i >= u->count)					\
			return -1;					\
		acc = (int64_t)((uint64_t)acc + ((z >> 1) ^ (0 - (z & 1)))); \
		z = 0;							\
		shift = 0;						\
		if ((uint64_t)acc + sure > 2 * sure) {			\
			if (acc > (int64_t)MAX_EXACT || acc < -(int64_t)MAX_EXACT) \
				return -1;				\
			if (!(fabs((double)acc) < u->inside)) {		\
				double v_ = scaled(acc, u->k);		\
									\
				if (!isfinite(v_) || fabs(v_) > u->limit) \
					return -1;			\
			}						\
		}							\
		if (ints)						\
			ints[i] = acc;					\
		i++;							\
	}								\
} while (0)

/*
 * decode_stream's checks in a tight loop, with the state in registers and
 * no message: 0 when the payload is sound (ints, when given, then holds
 * its u->count integers), -1 at the first fault of any kind, which
 * decode_stream then finds again and words. A value well inside the limit
 * is accepted without a division, as take does when only checking: the
 * two decide alike, since inside is below the limit by far more than a
 * rounding.
 */
static int fast_stream(const char *s, size_t len, const struct unpack *u,
		       int64_t *ints)
{
	const unsigned char *c = (const unsigned char *)s;
	size_t q, full, i = 0;
	uint64_t z = 0, sure;
	unsigned shift = 0, bad = 0;
	int64_t acc = 0;

	if (len % 4 || !(u->limit >= 0))
		return -1;
	/* |acc| <= sure: in range and inside the limit, one comparison (0
	 * is always inside a limit that is not negative) */
	sure = u->inside >= MAX_EXACT + 1 ? (uint64_t)MAX_EXACT :
	       u->inside > 1 ? (uint64_t)ceil(u->inside) - 1 : 0;
	full = len && s[len - 1] == '=' ? len - 4 : len;	/* the padded group last */
	for (q = 0; q < full; q += 4) {
		unsigned q0 = cls[c[q]], q1 = cls[c[q + 1]], q2 = cls[c[q + 2]],
			 q3 = cls[c[q + 3]];
		uint32_t w = (q0 << 18) | (q1 << 12) | (q2 << 6) | q3;

		bad |= q0 | q1 | q2 | q3;
		FAST_TAKE(w >> 16);
		FAST_TAKE(w >> 8);
		FAST_TAKE(w);
	}
	if (full < len) {
		unsigned q0 = cls[c[full]], q1 = cls[c[full + 1]],
			 q2 = s[len - 2] == '=' ? 0 : cls[c[full + 2]];
		uint32_t w = (q0 << 18) | (q1 << 12) | (q2 << 6);

		bad |= q0 | q1 | q2;
		FAST_TAKE(w >> 16);
		if (s[len - 2] != '=')
			FAST_TAKE(w >> 8);
	}
	return bad > 63 || shift || i != u->count ? -1 : 0;
}

/* The header of s checked against max; u set up for the payload at *p. */
static int unpack_begin(const char *s, size_t max, double limit, struct unpack *u,
			const char **p, char *err, size_t errlen)
{
	memset(u, 0, sizeof(*u));
	u->limit = limit;
	cls_init();
	*p = header(s, &u->k, &u->count);
	if (!*p) {
		snprintf(err, errlen, "not a packed array (\"%sK:N:BASE64\")",
			 PC_PACKED_PREFIX);
		return -1;
	}
	u->inside = (u->k >= 0 ? limit * pow10_exact[u->k] : limit / pow10_exact[-u->k]) *
		    (1 - 1e-9);
	if (u->count > max) {
		snprintf(err, errlen, "%zu samples (limit %zu)", u->count, max);
		return -1;
	}
	return 0;
}

/* The fast way: *out (NULL: only checks) filled from the integers. */
static int unpack_fast(const char *p, size_t plen, struct unpack *u, double **out)
{
	int64_t *ints = NULL;
	size_t i;

	if (!out)
		return fast_stream(p, plen, u, NULL);
	if (!u->count || !(ints = malloc(u->count * sizeof(*ints))))
		return -1;
	if (fast_stream(p, plen, u, ints) < 0 ||
	    !(*out = malloc(u->count * sizeof(**out)))) {
		free(ints);
		return -1;
	}
	for (i = 0; i < u->count; i++)
		(*out)[i] = scaled(ints[i], u->k);
	free(ints);
	return 0;
}

int pc_unpack_doubles(const char *s, size_t len, size_t max, double limit,
		      double **out, size_t *n, char *err, size_t errlen)
{
	struct unpack u;
	const char *p;
	size_t plen;

	if (out)
		*out = NULL;
	*n = 0;
	if (unpack_begin(s, max, limit, &u, &p, err, errlen) < 0)
		return -1;
	plen = len - (size_t)(p - s);
	if (unpack_fast(p, plen, &u, out) == 0) {
		*n = u.count;
		return 0;
	}
	/* A fault (or an empty array): the careful way, which words it. */
	if (out && u.count && !(u.out = malloc(u.count * sizeof(*u.out)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (decode_stream(p, plen, &u, err, errlen) < 0 ||
	    (u.shift && snprintf(err, errlen, "packed samples: the last value is cut "
				 "short") >= 0) ||
	    (u.i != u.count && snprintf(err, errlen, "packed samples: %zu of %zu values",
					u.i, u.count) >= 0)) {
		free(u.out);
		return -1;
	}
	if (out)
		*out = u.out;
	*n = u.count;
	return 0;
}

long pc_samples_count(json_t *v)
{
	if (json_is_array(v))
		return (long)json_array_size(v);
	if (json_is_string(v) && pc_is_packed(json_string_value(v)))
		return (long)pc_packed_count(json_string_value(v));
	return -1;
}

double *pc_samples_values(json_t *v, size_t *n)
{
	double *out = NULL;
	char err[128];
	size_t i;

	*n = 0;
	if (json_is_string(v)) {
		if (pc_unpack_doubles(json_string_value(v), json_string_length(v),
				      (size_t)-1, INFINITY, &out, n, err, sizeof(err)) < 0)
			return NULL;
		return out;
	}
	*n = json_array_size(v);
	out = *n ? malloc(*n * sizeof(*out)) : NULL;
	for (i = 0; out && i < *n; i++)
		out[i] = json_number_value(json_array_get(v, i));
	if (!out)
		*n = 0;
	return out;
}

/* Packed samples sorted: the integers are sorted (few radix passes: they
 * span a narrow range), then divided. Division by a power of ten and the
 * product by scale are monotonic, so this is the order of the values;
 * should a hostile file make it otherwise, they are sorted again. */
static double *packed_sorted(const char *s, size_t len, double scale, size_t *n)
{
	struct unpack u;
	const char *p;
	char err[128];
	int64_t *ints;
	double *out = NULL;
	size_t i;

	if (unpack_begin(s, (size_t)-1, INFINITY, &u, &p, err, sizeof(err)) < 0 ||
	    !u.count || !(ints = malloc(u.count * sizeof(*ints))))
		return NULL;
	if (fast_stream(p, len - (size_t)(p - s), &u, ints) == 0 &&
	    pc_sort_i64(ints, u.count) == 0 &&
	    (out = malloc(u.count * sizeof(*out)))) {
		for (i = 0; i < u.count; i++)
			out[i] = scaled(ints[i], u.k) * scale;
		if (pc_sort_doubles(out, u.count) == 0)
			*n = u.count;
		else {
			free(out);
			out = NULL;
		}
	}
	free(ints);
	return out;
}

double *pc_samples_sorted(json_t *v, double scale, size_t *n)
{
	double *out;
	size_t i;

	*n = 0;
	if (json_is_string(v) && pc_is_packed(json_string_value(v)) &&
	    (out = packed_sorted(json_string_value(v), json_string_length(v), scale, n)))
		return out;
	out = pc_samples_values(v, n);
	for (i = 0; out && i < *n; i++)
		out[i] *= scale;
	if (out && pc_sort_doubles(out, *n) < 0) {
		free(out);
		out = NULL;
		*n = 0;
	}
	return out;
}

/* An array of numbers as a packed string, when it packs losslessly. */
static void pack_member(json_t *obj, const char *key)
{
	json_t *a = json_object_get(obj, key);
	double *v;
	char *s;
	size_t n;

	if (!json_is_array(a) || !json_array_size(a))
		return;
	v = pc_samples_values(a, &n);
	s = v ? pc_pack_doubles(v, n) : NULL;
	if (s)
		json_object_set_new(obj, key, json_string_nocheck(s));
	free(s);
	free(v);
}

void pc_probe_pack_raw(json_t *p)
{
	json_t *raw = json_object_get(p, "raw"), *e;
	const char *k;
	void *it;

	json_object_foreach_safe(raw, it, k, e)
		pack_member(raw, k);
	json_object_foreach(json_object_get(p, "events"), k, e)
		pack_member(e, "raw");
}

void pc_doc_pack_raw(json_t *doc)
{
	json_t *entry, *p, *run;
	const char *key, *name;
	size_t i;

	json_object_foreach(json_object_get(doc, "cpus"), key, entry) {
		json_object_foreach(json_object_get(entry, "probes"), name, p)
			pc_probe_pack_raw(p);
		json_array_foreach(json_object_get(entry, "runs"), i, run)
			json_object_foreach(json_object_get(run, "probes"), name, p)
				pc_probe_pack_raw(p);
	}
}

int pc_packed_clean(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	cls_init();
	return pc_is_packed(s) && clean_span(u, 0, n) == n;
}

/* ---- reading without the lexer ------------------------------------------- */


static int store_add(struct pc_packed_store *st, const char *s, size_t len)
{
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 256;
		void *g = realloc(st->item, cap * sizeof(*st->item));

		if (!g)
			return -1;
		st->item = g;
		st->cap = cap;
	}
	st->item[st->n].s = s;
	st->item[st->n].len = len;
	st->n++;
	return 0;
}

/* The string that starts at buf[i] (a quote): its end (the closing quote,
 * or len), and whether it is a packed payload to take out. */
static size_t string_end(const char *buf, size_t len, size_t i, int *packed)
{
	const unsigned char *u = (const unsigned char *)buf;
	size_t j = i + 1;
	int clean = 1;

	/* the characters of a packed string, fast; then any string's */
	j = clean_span(u, j, len);
	while (j < len && buf[j] != '"') {
		if (buf[j] == '\\') {
			clean = 0;
			j += 2;
			continue;
		}
		clean = 0;
		j++;
	}
	if (j > len)
		j = len;
	*packed = clean && j < len && j - i - 1 >= EXTRACT_MIN &&
		  strncmp(buf + i + 1, PC_PACKED_PREFIX, sizeof(PC_PACKED_PREFIX) - 1) == 0;
	return j;
}

/* Is the string that ended at buf[j] an object key (a ':' follows)? */
static int is_key(const char *buf, size_t len, size_t j)
{
	for (j++; j < len; j++) {
		if (buf[j] == ' ' || buf[j] == '\t' || buf[j] == '\n' || buf[j] == '\r')
			continue;
		return buf[j] == ':';
	}
	return 0;
}

char *pc_packed_extract(const char *buf, size_t len, size_t *outlen,
			struct pc_packed_store *st)
{
	char *out = malloc(len + 1), *o = out;
	size_t i = 0;

	memset(st, 0, sizeof(*st));
	if (!out)
		return NULL;
	cls_init();
	if (getrandom(&st->nonce, sizeof(st->nonce), GRND_NONBLOCK) != sizeof(st->nonce))
		st->nonce = (unsigned long long)time(NULL) ^ (unsigned long long)(uintptr_t)out;
	while (i < len) {
		const char *q = memchr(buf + i, '"', len - i);
		size_t j;
		int packed;

		if (!q) {
			memcpy(o, buf + i, len - i);
			o += len - i;
			break;
		}
		memcpy(o, buf + i, (size_t)(q - buf) - i);
		o += (size_t)(q - buf) - i;
		i = (size_t)(q - buf);
		j = string_end(buf, len, i, &packed);
		if (packed && !is_key(buf, len, j) && store_add(st, buf + i + 1, j - i - 1) == 0) {
			/* a placeholder is never longer than what it replaces */
			o += sprintf(o, "\"dz1#%016llx#%zu\"", st->nonce, st->n - 1);
		} else {
			size_t end = j < len ? j + 1 : len;

			memcpy(o, buf + i, end - i);
			o += end - i;
		}
		i = j + 1;
	}
	*o = 0;
	*outlen = (size_t)(o - out);
	return out;
}

/* The payload a placeholder string names, or -1. */
static long placeholder(json_t *v, const struct pc_packed_store *st)
{
	const char *s = json_string_value(v);
	unsigned long long nonce;
	size_t idx;
	int used = 0;

	if (!s || strncmp(s, "dz1#", 4) != 0 ||
	    sscanf(s, "dz1#%16llx#%zu%n", &nonce, &idx, &used) != 2 ||
	    s[used] || nonce != st->nonce || idx >= st->n)
		return -1;
	return (long)idx;
}

/* Each placeholder in j given its string back, in place (a placeholder is
 * a string of its own). */
static int restore(json_t *j, const struct pc_packed_store *st, int depth)
{
	long idx = placeholder(j, st);
	const char *k;
	json_t *v;
	size_t i;

	if (idx >= 0)
		return json_string_setn_nocheck(j, st->item[idx].s, st->item[idx].len);
	if (depth > 64)
		return 0;	/* the validator refuses such nesting anyway */
	if (json_is_object(j)) {
		json_object_foreach(j, k, v)
			if (restore(v, st, depth + 1) < 0)
				return -1;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (restore(v, st, depth + 1) < 0)
				return -1;
	}
	return 0;
}

int pc_packed_restore(json_t *doc, struct pc_packed_store *st)
{
	return st->n ? restore(doc, st, 0) : 0;
}

void pc_packed_store_free(struct pc_packed_store *st)
{
	free(st->item);
	memset(st, 0, sizeof(*st));
}
