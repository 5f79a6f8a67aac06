/* SPDX-License-Identifier: MIT */
/*
 * packed.h - raw samples stored as one string per array ("dz1"): every
 * value as a decimal integer n over a common power of ten, consecutive
 * differences zigzag-encoded as LEB128 varints, then base64:
 *
 *     "dz1:K:N:BASE64"    value i = n_i / 10^K  (K may be negative)
 *
 * Lossless: an array is packed only when every value decodes back to the
 * very double it was (the figures carry 7 significant digits). A packed
 * string is read without jansson's lexer (pc_packed_extract takes the
 * payloads out of the text before parsing, pc_packed_restore puts them
 * back as strings), which is what makes files with raw samples fast to
 * read. Arrays of numbers, as older files hold them, stay valid.
 */
#ifndef PC_PACKED_H
#define PC_PACKED_H

#include <stddef.h>
#include <jansson.h>

#define PC_PACKED_PREFIX "dz1:"

/* The packed string of v[0..n), or NULL when a value would not come back
 * exactly (or memory ran out): keep the array then. */
char *pc_pack_doubles(const double *v, size_t n);
/* Is s a packed string (its prefix)? */
int pc_is_packed(const char *s);
/* Is s, of n bytes, a packed string of its own characters only (no
 * control character, quote or backslash)? */
int pc_packed_clean(const char *s, size_t n);
/* The count a packed string announces; 0 when malformed. */
size_t pc_packed_count(const char *s);
/* Decodes and checks a packed string: at most max values, each finite and
 * within +-limit. *out is malloc'd (NULL when n is 0); out NULL: only
 * checks. */
int pc_unpack_doubles(const char *s, size_t len, size_t max, double limit,
		      double **out, size_t *n, char *err, size_t errlen);

/* A JSON value holding samples as an array or a packed string: how many,
 * and (malloc'd) their values; -1 when malformed. */
long pc_samples_count(json_t *v);
double *pc_samples_values(json_t *v, size_t *n);

/* The samples of v, each times scale, in ascending order (as
 * pc_mann_whitney_sorted takes them): malloc'd, NULL when malformed,
 * empty or out of memory. A packed string is decoded once, its integers
 * sorted before they are divided. */
double *pc_samples_sorted(json_t *v, double scale, size_t *n);

/* Packs every raw array of a figure (raw.NAME, events.NAME.raw) that packs
 * losslessly; of every figure of a document. */
void pc_probe_pack_raw(json_t *p);
void pc_doc_pack_raw(json_t *doc);

/* Before parsing: the text with every long packed string replaced by a
 * short placeholder (malloc'd, *outlen); the payloads stay in buf, which
 * must outlive pc_packed_restore. NULL: out of memory. */
struct pc_packed_store {
	unsigned long long nonce;
	size_t n, cap;
	struct { const char *s; size_t len; } *item;
};
char *pc_packed_extract(const char *buf, size_t len, size_t *outlen,
			struct pc_packed_store *st);
/* After parsing: the placeholders become the packed strings again. */
int pc_packed_restore(json_t *doc, struct pc_packed_store *st);
void pc_packed_store_free(struct pc_packed_store *st);

#endif
