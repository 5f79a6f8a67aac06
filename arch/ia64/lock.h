/* SPDX-License-Identifier: MIT */
/* ia64 takes the portable lock accesses (the compiler's builtins). */
#include "../lock_generic.h"
