// SPDX-License-Identifier: MIT OR GPL-2.0-only
/* The ring-0 command executor shared with the KVM micro-guest. */
#include "runner/ring0/exec.c"
