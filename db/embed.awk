# embed.awk - turns db/schema.sql into src/schema_sql.c, one C string.
#
#   awk -f db/embed.awk db/schema.sql > src/schema_sql.c
#
# Characters are escaped one at a time rather than with gsub(), whose
# handling of backslashes in the replacement differs between awks.  '?' is
# escaped so that no "??x" in a comment becomes a C trigraph; CR is dropped
# so a CRLF checkout embeds the same text.
BEGIN {
	print "/* Generated from db/schema.sql by db/embed.awk; do not edit. */"
	print "const char db_schema_sql[] ="
}
{
	out = ""
	for (i = 1; i <= length($0); i++) {
		c = substr($0, i, 1)
		if (c == "\\")
			c = "\\\\"
		else if (c == "\"")
			c = "\\\""
		else if (c == "?")
			c = "\\?"
		else if (c == "\t")
			c = "\\t"
		else if (c == "\r")
			c = ""
		out = out c
	}
	print "\"" out "\\n\""
}
END { print ";" }
