# SPDX-License-Identifier: MIT
# uarch-table.awk - turns data/uarch.tsv into the C table src/core/uarch.c reads.
#   awk -f scripts/uarch-table.awk data/uarch.tsv > uarch_table.c
# A malformed row stops the build with its line number.
BEGIN {
	FS = "\t"
	print "/* SPDX-License-Identifier: MIT */"
	print "/* Generated from data/uarch.tsv by scripts/uarch-table.awk: edit those. */"
	print "#include \"core/uarch.h\""
	print ""
	print "const struct pc_uarch_row pc_uarch_rows[] = {"
	bad = 0
}
function str(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}
function num(s) {
	if (s == "-")
		return "-1"
	if (s !~ /^(0x[0-9a-fA-F]+|[0-9]+)$/) {
		printf("uarch.tsv:%d: not a number: '%s'\n", NR, s) > "/dev/stderr"
		bad = 1
	}
	return s
}
/^#/ || /^[ \t]*$/ { next }
{
	if (NF != 8) {
		printf("uarch.tsv:%d: %d columns, want 8\n", NR, NF) > "/dev/stderr"
		bad = 1
		next
	}
	if ($1 != "x86" && $1 != "arm64" && $1 != "ia64") {
		printf("uarch.tsv:%d: arch '%s' is not x86, arm64 or ia64\n", NR, $1) > "/dev/stderr"
		bad = 1
	}
	printf("\t{ %s, %s, %s, %s, %s, %s, %s, %s },\n", str($1), str($2), num($3),
	       num($4), num($5), str($6), $7 == "-" ? "\"\"" : str($7), str($8))
}
END {
	print "};"
	print ""
	print "const size_t pc_uarch_nrows = sizeof(pc_uarch_rows) / sizeof(pc_uarch_rows[0]);"
	if (bad)
		exit 1
}
