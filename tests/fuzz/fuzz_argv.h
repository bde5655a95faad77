/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_FUZZ_ARGV_H
#define RTP_FUZZ_ARGV_H

/*
 * The option targets' harness: the fuzz input as a string, and that string
 * split at newlines into a command line after the program's name.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ARGV_MAX 64	/* argv's size: at most FUZZ_ARGV_MAX - 1 words, then NULL */

/* A NUL-terminated copy of the input; the caller frees it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* argv = prog, then the lines of s (cut in place, empty ones skipped), then
 * NULL; returns argc. */
static inline int fuzz_argv(char *s, const char *prog, char *argv[FUZZ_ARGV_MAX])
{
	int argc = 0;

	argv[argc++] = (char *)prog;
	for (char *p = strtok(s, "\n"); p && argc < FUZZ_ARGV_MAX - 1; p = strtok(NULL, "\n"))
		argv[argc++] = p;
	argv[argc] = NULL;
	return argc;
}

/*
 * A whole option target: the input as PROG's command line, parsed by
 * PARSE into a struct TYPE, nothing asserted beyond not crashing.
 */
#define FUZZ_OPTS_TARGET(PROG, TYPE, PARSE)					\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
	{									\
		char *s = fuzz_string(data, size), *argv[FUZZ_ARGV_MAX];	\
		struct TYPE o;							\
		int argc = fuzz_argv(s, PROG, argv);				\
										\
		PARSE(&o, argc, argv);						\
		free(s);							\
		return 0;							\
	}

#endif /* RTP_FUZZ_ARGV_H */
