/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/* The probe code includes <stdint.h>; in the kernel the types come from
 * <linux/types.h>. */
#ifndef PC_KMOD_STDINT_H
#define PC_KMOD_STDINT_H
#include <linux/types.h>
#endif
