// SPDX-License-Identifier: MIT
/*
 * sim/scenario/rtapp_file.c - an rt-app file as a whole (sim/scenario/rtapp.h): whether a text is
 * one.
 */
#include <string.h>

#include "sim/scenario/rtapp.h"

bool rta_is_workload(const char *text, size_t len)
{
	size_t i = 0;

	/* blanks and comments, then '{': is "tasks", "global" or "resources" among its keys? */
	for (int depth = 0; i < len;) {
		char c = text[i];

		if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			const char *e = NULL;

			for (size_t k = i + 2; k + 1 < len && !e; k++)
				if (text[k] == '*' && text[k + 1] == '/')
					e = text + k + 2;
			i = e ? (size_t)(e - text) : len;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (c == '"') {
			size_t a = ++i;

			if (!depth)
				return false;	/* a string first: not an object */
			while (i < len && text[i] != '"')
				i += text[i] == '\\' ? 2 : 1;
			/* rt-app's three top keys; a YAML scenario has none of them */
			if (depth == 1 && ((i - a == 5 && !strncmp(text + a, "tasks", 5)) ||
					   (i - a == 6 && !strncmp(text + a, "global", 6)) ||
					   (i - a == 9 && !strncmp(text + a, "resources", 9))))
				return true;
			i++;
		} else if (c == '{' || c == '[') {
			if (!depth && c != '{')
				return false;
			depth++;
			i++;
		} else if (c == '}' || c == ']') {
			if (--depth <= 0)
				return false;
			i++;
		} else if (!depth && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
			return false;
		} else {
			i++;
		}
	}
	return false;
}
