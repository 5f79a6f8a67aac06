// SPDX-License-Identifier: MIT OR GPL-2.0-only
/* The engine's self-check sequence, shared with every other executor
 * (kbuild builds only files in this directory). */
#include "engine/selfcheck.c"
