/* SPDX-License-Identifier: MIT */
/*
 * runner_parse.c - reading a freestanding probe runner's text output
 * (runner/runner.h documents the records): one row per record keyword in
 * a table, one small handler per record, and the question a run that died
 * leaves: which probe was it running.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_host.h"
#include "runner_parts.h"
#include "runner/runner.h"

#define MAX_WORDS 48
#define MAX_LINE 1024		/* bytes of a record line, "pcr " included */

/* The line being read, for the handlers' errors. */
struct line_ctx {
	size_t lineno;
	const struct record *rec;
	char *err;
	size_t errlen;
};

/*
 * A record: its keyword, how many words its line has (the keyword
 * included; max_words 0: any number), the error for another count (the
 * handler reports an unreadable number with it too), and its handler.
 */
struct record {
	const char *keyword;
	int min_words, max_words;
	const char *malformed;
	int (*parse)(struct pc_runner_output *out, char **w, int n, struct line_ctx *at);
};

static int bad(struct line_ctx *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Writes "runner output line N: ..." into the error; returns -1. */
static int bad(struct line_ctx *at, const char *fmt, ...)
{
	int o = snprintf(at->err, at->errlen, "runner output line %zu: ", at->lineno);
	va_list ap;

	va_start(ap, fmt);
	if (o >= 0 && (size_t)o < at->errlen)
		vsnprintf(at->err + o, at->errlen - (size_t)o, fmt, ap);
	va_end(ap);
	return -1;
}

static int malformed(struct line_ctx *at)
{
	return bad(at, "%s", at->rec->malformed);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

/* Reads w[from..from+k) as numbers into v; -1 if one is not a number. */
static int parse_u64s(char **w, int from, int k, uint64_t *v)
{
	int i;

	for (i = 0; i < k; i++)
		if (parse_u64(w[from + i], &v[i]) < 0)
			return -1;
	return 0;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *q;
	size_t n;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* Joins words[from..n) with spaces. */
static void join(char *dst, size_t len, char **w, int from, int n)
{
	size_t o = 0;
	int i;

	dst[0] = 0;
	for (i = from; i < n && o < len; i++)
		o += (size_t)snprintf(dst + o, len - o, "%s%s", i > from ? " " : "", w[i]);
}

/* ---- the header records ------------------------------------------------------------ */

static int rec_format(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	uint64_t v;

	(void)n;
	if (parse_u64(w[1], &v) < 0)
		return malformed(at);
	if (v != 1)
		return bad(at, "format version %llu (this primcost reads 1)",
			   (unsigned long long)v);
	out->format = 1;
	return 0;
}

/* A one-word record (arch, mode, timer): its word into out's field of the
 * same name. */
static int rec_word(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	const struct {
		const char *keyword;
		char *field;
		size_t size;
	} fields[] = {
		{ "arch", out->arch, sizeof(out->arch) },
		{ "mode", out->mode, sizeof(out->mode) },
		{ "timer", out->timer, sizeof(out->timer) },
	};
	size_t i;

	(void)n;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strcmp(at->rec->keyword, fields[i].keyword) == 0)
			copy_str(fields[i].field, fields[i].size, w[1]);
	return 0;
}

static int rec_unroll(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	uint64_t v[2];

	(void)n;
	if (parse_u64s(w, 1, 2, v) < 0)
		return malformed(at);
	if (v[0] != PC_UNROLL_LO || v[1] != PC_UNROLL_HI)
		return bad(at, "the runner unrolls %llu/%llu times, this primcost %d/%d: "
			   "rebuild the runner from this source tree",
			   (unsigned long long)v[0], (unsigned long long)v[1],
			   PC_UNROLL_LO, PC_UNROLL_HI);
	out->unroll_lo = (unsigned)v[0];
	out->unroll_hi = (unsigned)v[1];
	return 0;
}

static int rec_cpu(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	uint64_t v;

	(void)n;
	out->have_cpu = true;
	if (strcmp(w[1], "vendor") == 0) {
		copy_str(out->vendor, sizeof(out->vendor), w[2]);
		return 0;
	}
	if (parse_u64(w[2], &v) < 0 || v > INT_MAX)
		return bad(at, "cpu %s: not a number", w[1]);
	if (strcmp(w[1], "family") == 0)
		out->family = (int)v;
	else if (strcmp(w[1], "model") == 0)
		out->model = (int)v;
	else if (strcmp(w[1], "revision") == 0)
		out->revision = (int)v;
	else if (strcmp(w[1], "archrev") == 0)
		out->archrev = (int)v;
	return 0;	/* other facts: ignored */
}

static int rec_clock(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	uint64_t v[4];

	(void)n;
	if (parse_u64s(w, 1, 4, v) < 0)
		return malformed(at);
	if (v[2] > v[0] && v[3] > v[1] &&
	    out->nclock < sizeof(out->clock_hz) / sizeof(out->clock_hz[0]))
		out->clock_hz[out->nclock++] = (double)(v[3] - v[1]) * 1e6 /
					       (double)(v[2] - v[0]);
	return 0;
}

static int rec_target(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	(void)n;
	if (parse_u64(w[1], &out->target_ticks) < 0)
		return malformed(at);
	return 0;
}

static int rec_end(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	uint64_t v;

	(void)n;
	if (parse_u64(w[1], &v) < 0)
		return malformed(at);
	out->ended = true;
	return 0;
}

static int rec_error(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	char why[256];

	(void)out;
	join(why, sizeof(why), w, 1, n);
	return bad(at, "the runner refused its arguments: %s", why);
}

/* ---- the records about one probe (w[1] names it) --------------------------------------- */

/* The probe w[1] names, marked seen; NULL with the error when unknown. */
static struct pc_runner_probe *named_probe(struct pc_runner_output *out, char **w,
					   struct line_ctx *at)
{
	int id = pc_probe_find(w[1]);

	if (id < 0) {
		bad(at, "unknown probe '%.60s' (a runner built from another probe table?)",
		    w[1]);
		return NULL;
	}
	out->probes[id].seen = true;
	return &out->probes[id];
}

static int rec_status(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	static const struct { const char *word; enum pc_status status; } statuses[] = {
		{ "skipped", PC_STATUS_SKIPPED },
		{ "unsupported", PC_STATUS_UNSUPPORTED },
		{ "failed", PC_STATUS_FAILED },
	};
	struct pc_runner_probe *p = named_probe(out, w, at);
	size_t i;

	if (!p)
		return -1;
	if (n < 3)
		return bad(at, "status without a status");
	for (i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (strcmp(w[2], statuses[i].word) == 0)
			break;
	if (i == sizeof(statuses) / sizeof(statuses[0]))
		return bad(at, "unknown status '%.40s'", w[2]);
	p->status = statuses[i].status;
	p->has_status = true;
	join(p->reason, sizeof(p->reason), w, 3, n);
	return 0;
}

static int rec_probe(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	struct pc_runner_probe *p = named_probe(out, w, at);

	if (!p)
		return -1;
	if (n != 4 || parse_u64(w[2], &p->iters) < 0 ||
	    parse_u64(w[3], &p->cal_iters) < 0 || !p->iters || !p->cal_iters)
		return bad(at, "malformed probe line");
	p->measured = true;
	return 0;
}

/* The probe a sample or linearity pair is of: named, and measured. */
static struct pc_runner_probe *sampled_probe(struct pc_runner_output *out, char **w,
					     struct line_ctx *at)
{
	struct pc_runner_probe *p = named_probe(out, w, at);

	if (p && !p->measured) {
		bad(at, "a sample of '%s' before its probe line", w[1]);
		return NULL;
	}
	return p;
}

static int rec_sample(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	struct pc_runner_probe *p = sampled_probe(out, w, at);
	uint64_t v[4];

	if (!p)
		return -1;
	if (n != 6 || parse_u64s(w, 2, 4, v) < 0)
		return bad(at, "malformed sample line");
	if (grow((void **)&p->s, &p->cap, p->n + 1, sizeof(*p->s)) < 0)
		return bad(at, "out of memory");
	memcpy(p->s[p->n++], v, sizeof(v));
	return 0;
}

static int rec_lin(struct pc_runner_output *out, char **w, int n, struct line_ctx *at)
{
	struct pc_runner_probe *p = sampled_probe(out, w, at);
	uint64_t v[2];
	int i;

	if (!p)
		return -1;
	if (n != 4)
		return bad(at, "malformed lin line");
	/* Signed: a "-" before a negative difference; runners before that
	 * wrote one as its 64-bit two's complement. */
	for (i = 0; i < 2; i++)
		if (parse_u64(w[i + 2] + (w[i + 2][0] == '-'), &v[i]) < 0 ||
		    (w[i + 2][0] == '-' && v[i] > INT64_MAX))
			return bad(at, "malformed lin line");
	if (grow((void **)&p->lin, &p->caplin, p->nlin + 1, sizeof(*p->lin)) < 0)
		return bad(at, "out of memory");
	for (i = 0; i < 2; i++)
		p->lin[p->nlin][i] = w[i + 2][0] == '-' ? -(double)v[i] :
				     (double)(int64_t)v[i];
	p->nlin++;
	return 0;
}

/* ---- the table ----------------------------------------------------------------------- */

static const struct record records[] = {
	/* keyword, words min max, the error for another count, handler */
	{ "primcost-runner", 2, 2, "malformed format line", rec_format },
	{ "arch", 2, 2, "'arch' wants one word", rec_word },
	{ "mode", 2, 2, "'mode' wants one word", rec_word },
	{ "timer", 2, 2, "'timer' wants one word", rec_word },
	{ "unroll", 3, 3, "malformed unroll line", rec_unroll },
	{ "cpu", 3, 0, "malformed cpu line", rec_cpu },
	{ "clock", 5, 5, "malformed clock line", rec_clock },
	{ "target", 2, 2, "malformed target line", rec_target },
	{ "end", 2, 2, "malformed end line", rec_end },
	{ "error", 1, 0, NULL, rec_error },
	/* the rest of these lines is checked once the probe is known */
	{ "status", 2, 0, "'status' without a probe name", rec_status },
	{ "probe", 2, 0, "'probe' without a probe name", rec_probe },
	{ "s", 2, 0, "'s' without a probe name", rec_sample },
	{ "lin", 2, 0, "'lin' without a probe name", rec_lin },
};

#define NRECORDS (sizeof(records) / sizeof(records[0]))

/* One record's words (w[0] the keyword, "pcr " removed): 0, or -1 with err. */
static int parse_record(struct pc_runner_output *out, char **w, int n, size_t lineno,
			char *err, size_t errlen)
{
	struct line_ctx at = { lineno, NULL, err, errlen };
	size_t i;

	for (i = 0; i < NRECORDS; i++)
		if (strcmp(w[0], records[i].keyword) == 0)
			break;
	/* The format line comes first: nothing is read before it. */
	if (i != 0 && !out->format)
		return bad(&at, "a record before the format line");
	if (i == NRECORDS)
		return 0;	/* a record of a later format version: ignored */
	at.rec = &records[i];
	if (n < at.rec->min_words || (at.rec->max_words && n > at.rec->max_words))
		return malformed(&at);
	return at.rec->parse(out, w, n, &at);
}

/* Splits one "pcr " line into words and reads its record. */
static int parse_line(struct pc_runner_output *out, const char *text, size_t l,
		      size_t lineno, char *err, size_t errlen)
{
	char line[MAX_LINE], *w[MAX_WORDS], *save = NULL, *tok;
	int n = 0;

	memcpy(line, text + 4, l - 4);
	line[l - 4] = 0;
	if (l - 4 && line[l - 5] == '\r')
		line[l - 5] = 0;
	for (tok = strtok_r(line, " ", &save); tok && n < MAX_WORDS;
	     tok = strtok_r(NULL, " ", &save))
		w[n++] = tok;
	return n ? parse_record(out, w, n, lineno, err, errlen) : 0;
}

int pc_runner_parse(const char *text, size_t len, struct pc_runner_output *out,
		    char *err, size_t errlen)
{
	size_t pos = 0, lineno = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (text + pos)) : len - pos;

		lineno++;
		if (l >= 4 && memcmp(text + pos, "pcr ", 4) == 0 && l < MAX_LINE) {
			if (parse_line(out, text + pos, l, lineno, err, errlen) < 0) {
				pc_runner_output_free(out);
				return -1;
			}
		} else if (l) {
			size_t k = l < sizeof(out->last_other) - 1 ? l :
				   sizeof(out->last_other) - 1;

			memcpy(out->last_other, text + pos, k);
			out->last_other[k] = 0;
		}
		pos += l + 1;
	}
	return 0;
}

void pc_runner_output_free(struct pc_runner_output *out)
{
	int id;

	for (id = 0; id < PC_PROBE_COUNT; id++) {
		free(out->probes[id].s);
		free(out->probes[id].lin);
		out->probes[id].s = NULL;
		out->probes[id].lin = NULL;
	}
}

int pc_runner_culprit(const struct pc_runner_output *out, const bool *selected,
		      unsigned samples)
{
	int id, first = -1, behind = -1;

	if (out->ended || !out->format)
		return -1;
	/* Preparation (self-checks, sizing, warm-up) goes in table order and
	 * leaves a line per probe: the first selected probe without one. */
	for (id = 0; id < PC_PROBE_COUNT; id++)
		if (selected[id] && !out->probes[id].seen)
			return id;
	/* Rounds: every measured probe takes its share in table order, so
	 * the one that trapped is the first with fewer samples than the
	 * first measured probe (or the first itself when all are even). */
	for (id = 0; id < PC_PROBE_COUNT; id++) {
		const struct pc_runner_probe *p = &out->probes[id];

		if (!selected[id] || !p->measured)
			continue;
		if (first < 0)
			first = id;
		else if (behind < 0 && p->n < out->probes[first].n)
			behind = id;
	}
	if (first < 0)
		return -1;
	if (out->probes[first].n < samples)
		return behind >= 0 ? behind : first;
	/* Linearity pairs, one probe after the other. */
	for (id = 0; id < PC_PROBE_COUNT; id++)
		if (selected[id] && out->probes[id].measured &&
		    out->probes[id].nlin < PC_RUNNER_LINEARITY_PAIRS)
			return id;
	return -1;
}
