/* SPDX-License-Identifier: MIT */
/*
 * environment.c - the facts besides the CPU that move the figures
 * (environment.h), read from /proc and /sys under a root that tests
 * replace. A fact that cannot be read is unknown with the reason: the
 * file absent, permission denied, or not a virtual machine's to tell.
 *
 * The kernel's configuration is read from /boot/config-RELEASE or
 * /lib/modules/RELEASE/config; /proc/config.gz is gzip-compressed and
 * primcost links no decompressor, so where it is the only copy the
 * configuration is unknown and the reason says so.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "environment.h"
#include "util.h"

#define MOVES_SYSCALLS PC_ENV_MOVES_SYSCALLS
#define MOVES_TRANSFERS PC_ENV_MOVES_TRANSFERS

const struct pc_env_field pc_env_fields[PC_ENV_COUNT] = {
	[PC_ENV_MICROCODE] = { "microcode", "microcode", "microcode", false, false,
			       MOVES_SYSCALLS },
	[PC_ENV_FIRMWARE_VENDOR] = { "firmware_vendor", "fw vendor", "firmware vendor",
				     false, false, MOVES_TRANSFERS },
	[PC_ENV_FIRMWARE_VERSION] = { "firmware_version", "fw version",
				      "firmware version", false, false, MOVES_TRANSFERS },
	[PC_ENV_FIRMWARE_DATE] = { "firmware_date", "fw date", "firmware date", false,
				   false, MOVES_TRANSFERS },
	[PC_ENV_KERNEL_BUILD] = { "kernel_build", "kernel build", "kernel build", false,
				  false, 0 },
	[PC_ENV_CMDLINE] = { "cmdline", "command line", "kernel command line", false,
			     false, 0 },
	[PC_ENV_VULNERABILITIES] = { "vulnerabilities", "mitigations", "mitigations",
				     true, true, MOVES_SYSCALLS },
	[PC_ENV_PREEMPTION] = { "preemption", "preemption", "preemption model", false,
				false, 0 },
	[PC_ENV_KERNEL_CONFIG] = { "kernel_config", "kernel config", "kernel configuration",
				   false, true, MOVES_SYSCALLS },
	[PC_ENV_CPUFREQ_DRIVER] = { "cpufreq_driver", "cpufreq driver", "cpufreq driver",
				    false, false, MOVES_TRANSFERS },
	[PC_ENV_GOVERNOR] = { "governor", "governor", "cpufreq governor", false, false,
			      MOVES_TRANSFERS },
	[PC_ENV_BOOST] = { "boost", "boost", "boost state", false, false,
			   MOVES_TRANSFERS },
	[PC_ENV_SMT] = { "smt", "smt", "SMT control", false, false, MOVES_TRANSFERS },
	[PC_ENV_THP] = { "thp", "huge pages", "transparent huge pages setting", false,
			 false, 0 },
	[PC_ENV_THP_DEFRAG] = { "thp_defrag", "thp defrag",
				"transparent huge pages defrag setting", false, false, 0 },
};

/* Options that change what the rows cost: a paravirtualized kernel's
 * hooks and spinlocks, lock debugging, KASAN, slab debugging, memory
 * cleared on allocation or free, the timer tick. */
const char *const pc_env_config_options[] = {
	"CONFIG_PARAVIRT", "CONFIG_PARAVIRT_XXL", "CONFIG_PARAVIRT_SPINLOCKS",
	"CONFIG_QUEUED_SPINLOCKS", "CONFIG_DEBUG_PREEMPT", "CONFIG_LOCKDEP",
	"CONFIG_PROVE_LOCKING", "CONFIG_KASAN", "CONFIG_SLUB_DEBUG",
	"CONFIG_SLUB_DEBUG_ON", "CONFIG_INIT_ON_ALLOC_DEFAULT_ON",
	"CONFIG_INIT_ON_FREE_DEFAULT_ON", "CONFIG_HZ", NULL,
};

/* The preemption options, read from the configuration for the model. */
static const char *const preempt_options[] = {
	"CONFIG_PREEMPT_RT", "CONFIG_PREEMPT_DYNAMIC", "CONFIG_PREEMPT_LAZY",
	"CONFIG_PREEMPT", "CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT_NONE", NULL,
};

