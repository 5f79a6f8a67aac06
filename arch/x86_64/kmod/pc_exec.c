// SPDX-License-Identifier: GPL-2.0
/* The ring-0 command executor shared with the KVM micro-guest. */
#include "../ring0/exec.c"
