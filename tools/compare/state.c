// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-compare: the state of the one comparison a run makes. */
#include "compare.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct row *cmp_rows;
size_t cmp_nrows;
struct estimate *cmp_ests;
size_t cmp_nests;
char cmp_warnings[64][320];
int cmp_nwarnings;

__attribute__((format(printf, 1, 2)))
void warn_add(const char *fmt, ...)
{
	va_list ap;

	if (cmp_nwarnings >= 64)
		return;
	va_start(ap, fmt);
	vsnprintf(cmp_warnings[cmp_nwarnings++], sizeof(cmp_warnings[0]), fmt, ap);
	va_end(ap);
}

void key_field(const char *key, const char *field, char *out, size_t len)
{
	const char *p = key;
	size_t fl = strlen(field);

	out[0] = 0;
	while (p && *p) {
		if (!strncmp(p, field, fl) && p[fl] == ' ') {
			size_t l = strcspn(p + fl + 1, " ");

			snprintf(out, len, "%.*s", (int)l, p + fl + 1);
			return;
		}
		p = strchr(p, ' ');
		if (p)
			p = strchr(p + 1, ' ');
		if (p)
			p++;
	}
}