int pc_env_find(const char *key)
{
	int i;

	for (i = 0; key && i < PC_ENV_COUNT; i++)
		if (strcmp(pc_env_fields[i].key, key) == 0)
			return i;
	return -1;
}

/* ---- reading files under the root ------------------------------------------------- */

/* Printable ASCII only: a file's bytes reach a terminal and a JSON string
 * (which must be UTF-8). Trailing white space removed. */
static void clean(char *s)
{
	size_t n;

	for (n = 0; s[n]; n++)
		if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] > 0x7e)
			s[n] = s[n] == '\n' || s[n] == '\t' ? ' ' : '?';
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = 0;
}

static FILE *open_at(const struct pc_env_source *src, const char *path)
{
	char full[4096];

	snprintf(full, sizeof(full), "%s%s", src->root, path);
	return fopen(full, "r");
}

static bool exists_at(const struct pc_env_source *src, const char *path)
{
	char full[4096];
	struct stat st;

	snprintf(full, sizeof(full), "%s%s", src->root, path);
	return stat(full, &st) == 0;
}

/* Why path could not be read (errno e), in words. */
static void why_unread(char *out, size_t len, const char *path, int e)
{
	if (e == ENOENT || e == ENOTDIR)
		snprintf(out, len, "%s absent", path);
	else if (e == EACCES || e == EPERM)
		snprintf(out, len, "%s: permission denied (root may read it)", path);
	else
		snprintf(out, len, "%s: %s", path, strerror(e));
}

/* The first line of path, cleaned, into out: 0, or an errno (ENODATA for
 * an empty file). */
static int read_line(const struct pc_env_source *src, const char *path, char *out,
		     size_t len)
{
	FILE *f = open_at(src, path);
	int e;

	if (!f)
		return errno;
	e = fgets(out, (int)len, f) ? 0 : ENODATA;
	fclose(f);
	if (!e) {
		out[strcspn(out, "\n")] = 0;
		clean(out);
	}
	return e || *out ? e : ENODATA;
}

/* Appends to the string in buf[size], cutting what does not fit. */
static void append(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

static void set_known(struct pc_env_fact *f, const char *value, const char *source)
{
	f->known = true;
	snprintf(f->value, sizeof(f->value), "%s", value);
	snprintf(f->source, sizeof(f->source), "%s", source);
}

static void set_unknown(struct pc_env_fact *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_unknown(struct pc_env_fact *f, const char *fmt, ...)
{
	va_list ap;

	f->known = false;
	f->value[0] = 0;
	va_start(ap, fmt);
	vsnprintf(f->unknown, sizeof(f->unknown), fmt, ap);
	va_end(ap);
}

/* A fact that is one file's first line; 0 when read. */
static int fact_from_file(const struct pc_env_source *src, struct pc_env_fact *f,
			  const char *path)
{
	char v[PC_ENV_VALUE];
	int e = read_line(src, path, v, sizeof(v));

	if (e) {
		if (e == ENODATA)
			set_unknown(f, "%s is empty", path);
		else
			why_unread(f->unknown, sizeof(f->unknown), path, e);
		return -1;
	}
	set_known(f, v, path);
	return 0;
}

/* The word in brackets of a sysfs choice ("always [madvise] never") or in
 * parentheses (debugfs's "none voluntary (full)"), into out; -1 if none. */
static int chosen_word(const char *line, char open, char close, char *out, size_t len)
{
	const char *a = strchr(line, open), *b = a ? strchr(a, close) : NULL;

	if (!a || !b || b == a + 1)
		return -1;
	snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

/* ---- the microcode and the firmware ---------------------------------------------- */

/* The microcode revision of src->cpu: the microcode driver's sysfs file,
 * else the "microcode" line of that processor in /proc/cpuinfo. */
static void read_microcode(const struct pc_env_source *src, struct pc_env_fact *f)
{
	char path[128], line[512], v[64] = "";
	int cpu = -1;
	FILE *cpuinfo;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/microcode/version",
		 src->cpu);
	if (read_line(src, path, v, sizeof(v)) == 0) {
		set_known(f, v, path);
	} else if ((cpuinfo = open_at(src, "/proc/cpuinfo"))) {
		while (!v[0] && fgets(line, sizeof(line), cpuinfo)) {
			const char *colon = strchr(line, ':');

			if (sscanf(line, "processor : %d", &cpu) == 1)
				continue;
			if (cpu == src->cpu && colon && strncmp(line, "microcode", 9) == 0) {
				snprintf(v, sizeof(v), "%s", colon + 1 + (colon[1] == ' '));
				clean(v);
			}
		}
		fclose(cpuinfo);
		if (v[0])
			set_known(f, v, "/proc/cpuinfo");
		else
			set_unknown(f, "%s absent and /proc/cpuinfo has no microcode line for "
				    "CPU %d: this kernel reports no revision%s", path, src->cpu,
				    src->virtualized ? " (a virtual machine: the host's "
				    "microcode is not its to tell)" : "");
	} else {
		why_unread(f->unknown, sizeof(f->unknown), "/proc/cpuinfo", errno);
	}
	if (f->known && src->virtualized)
		snprintf(f->note, sizeof(f->note), "a virtual machine: the revision its "
			 "hypervisor presents, which need not be the host's");
}

/* The firmware's vendor, version and date (DMI's BIOS fields). */
static void read_firmware(const struct pc_env_source *src, struct pc_env *env)
{
	static const char *const files[] = { "bios_vendor", "bios_version", "bios_date" };
	static const int ids[] = { PC_ENV_FIRMWARE_VENDOR, PC_ENV_FIRMWARE_VERSION,
				   PC_ENV_FIRMWARE_DATE };
	bool dmi = exists_at(src, "/sys/class/dmi/id");
	char path[96];
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(files); i++) {
		struct pc_env_fact *f = &env->fact[ids[i]];

		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", files[i]);
		if (!dmi)
			set_unknown(f, "no DMI table (/sys/class/dmi/id absent)%s",
				    src->virtualized ? ": a virtual machine's hypervisor "
				    "gives none, and the host's firmware is not the guest's "
				    "to tell" : ": the firmware gives no SMBIOS table or the "
				    "kernel reads none");
		else if (fact_from_file(src, f, path) == 0 && src->virtualized)
			snprintf(f->note, sizeof(f->note), "a virtual machine: its own "
				 "firmware, not the host's");
	}
}

/* ---- the kernel: build, command line, mitigations -------------------------------- */

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct pc_env_line *)a)->name,
		      ((const struct pc_env_line *)b)->name);
}

