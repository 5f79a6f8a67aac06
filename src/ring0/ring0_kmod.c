/* SPDX-License-Identifier: MIT */
/*
 * ring0_kmod.c - the kernel-module way into ring 0 (runner/kmod/).
 *
 * Uses the module when its device exists; otherwise, when allowed and run
 * as root, loads it from a file with finit_module(2) and unloads it when
 * done. Each command is one ioctl, run by the module on the calling CPU
 * (primcost has pinned itself) with preemption off; the module runs only
 * the ring-0 rows and the gate's, each from its own state (pc_main.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ring0_backend.h"
#include "runner/kmod/pc_kmod.h"

struct kmod {
	int fd;
	bool loaded;		/* by us: unload at close */
};

static void kmod_close(void *impl)
{
	struct kmod *k = impl;

	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	if (k->loaded)
		syscall(SYS_delete_module, PC_KMOD_NAME, O_NONBLOCK);
	free(k);
}

static int kmod_exec(void *impl, struct pc_ring0_cmd *c, int *vector, char *err,
		     size_t len)
{
	struct kmod *k = impl;

	*vector = -1;
	if (ioctl(k->fd, PC_KMOD_IOC_EXEC, c) < 0) {
		snprintf(err, len, "%s: %s", PC_KMOD_DEVICE, strerror(errno));
		/* refused by the module (a row it does not run, a module of
		 * another build): the command's; not allowed: the machine's */
		return errno == EPERM || errno == EACCES ? PC_RING0_EXEC_CANNOT :
		       PC_RING0_EXEC_FAULT;
	}
	return PC_RING0_EXEC_OK;
}

/* The device appears when the module registers it; give devtmpfs a moment. */
static int open_device(int tries)
{
	struct timespec ms10 = { 0, 10000000 };
	int fd;

	for (;;) {
		fd = open(PC_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT || --tries <= 0)
			return fd;
		nanosleep(&ms10, NULL);
	}
}

/* modprobe finds the module where the system installed it (DKMS:
 * /lib/modules/RELEASE/updates/dkms, compressed or not). 0 if it loaded. */
static int modprobe_module(void)
{
	char *const argv[] = { "modprobe", "-q", PC_KMOD_NAME, NULL };
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		execv("/sbin/modprobe", argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

void *pc_ring0_kmod_open(const char *module_path, bool load, char *why, size_t len)
{
	struct kmod *k = calloc(1, sizeof(*k));
	char path[512];
	struct utsname u;
	int mfd;

	if (!k) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	k->fd = open_device(1);
	if (k->fd >= 0)
		return k;
	if (errno != ENOENT) {
		snprintf(why, len, "%s: %s", PC_KMOD_DEVICE, strerror(errno));
		goto fail;
	}
	if (!load) {
		snprintf(why, len, "the %s module is not loaded", PC_KMOD_NAME);
		goto fail;
	}
	if (access("/proc/modules", F_OK) != 0) {
		snprintf(why, len, "this kernel has no module support (no "
			 "/proc/modules): the kernel module cannot be loaded here");
		goto fail;
	}
	if (geteuid() != 0) {
		snprintf(why, len, "the %s module is not loaded and loading it "
			 "needs root", PC_KMOD_NAME);
		goto fail;
	}
	if (!module_path && modprobe_module() == 0) {
		snprintf(path, sizeof(path), "modprobe %s", PC_KMOD_NAME);
		goto loaded;
	}
	if (module_path) {
		snprintf(path, sizeof(path), "%s", module_path);
	} else {
		uname(&u);
		snprintf(path, sizeof(path), "/lib/modules/%s/extra/%s.ko",
			 u.release, PC_KMOD_NAME);
	}
	mfd = open(path, O_RDONLY | O_CLOEXEC);
	if (mfd < 0) {
		snprintf(why, len, "module %s: %s (%sinstall primcost-dkms, or "
			 "build and install it from runner/kmod, or give "
			 "--ring0-module)", path, strerror(errno),
			 module_path ? "" : "modprobe " PC_KMOD_NAME " failed; ");
		goto fail;
	}
	if (syscall(SYS_finit_module, mfd, "", 0) != 0) {
		snprintf(why, len, "cannot load %s: %s", path, strerror(errno));
		close(mfd);
		goto fail;
	}
	close(mfd);
loaded:
	k->loaded = true;
	k->fd = open_device(200);
	if (k->fd < 0) {
		snprintf(why, len, "loaded %s, but %s: %s", path, PC_KMOD_DEVICE,
			 strerror(errno));
		goto fail;
	}
	return k;
fail:
	kmod_close(k);
	return NULL;
}

int pc_ring0_kmod_fd(const void *impl)
{
	return ((const struct kmod *)impl)->fd;
}

const struct pc_ring0_backend pc_ring0_kmod_backend = {
	.name = "kmod",
	.exec = kmod_exec,
	.close = kmod_close,
};
