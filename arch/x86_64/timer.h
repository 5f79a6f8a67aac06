/* SPDX-License-Identifier: MIT */
/* x86-64 shares the x86 time-stamp counter read. */
#include "../x86/timer.h"
