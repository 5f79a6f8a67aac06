/* SPDX-License-Identifier: MIT */
/* i386 shares the x86 spin-wait hint. */
#include "../x86/relax.h"