/* One line per /sys/devices/system/cpu/vulnerabilities/NAME, by name. */
static void read_vulnerabilities(const struct pc_env_source *src, struct pc_env *env)
{
	static const char dir_path[] = "/sys/devices/system/cpu/vulnerabilities";
	struct pc_env_fact *f = &env->fact[PC_ENV_VULNERABILITIES];
	char full[4096], path[512];
	struct dirent *d;
	DIR *dir;

	snprintf(full, sizeof(full), "%s%s", src->root, dir_path);
	dir = opendir(full);
	if (!dir) {
		int e = errno;

		why_unread(f->unknown, sizeof(f->unknown), dir_path, e);
		if (e == ENOENT)
			snprintf(f->unknown + strlen(f->unknown),
				 sizeof(f->unknown) - strlen(f->unknown),
				 " (kernels before 4.15 report none)");
		return;
	}
	f->line = env->vulnerabilities;
	while ((d = readdir(dir)) && f->nlines < PC_ENV_MAX_LINES) {
		struct pc_env_line *l = &f->line[f->nlines];
		int e;

		if (d->d_name[0] == '.')
			continue;
		l->name[0] = 0;
		append(l->name, sizeof(l->name), "%s", d->d_name);
		clean(l->name);
		snprintf(path, sizeof(path), "%s/%s", dir_path, d->d_name);
		e = read_line(src, path, l->value, sizeof(l->value));
		if (e)
			snprintf(l->value, sizeof(l->value), "unknown: %s",
				 e == EACCES ? "permission denied" : strerror(e));
		f->nlines++;
	}
	closedir(dir);
	qsort(f->line, f->nlines, sizeof(f->line[0]), by_name);
	f->known = true;
	snprintf(f->source, sizeof(f->source), "%s", dir_path);
}

/* ---- the kernel's configuration ---------------------------------------------------- */

/* The value of option in a kernel config file: "y", "m", a number or a
 * string, "n" where it is not set or not there at all. */
static void config_value(FILE *f, const char *option, char *out, size_t len)
{
	char line[512];
	size_t n = strlen(option);

	snprintf(out, len, "n");
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, option, n) == 0 && line[n] == '=') {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, len, "%s", line + n + 1);
			clean(out);
			return;
		}
	}
}

