#!/bin/sh
# SPDX-License-Identifier: MIT
# The layer rule of docs/design.md ("Layers"): every source folder has a
# layer, includes between folders name their folder, no folder includes one
# above it and no two folders include each other, nothing below src/cli/
# includes it, and arch/ holds instruction backends only (tests/layers.py).
. "${PC_SRCDIR}/tests/lib.sh"

"$PYTHON3" "$PC_SRCDIR/tests/layers.py" "$PC_SRCDIR"
