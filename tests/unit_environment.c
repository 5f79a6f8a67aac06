/* SPDX-License-Identifier: MIT */
/* The environment read from trees laid out as /proc and /sys are: a bare
 * metal machine, a virtual machine, a root with nothing in it. Each fact
 * is its value with where it was read, or unknown with the reason. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/environment.h"
#include "results/results.h"
#include "tap.h"

/* Writes text to root/path, making its folders. */
static void put(const char *root, const char *path, const char *text)
{
	char full[4096], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(full, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	if (!f) {
		diag("cannot write %s: %s", full, strerror(errno));
		return;
	}
	fputs(text, f);
	fclose(f);
}

static const struct pc_env_fact *fact(const struct pc_env *e, enum pc_env_id id)
{
	return &e->fact[id];
}

/* Is fact id known as want, read from source? */
static int is(const struct pc_env *e, enum pc_env_id id, const char *want,
	      const char *source)
{
	const struct pc_env_fact *f = fact(e, id);

	if (f->known && strcmp(f->value, want) == 0 && strcmp(f->source, source) == 0)
		return 1;
	diag("%s: known %d, value \"%s\" from \"%s\"%s%s", pc_env_fields[id].key,
	     f->known, f->value, f->source, f->known ? "" : ", unknown: ", f->unknown);
	return 0;
}

/* Is fact id unknown, its reason holding each of the words (NULL ended)? */
static int unknown_for(const struct pc_env *e, enum pc_env_id id, const char *const *words)
{
	const struct pc_env_fact *f = fact(e, id);

	if (f->known) {
		diag("%s: known as \"%s\"", pc_env_fields[id].key, f->value);
		return 0;
	}
	for (; *words; words++)
		if (!strstr(f->unknown, *words)) {
			diag("%s: no \"%s\" in \"%s\"", pc_env_fields[id].key, *words,
			     f->unknown);
			return 0;
		}
	return 1;
}

#define UNKNOWN_FOR(e, id, ...) unknown_for(e, id, (const char *const[]){ __VA_ARGS__, NULL })

static const char *line(const struct pc_env *e, enum pc_env_id id, const char *name)
{
	size_t i;

	for (i = 0; i < fact(e, id)->nlines; i++)
		if (strcmp(fact(e, id)->line[i].name, name) == 0)
			return fact(e, id)->line[i].value;
	return "";
}

static void source(struct pc_env_source *src, const char *root, int cpu, bool vm,
		   const char *version)
{
	memset(src, 0, sizeof(*src));
	src->root = root;
	snprintf(src->release, sizeof(src->release), "6.1.0-test");
	snprintf(src->version, sizeof(src->version), "%s", version);
	src->cpu = cpu;
	src->virtualized = vm;
}

/* A bare metal machine: the microcode driver, DMI, a config file, an EPP
 * driver with intel_pstate's no_turbo, SMT on. */
static void bare_metal(const char *root)
{
	static const char config[] =
		"CONFIG_PARAVIRT=y\n# CONFIG_KASAN is not set\nCONFIG_HZ=250\n"
		"CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_VOLUNTARY=y\n"
		"CONFIG_SLUB_DEBUG=y\n";
	static const char *const files[][2] = {
		{ "/sys/devices/system/cpu/cpu2/microcode/version", "0xa0011d5\n" },
		{ "/sys/class/dmi/id/bios_vendor", "American Megatrends Inc.\n" },
		{ "/sys/class/dmi/id/bios_version", "1.2\xe9\n" },
		{ "/sys/class/dmi/id/bios_date", "05/01/2024\n" },
		{ "/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=UUID=x ro preempt=full\n" },
		{ "/sys/devices/system/cpu/vulnerabilities/spectre_v2",
		  "Mitigation: Enhanced / Automatic IBRS; IBPB: conditional\n" },
		{ "/sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n" },
		{ "/sys/devices/system/cpu/vulnerabilities/l1tf", "Not affected\n" },
		{ "/boot/config-6.1.0-test", config },
		{ "/sys/devices/system/cpu/cpu2/cpufreq/scaling_driver", "intel_pstate\n" },
		{ "/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "powersave\n" },
		{ "/sys/devices/system/cpu/cpu2/cpufreq/energy_performance_preference",
		  "balance_performance\n" },
		{ "/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n" },
		{ "/sys/devices/system/cpu/smt/control", "on\n" },
		{ "/sys/devices/system/cpu/smt/active", "1\n" },
		{ "/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n" },
		{ "/sys/kernel/mm/transparent_hugepage/defrag",
		  "[always] defer defer+madvise madvise never\n" },
	};
	struct pc_env_source src;
	struct pc_env *e;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put(root, files[i][0], files[i][1]);
	source(&src, root, 2, false, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.0");
	e = pc_env_read(&src);
	if (!ok(e != NULL, "bare metal: read"))
		return;
	ok(is(e, PC_ENV_MICROCODE, "0xa0011d5",
	      "/sys/devices/system/cpu/cpu2/microcode/version") &&
	   !fact(e, PC_ENV_MICROCODE)->note[0],
	   "the microcode from the microcode driver, of the CPU asked for");
	ok(is(e, PC_ENV_FIRMWARE_VENDOR, "American Megatrends Inc.",
	      "/sys/class/dmi/id/bios_vendor") &&
	   is(e, PC_ENV_FIRMWARE_VERSION, "1.2?", "/sys/class/dmi/id/bios_version") &&
	   is(e, PC_ENV_FIRMWARE_DATE, "05/01/2024", "/sys/class/dmi/id/bios_date"),
	   "the firmware's vendor, version and date from DMI, a byte that is not "
	   "ASCII replaced");
	ok(is(e, PC_ENV_KERNEL_BUILD, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.0", "uname -v"),
	   "the kernel's build from uname -v");
	ok(is(e, PC_ENV_CMDLINE, "BOOT_IMAGE=/vmlinuz root=UUID=x ro preempt=full",
	      "/proc/cmdline"), "the command line, its newline removed");
	ok(fact(e, PC_ENV_VULNERABILITIES)->known &&
	   fact(e, PC_ENV_VULNERABILITIES)->nlines == 3 &&
	   strcmp(fact(e, PC_ENV_VULNERABILITIES)->line[0].name, "l1tf") == 0 &&
	   strcmp(line(e, PC_ENV_VULNERABILITIES, "spectre_v2"),
		  "Mitigation: Enhanced / Automatic IBRS; IBPB: conditional") == 0,
	   "a line per vulnerabilities file, by name");
	ok(fact(e, PC_ENV_KERNEL_CONFIG)->known &&
	   strcmp(fact(e, PC_ENV_KERNEL_CONFIG)->source, "/boot/config-6.1.0-test") == 0 &&
	   strcmp(line(e, PC_ENV_KERNEL_CONFIG, "CONFIG_PARAVIRT"), "y") == 0 &&
	   strcmp(line(e, PC_ENV_KERNEL_CONFIG, "CONFIG_KASAN"), "n") == 0 &&
	   strcmp(line(e, PC_ENV_KERNEL_CONFIG, "CONFIG_LOCKDEP"), "n") == 0 &&
	   strcmp(line(e, PC_ENV_KERNEL_CONFIG, "CONFIG_HZ"), "250") == 0,
	   "the config from /boot/config-RELEASE: y, n where not set or not there, "
	   "CONFIG_HZ's value");
	ok(is(e, PC_ENV_PREEMPTION, "full", "/boot/config-6.1.0-test") &&
	   strstr(fact(e, PC_ENV_PREEMPTION)->note, "preempt=full on the command line") &&
	   strstr(fact(e, PC_ENV_PREEMPTION)->note, "debugfs not mounted"),
	   "a dynamic kernel's preemption from preempt=, and why not from debugfs: %s",
	   fact(e, PC_ENV_PREEMPTION)->note);
	ok(is(e, PC_ENV_CPUFREQ_DRIVER, "intel_pstate",
	      "/sys/devices/system/cpu/cpu2/cpufreq/scaling_driver") &&
	   is(e, PC_ENV_GOVERNOR, "powersave, energy_performance_preference "
	      "balance_performance", "/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor"),
	   "the driver, and the governor with its energy performance preference");
	ok(is(e, PC_ENV_BOOST, "off", "/sys/devices/system/cpu/intel_pstate/no_turbo"),
	   "boost off where intel_pstate's no_turbo is 1");
	ok(is(e, PC_ENV_SMT, "on, active", "/sys/devices/system/cpu/smt/control"),
	   "the SMT control and whether a sibling is active");
	ok(is(e, PC_ENV_THP, "madvise", "/sys/kernel/mm/transparent_hugepage/enabled") &&
	   is(e, PC_ENV_THP_DEFRAG, "always", "/sys/kernel/mm/transparent_hugepage/defrag"),
	   "transparent huge pages: the bracketed choices");
	pc_env_free(e);
}

/* A virtual machine: microcode in /proc/cpuinfo only, no DMI, no cpufreq,
 * the configuration only in /proc/config.gz, debugfs readable. */
static void virtual_machine(const char *root)
{
	struct pc_env_source src;
	struct pc_env *e;

	put(root, "/proc/cpuinfo", "processor\t: 0\nmicrocode\t: 0x1\n\n"
	    "processor\t: 1\nvendor_id\t: AuthenticAMD\nmicrocode\t: 0xa0011d1\n\n");
	put(root, "/proc/config.gz", "\x1f\x8b");
	put(root, "/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	source(&src, root, 1, true, "#1 SMP PREEMPT_DYNAMIC");
	e = pc_env_read(&src);
	if (!ok(e != NULL, "virtual machine: read"))
		return;
	ok(is(e, PC_ENV_MICROCODE, "0xa0011d1", "/proc/cpuinfo") &&
	   strstr(fact(e, PC_ENV_MICROCODE)->note, "hypervisor presents"),
	   "the microcode of the CPU asked for from /proc/cpuinfo, noted as the "
	   "hypervisor's answer");
	ok(UNKNOWN_FOR(e, PC_ENV_FIRMWARE_VENDOR, "/sys/class/dmi/id absent",
		       "virtual machine", "not the guest's to tell") &&
	   UNKNOWN_FOR(e, PC_ENV_FIRMWARE_DATE, "/sys/class/dmi/id absent"),
	   "no DMI: the firmware unknown, not a virtual machine's to tell");
	ok(UNKNOWN_FOR(e, PC_ENV_CPUFREQ_DRIVER, "cpu1/cpufreq absent", "host sets") &&
	   UNKNOWN_FOR(e, PC_ENV_GOVERNOR, "cpu1/cpufreq absent") &&
	   UNKNOWN_FOR(e, PC_ENV_BOOST, "cpu1/cpufreq absent"),
	   "no cpufreq policy: driver, governor and boost unknown, with the reason");
	ok(UNKNOWN_FOR(e, PC_ENV_KERNEL_CONFIG, "/boot/config-6.1.0-test absent",
		       "/lib/modules/6.1.0-test/config absent", "/proc/config.gz is "
		       "gzip-compressed", "zcat /proc/config.gz > /boot/config-6.1.0-test"),
	   "the config only in /proc/config.gz: unknown, and how to make it readable");
	ok(is(e, PC_ENV_PREEMPTION, "full", "/sys/kernel/debug/sched/preempt"),
	   "preemption from debugfs's choice in parentheses");
	pc_env_free(e);
}

/* A root with nothing: every file absent, uname alone. */
static void nothing(const char *root)
{
	struct pc_env_source src;
	struct pc_env *e;
	int i, unknown = 0;

	source(&src, root, 0, false, "#1 SMP PREEMPT_RT");
	e = pc_env_read(&src);
	if (!ok(e != NULL, "nothing to read: read"))
		return;
	for (i = 0; i < PC_ENV_COUNT; i++)
		unknown += !fact(e, (enum pc_env_id)i)->known && fact(e, (enum pc_env_id)i)->unknown[0];
	ok(unknown == PC_ENV_COUNT - 2, "every fact but uname's two unknown, each "
	   "with a reason (%d)", unknown);
	ok(UNKNOWN_FOR(e, PC_ENV_MICROCODE, "/proc/cpuinfo absent") &&
	   UNKNOWN_FOR(e, PC_ENV_FIRMWARE_VENDOR, "no DMI table", "no SMBIOS table") &&
	   UNKNOWN_FOR(e, PC_ENV_CMDLINE, "/proc/cmdline absent") &&
	   UNKNOWN_FOR(e, PC_ENV_VULNERABILITIES, "vulnerabilities absent",
		       "before 4.15") &&
	   UNKNOWN_FOR(e, PC_ENV_KERNEL_CONFIG, "/proc/config.gz absent",
		       "CONFIG_IKCONFIG_PROC") &&
	   UNKNOWN_FOR(e, PC_ENV_SMT, "smt/control absent") &&
	   UNKNOWN_FOR(e, PC_ENV_THP, "transparent_hugepage/enabled absent"),
	   "the reasons name what is absent");
	ok(is(e, PC_ENV_PREEMPTION, "rt", "uname -v"),
	   "preemption from uname -v's PREEMPT_RT when nothing else tells");
	pc_env_free(e);

	source(&src, root, 0, false, "#1 SMP PREEMPT_DYNAMIC");
	e = pc_env_read(&src);
	ok(e && is(e, PC_ENV_PREEMPTION, "dynamic", "uname -v") &&
	   strstr(fact(e, PC_ENV_PREEMPTION)->note, "not readable here"),
	   "PREEMPT_DYNAMIC without a config or preempt=: dynamic, and why no more");
	pc_env_free(e);
	source(&src, root, 0, false, "#1 SMP");
	e = pc_env_read(&src);
	ok(e && is(e, PC_ENV_PREEMPTION, "none or voluntary", "uname -v"),
	   "no PREEMPT word: none or voluntary");
	pc_env_free(e);
}

/* A file this user may not read: permission denied, said so. */
static void unreadable(const char *root)
{
	struct pc_env_source src;
	struct pc_env *e;
	char path[4096];

	put(root, "/sys/class/dmi/id/bios_version", "1.0\n");
	snprintf(path, sizeof(path), "%s/sys/class/dmi/id/bios_version", root);
	chmod(path, 0);
	if (access(path, R_OK) == 0) {
		skip("this user reads a file of mode 000 (root)", "an unreadable file: "
		     "permission denied");
		return;
	}
	source(&src, root, 0, false, "#1 SMP");
	e = pc_env_read(&src);
	ok(e && UNKNOWN_FOR(e, PC_ENV_FIRMWARE_VERSION, "permission denied"),
	   "an unreadable file: permission denied");
	pc_env_free(e);
}

/* As a run records them: {value, source[, note]} or {unknown}. */
static void as_json(void)
{
	struct pc_env *e = pc_env_unknown("ran elsewhere");
	json_t *j = pc_json_environment(e);
	int i, all = j && json_object_size(j) == PC_ENV_COUNT;

	for (i = 0; all && i < PC_ENV_COUNT; i++)
		all = strcmp(json_string_value(json_object_get(json_object_get(j,
			pc_env_fields[i].key), "unknown")) ?: "", "ran elsewhere") == 0;
	ok(all, "every fact unknown for one reason, as JSON");
	ok(pc_env_find("microcode") == PC_ENV_MICROCODE && pc_env_find("bogus") < 0,
	   "a fact found by its key");
	json_decref(j);
	pc_env_free(e);
}

int main(void)
{
	static const struct {
		const char *name;
		void (*check)(const char *root);
	} trees[] = { { "metal", bare_metal }, { "vm", virtual_machine },
		      { "none", nothing }, { "unreadable", unreadable } };
	char dir[] = "/tmp/pc-env.XXXXXX", root[64], cmd[128];
	size_t i;

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		snprintf(root, sizeof(root), "%s/%s", dir, trees[i].name);
		mkdir(root, 0755);
		trees[i].check(root);
	}
	as_json();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