/* The kernel's config file: /boot/config-RELEASE, else
 * /lib/modules/RELEASE/config. NULL with why filled when neither opens. */
static FILE *open_config(const struct pc_env_source *src, char *path, size_t len,
			 char *why, size_t whylen)
{
	char tried[PC_ENV_TEXT];
	FILE *f;

	snprintf(path, len, "/boot/config-%s", src->release);
	if ((f = open_at(src, path)))
		return f;
	why_unread(why, whylen, path, errno);
	snprintf(path, len, "/lib/modules/%s/config", src->release);
	if ((f = open_at(src, path)))
		return f;
	why_unread(tried, sizeof(tried), path, errno);
	append(why, whylen, "; %s; ", tried);
	if (exists_at(src, "/proc/config.gz"))
		append(why, whylen, "/proc/config.gz is gzip-compressed and primcost "
		       "reads no gzip (zcat /proc/config.gz > /boot/config-%s makes it "
		       "readable)", src->release);
	else
		append(why, whylen, "/proc/config.gz absent (a kernel without "
		       "CONFIG_IKCONFIG_PROC)");
	return NULL;
}

/* The options of pc_env_config_options, and into pre[] those of
 * preempt_options; false when no config file could be read. */
static bool read_config(const struct pc_env_source *src, struct pc_env *env,
			char pre[][16], char *pre_source, size_t pre_len)
{
	struct pc_env_fact *f = &env->fact[PC_ENV_KERNEL_CONFIG];
	char path[256];
	FILE *cf = open_config(src, path, sizeof(path), f->unknown, sizeof(f->unknown));
	size_t i;

	if (!cf)
		return false;
	f->line = env->config;
	for (i = 0; pc_env_config_options[i] && i < PC_ENV_MAX_LINES; i++) {
		snprintf(f->line[i].name, sizeof(f->line[i].name), "%s",
			 pc_env_config_options[i]);
		config_value(cf, pc_env_config_options[i], f->line[i].value,
			     sizeof(f->line[i].value));
	}
	f->nlines = i;
	for (i = 0; preempt_options[i]; i++)
		config_value(cf, preempt_options[i], pre[i], sizeof(pre[i]));
	fclose(cf);
	f->known = true;
	snprintf(f->source, sizeof(f->source), "%s", path);
	snprintf(pre_source, pre_len, "%s", path);
	return true;
}

/* ---- the preemption model --------------------------------------------------------- */

/* The preempt= of the command line (a CONFIG_PREEMPT_DYNAMIC kernel's
 * model at boot), into out; -1 when not given. */
static int cmdline_preempt(const struct pc_env *env, char *out, size_t len)
{
	const char *c = env->fact[PC_ENV_CMDLINE].value, *p = c;

	while ((p = strstr(p, "preempt="))) {
		if (p == c || p[-1] == ' ') {
			snprintf(out, len, "%.*s", (int)strcspn(p + 8, " "), p + 8);
			return out[0] ? 0 : -1;
		}
		p += 8;
	}
	return -1;
}

/* From the configuration (pre[] as preempt_options): the model, and a
 * dynamic kernel's boot choice from the command line. */
static void preempt_from_config(const struct pc_env *env, char pre[][16],
				const char *file, struct pc_env_fact *f)
{
	static const char *const models[] = { "rt", NULL, "lazy", "full", "voluntary",
					      "none" };
	char boot[32];
	size_t i;

	for (i = 0; preempt_options[i]; i++)
		if (strcmp(pre[i], "y") == 0 && models[i])
			break;
	set_known(f, preempt_options[i] ? models[i] : "none", file);
	if (strcmp(pre[0], "y") != 0 && strcmp(pre[1], "y") == 0) {
		if (cmdline_preempt(env, boot, sizeof(boot)) == 0) {
			snprintf(f->value, sizeof(f->value), "%s", boot);
			snprintf(f->note, sizeof(f->note), "preempt=%s on the command "
				 "line of a CONFIG_PREEMPT_DYNAMIC kernel", boot);
		} else {
			snprintf(f->note, sizeof(f->note), "CONFIG_PREEMPT_DYNAMIC: the "
				 "configuration's default, no preempt= on the command line");
		}
	} else {
		snprintf(f->note, sizeof(f->note), "%s=y", preempt_options[i] ?
			 preempt_options[i] : "no CONFIG_PREEMPT*");
	}
}

