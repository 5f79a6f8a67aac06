/* SPDX-License-Identifier: MIT */
/* x86_64 shares the x86 lock accesses. */
#include "../x86/lock.h"
