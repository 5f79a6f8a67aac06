// SPDX-License-Identifier: GPL-2.0
/* The shared x86 probe bodies, compiled into the module (kbuild builds only
 * files in this directory). */
#include "../../x86/probes.c"
