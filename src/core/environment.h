/* SPDX-License-Identifier: MIT */
/*
 * environment.h - what besides the CPU moves the figures, read from /proc
 * and /sys (environment.c): the microcode, the firmware, the kernel's
 * build, command line, mitigations, preemption model and configuration,
 * the frequency driver, governor and boost, SMT and transparent huge
 * pages. Each fact is a value, with where it was read, or unknown, with
 * the reason.
 */
#ifndef PC_ENVIRONMENT_H
#define PC_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>

enum pc_env_id {
	PC_ENV_MICROCODE,
	PC_ENV_FIRMWARE_VENDOR,
	PC_ENV_FIRMWARE_VERSION,
	PC_ENV_FIRMWARE_DATE,
	PC_ENV_KERNEL_BUILD,
	PC_ENV_CMDLINE,
	PC_ENV_VULNERABILITIES,	/* lines: one per vulnerabilities file */
	PC_ENV_PREEMPTION,
	PC_ENV_KERNEL_CONFIG,	/* lines: the options of pc_env_config_options */
	PC_ENV_CPUFREQ_DRIVER,
	PC_ENV_GOVERNOR,
	PC_ENV_BOOST,
	PC_ENV_SMT,
	PC_ENV_THP,
	PC_ENV_THP_DEFRAG,
	PC_ENV_COUNT
};

/* Which rows a difference in a fact moves (compare marks them rather than
 * judge them): rows that make system calls (probes.def's syscalls column),
 * rows that move lines between CPUs (the contended group's points). */
#define PC_ENV_MOVES_SYSCALLS	1u
#define PC_ENV_MOVES_TRANSFERS	2u

/* The facts, in the order info shows them: the same table names them in
 * the JSON, in info's text and in compare's notes. */
struct pc_env_field {
	const char *key;	/* in the JSON: "microcode" */
	const char *label;	/* in info's text, 14 columns at most */
	const char *noun;	/* in compare's notes: "B's microcode ..." */
	bool plural;		/* noun takes "differ" */
	bool lines;		/* a list of named lines, not one value */
	unsigned moves;		/* PC_ENV_MOVES_*: the rows a difference moves */
};
extern const struct pc_env_field pc_env_fields[PC_ENV_COUNT];
/* The index of key in pc_env_fields, or -1. */
int pc_env_find(const char *key);

/* The kernel configuration options recorded (PC_ENV_KERNEL_CONFIG), NULL
 * ended: those that change what the rows cost. */
extern const char *const pc_env_config_options[];

#define PC_ENV_VALUE 2048	/* the x86 kernel's COMMAND_LINE_SIZE */
#define PC_ENV_TEXT 256
#define PC_ENV_MAX_LINES 64

struct pc_env_line {
	char name[64];
	char value[PC_ENV_TEXT];
};

struct pc_env_fact {
	bool known;
	char value[PC_ENV_VALUE];	/* known and not lines */
	char source[PC_ENV_TEXT];	/* known: where it was read */
	char note[PC_ENV_TEXT];		/* known: what qualifies it, or "" */
	char unknown[PC_ENV_TEXT];	/* unknown: why */
	struct pc_env_line *line;	/* lines: nlines of them */
	size_t nlines;
};

struct pc_env {
	struct pc_env_fact fact[PC_ENV_COUNT];
	struct pc_env_line vulnerabilities[PC_ENV_MAX_LINES];
	struct pc_env_line config[PC_ENV_MAX_LINES];
};

/* Where the facts are read: the file system under root ("" for this
 * machine; a test's tree otherwise), the kernel's release and version
 * (uname -r, uname -v), the CPU whose microcode and frequency policy are
 * read, and whether this is a virtual machine (its microcode and firmware
 * are then the hypervisor's answers, not the host's). */
struct pc_env_source {
	const char *root;
	char release[128];
	char version[256];
	int cpu;
	bool virtualized;
};

/* This machine: root "", uname's release and version, cpu (-1: CPU 0). */
void pc_env_source_here(struct pc_env_source *src, int cpu, bool virtualized);
/* Reads every fact; NULL when memory runs out. */
struct pc_env *pc_env_read(const struct pc_env_source *src);
/* Every fact unknown for why (a probe runner that ran elsewhere). */
struct pc_env *pc_env_unknown(const char *why);
void pc_env_free(struct pc_env *env);

#endif
