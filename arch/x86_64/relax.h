/* SPDX-License-Identifier: MIT */
/* x86_64 shares the x86 spin-wait hint. */
#include "../x86/relax.h"