/* From uname -v's words (SMP PREEMPT_DYNAMIC, PREEMPT_RT, PREEMPT), where
 * neither debugfs nor the configuration could be read. */
static void preempt_from_uname(const struct pc_env_source *src, const struct pc_env *env,
			       struct pc_env_fact *f)
{
	char boot[32];
	const char *v = src->version;

	if (strstr(v, "PREEMPT_RT")) {
		set_known(f, "rt", "uname -v");
	} else if (strstr(v, "PREEMPT_DYNAMIC")) {
		if (cmdline_preempt(env, boot, sizeof(boot)) == 0) {
			set_known(f, boot, "uname -v");
			snprintf(f->note, sizeof(f->note), "PREEMPT_DYNAMIC, and preempt=%s "
				 "on the command line", boot);
		} else {
			set_known(f, "dynamic", "uname -v");
			snprintf(f->note, sizeof(f->note), "PREEMPT_DYNAMIC: the model it "
				 "boots in is the configuration's default, not readable here");
		}
	} else if (strstr(v, "PREEMPT")) {
		set_known(f, "full", "uname -v");
	} else {
		set_known(f, "none or voluntary", "uname -v");
		snprintf(f->note, sizeof(f->note), "no PREEMPT word: which of the two "
			 "only the configuration tells");
	}
}

/* The model: debugfs's sched/preempt where readable, else the
 * configuration (pre[], read from pre_source, when it was read), else
 * uname -v. The note says why a better source was not used. */
static void read_preemption(const struct pc_env_source *src, struct pc_env *env,
			    char pre[][16], const char *pre_source, bool have_config)
{
	static const char path[] = "/sys/kernel/debug/sched/preempt";
	struct pc_env_fact *f = &env->fact[PC_ENV_PREEMPTION];
	char line[128], model[32], debugfs[PC_ENV_TEXT];
	int e = read_line(src, path, line, sizeof(line));

	if (!e && chosen_word(line, '(', ')', model, sizeof(model)) == 0) {
		set_known(f, model, path);
		return;
	}
	if (e == ENOENT && !exists_at(src, "/sys/kernel/debug/sched"))
		snprintf(debugfs, sizeof(debugfs), "%s: debugfs not mounted or not "
			 "readable", path);
	else if (e)
		why_unread(debugfs, sizeof(debugfs), path, e);
	else
		snprintf(debugfs, sizeof(debugfs), "%s: no model in parentheses", path);
	if (have_config)
		preempt_from_config(env, pre, pre_source, f);
	else
		preempt_from_uname(src, env, f);
	append(f->note, sizeof(f->note), "%s%s", f->note[0] ? "; " : "", debugfs);
}

/* ---- frequency, SMT, huge pages ----------------------------------------------------- */

/* The boost state: the policy's own boost file, the global one, or
 * intel_pstate's no_turbo (the reverse). */
static void read_boost(const struct pc_env_source *src, const char *policy,
		       struct pc_env_fact *f)
{
	const struct { const char *path; bool reverse; } files[] = {
		{ "/sys/devices/system/cpu/intel_pstate/no_turbo", true },
		{ policy, false },
		{ "/sys/devices/system/cpu/cpufreq/boost", false },
	};
	char v[32], path[256];
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(files); i++) {
		snprintf(path, sizeof(path), "%s", files[i].path);
		if (read_line(src, path, v, sizeof(v)) == 0 &&
		    (strcmp(v, "0") == 0 || strcmp(v, "1") == 0)) {
			set_known(f, (v[0] == '1') != files[i].reverse ? "on" : "off", path);
			return;
		}
	}
	set_unknown(f, "the frequency driver tells no boost state (no %s, %s or "
		    "intel_pstate/no_turbo)", policy,
		    "/sys/devices/system/cpu/cpufreq/boost");
}

/* The cpufreq driver, governor (with the energy performance preference
 * where the driver has one) and boost state of src->cpu's policy. */
