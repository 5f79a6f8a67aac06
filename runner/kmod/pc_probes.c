// SPDX-License-Identifier: MIT OR GPL-2.0-only
/* The shared x86 probe bodies, compiled into the module (kbuild builds only
 * files in this directory). */
#include "arch/x86/probes.c"
