/* SPDX-License-Identifier: MIT */
/* i386 shares the x86 lock accesses. */
#include "../x86/lock.h"