static void read_cpufreq(const struct pc_env_source *src, struct pc_env *env)
{
	static const enum pc_env_id ids[] = { PC_ENV_CPUFREQ_DRIVER, PC_ENV_GOVERNOR,
					      PC_ENV_BOOST };
	struct pc_env_fact *gov = &env->fact[PC_ENV_GOVERNOR];
	char dir[96], path[160], epp[64];
	size_t i;

	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cpufreq", src->cpu);
	if (!exists_at(src, dir)) {
		for (i = 0; i < PC_ARRAY_LEN(ids); i++)
			set_unknown(&env->fact[ids[i]], "%s absent: no frequency driver "
				    "runs for CPU %d%s", dir, src->cpu, src->virtualized ?
				    " (a virtual machine: its host sets the frequency)" : "");
		return;
	}
	snprintf(path, sizeof(path), "%s/scaling_driver", dir);
	fact_from_file(src, &env->fact[PC_ENV_CPUFREQ_DRIVER], path);
	snprintf(path, sizeof(path), "%s/boost", dir);
	read_boost(src, path, &env->fact[PC_ENV_BOOST]);
	snprintf(path, sizeof(path), "%s/scaling_governor", dir);
	if (fact_from_file(src, gov, path) < 0)
		return;
	snprintf(path, sizeof(path), "%s/energy_performance_preference", dir);
	if (read_line(src, path, epp, sizeof(epp)) == 0) {
		append(gov->value, sizeof(gov->value), ", energy_performance_preference %s",
		       epp);
	}
}

/* SMT: the control word and whether a sibling thread is active. */
static void read_smt(const struct pc_env_source *src, struct pc_env_fact *f)
{
	char active[8];

	if (fact_from_file(src, f, "/sys/devices/system/cpu/smt/control") < 0)
		return;
	if (read_line(src, "/sys/devices/system/cpu/smt/active", active,
		      sizeof(active)) == 0) {
		append(f->value, sizeof(f->value), ", %s",
		       strcmp(active, "1") == 0 ? "active" : "inactive");
	}
}

/* A transparent huge pages setting: the bracketed word of its file. */
static void read_thp(const struct pc_env_source *src, struct pc_env_fact *f,
		     const char *path)
{
	char word[64];

	if (fact_from_file(src, f, path) < 0)
		return;
	if (chosen_word(f->value, '[', ']', word, sizeof(word)) == 0)
		snprintf(f->value, sizeof(f->value), "%s", word);
}

/* ---- all of them ---------------------------------------------------------------------- */

void pc_env_source_here(struct pc_env_source *src, int cpu, bool virtualized)
{
	struct utsname u;

	memset(src, 0, sizeof(*src));
	src->root = "";
	src->cpu = cpu >= 0 ? cpu : 0;
	src->virtualized = virtualized;
	if (uname(&u) == 0) {
		snprintf(src->release, sizeof(src->release), "%s", u.release);
		snprintf(src->version, sizeof(src->version), "%s", u.version);
	}
}

struct pc_env *pc_env_read(const struct pc_env_source *src)
{
	struct pc_env *env = calloc(1, sizeof(*env));
	char pre[8][16], pre_source[256] = "";
	bool have_config;

	if (!env)
		return NULL;
	read_microcode(src, &env->fact[PC_ENV_MICROCODE]);
	read_firmware(src, env);
	set_known(&env->fact[PC_ENV_KERNEL_BUILD], src->version, "uname -v");
	clean(env->fact[PC_ENV_KERNEL_BUILD].value);
	fact_from_file(src, &env->fact[PC_ENV_CMDLINE], "/proc/cmdline");
	read_vulnerabilities(src, env);
	have_config = read_config(src, env, pre, pre_source, sizeof(pre_source));
	read_preemption(src, env, pre, pre_source, have_config);
	read_cpufreq(src, env);
	read_smt(src, &env->fact[PC_ENV_SMT]);
	read_thp(src, &env->fact[PC_ENV_THP], "/sys/kernel/mm/transparent_hugepage/enabled");
	read_thp(src, &env->fact[PC_ENV_THP_DEFRAG],
		 "/sys/kernel/mm/transparent_hugepage/defrag");
	return env;
}

struct pc_env *pc_env_unknown(const char *why)
{
	struct pc_env *env = calloc(1, sizeof(*env));
	int i;

	for (i = 0; env && i < PC_ENV_COUNT; i++)
		set_unknown(&env->fact[i], "%s", why);
	return env;
}

void pc_env_free(struct pc_env *env)
{
	free(env);
}
