/* SPDX-License-Identifier: MIT */
/* i386 shares the x86 time-stamp counter read. */
#include "../x86/timer.h"
