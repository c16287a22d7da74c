/*
 * sanitizer_location.h - a code location as compute-sanitizer prints it
 * after "at", read into the function's short name, its source line and its
 * offset.  The reports of every tool share this grammar (memcheck's "at",
 * racecheck's "Read access at", the hazard report's "Write Thread (..)
 * at"), and demangled C++ names need care of their own, so it has one
 * place, below sanitizer_report.c.
 *
 * The forms read, newest first:
 *   kernel+0x70 in /dir/file.cu:41     kernel+0x70     kernel in file.h:236
 *   0x70 in /dir/file.cu:41:kernel     0x70 in kernel
 */
#ifndef CONFORM_SANITIZER_LOCATION_H
#define CONFORM_SANITIZER_LOCATION_H

struct sanitizer_location {
	char func[128];         /* as sanitizer_name_shorten leaves it */
	char source[128];       /* "file.cu:41", without the directories, or "" */
	char pc[32];            /* "0x70", the offset or address printed, or "" */
};

/* Reads s (the text after "at "), in place: s is cut up on the way.  Every
 * field of *loc is set, "" where s does not say it. */
void sanitizer_location_read(char *s, struct sanitizer_location *loc);

/* Cuts the parameter list off a demangled name, in place, and the return
 * type in front of it: "void full_reduce_sum<256, 1024>(float *, long long)
 * const" becomes "full_reduce_sum<256, 1024>"; a C name is left as it is. */
void sanitizer_name_shorten(char *s);

#endif
