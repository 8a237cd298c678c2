// SPDX-License-Identifier: MIT
/*
 * sim/cli/cli.c - what the commands share (sim/cli/cli.h): the parser built on getopt_long,
 * the usage lines, --help and the bash completion made from the commands' option tables, and
 * the helpers every command uses (loading, the timeline's refusals, numbers, formats).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/live/live.h"
#include "sim/run/run.h"
#include "sim/run/seeds.h"
#include "sim/scenario/scenario.h"

#define CLI_WIDTH 80	/* every usage and help line fits in it */
#define CLI_HELP_COL 24	/* where --help's option texts begin at most */
#define CLI_LONG 256	/* getopt_long's value of the long option at index i: CLI_LONG + i */

/* ---- the parser ------------------------------------------------------------------------ */

#define CLI_END		(-2)	/* next(): no more arguments */
#define CLI_EXIT	(-3)	/* next(): --help printed or bad usage said: exit with ->rc */

static int parse_start(struct cli_parse *p, const struct cli_cmd *cmd, int argc, char **argv)
{
	struct option *lo = calloc(cmd->nopts + 2, sizeof(*lo));
	char *s = p->optstring;
	size_t k = 0;

	memset(p, 0, sizeof(*p));
	if (!lo) {
		fputs("cgsim: out of memory\n", stderr);
		return -1;
	}
	/*
	 * '-': operands come back in their place (check's order is the user's), whatever
	 * POSIXLY_CORRECT says; ':': a missing value is told apart from an unknown option.
	 */
	*s++ = '-';
	*s++ = ':';
	*s++ = 'h';
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *o = &cmd->opts[i];

		if (o->name)
			lo[k++] = (struct option){ o->name, o->meta ? required_argument : no_argument,
						   NULL, CLI_LONG + (int)i };
		if (o->short_name && s + 3 < p->optstring + sizeof(p->optstring)) {
			*s++ = o->short_name;
			if (o->meta)
				*s++ = ':';
		}
	}
	lo[k] = (struct option){ "help", no_argument, NULL, 'h' };
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	p->lopts = lo;
	optind = 0;	/* glibc's full reset: every command parses from the start */
	opterr = 0;	/* the messages are ours */
	return 0;
}

static void parse_end(struct cli_parse *p)
{
	free(p->lopts);
	p->lopts = NULL;
}

/* Whether @text ("--name" or "--name=VALUE") names long option @name in full. */
static bool exact(const char *text, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(text, "--", 2) && !strncmp(text + 2, name, n) &&
	       (text[2 + n] == '\0' || text[2 + n] == '=');
}

/* A usage error of the parse: @fmt with @arg; CLI_EXIT. */
static int refuse(struct cli_parse *p, const char *fmt, const char *arg)
{
	p->rc = cli_usage_error(p->cmd, fmt, arg);
	return CLI_EXIT;
}

/* "unknown option '--foo'" for what the user wrote (@text), its value left out. */
static int unknown(struct cli_parse *p, const char *text)
{
	char opt[64];

	if (!strncmp(text, "--", 2) && text[2] != '=')
		snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(text, "="), text);
	else if (!strncmp(text, "--", 2))
		snprintf(opt, sizeof(opt), "%s", text);	/* "--=x": no name to cut it to */
	else
		snprintf(opt, sizeof(opt), "-%c", optopt ? optopt : text[1]);
	return refuse(p, "unknown option '%s'", opt);
}

/* The index in the table of the option getopt_long returned as @c; -1 for none. */
static int opt_index(const struct cli_cmd *cmd, int c)
{
	if (c >= CLI_LONG && (size_t)(c - CLI_LONG) < cmd->nopts)
		return c - CLI_LONG;
	for (size_t i = 0; c > 0 && i < cmd->nopts; i++)
		if (cmd->opts[i].short_name == c)
			return (int)i;
	return -1;
}

static void opt_label(char *buf, size_t len, const struct cli_opt *o, bool is_long)
{
	if (is_long && o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

/*
 * The next argument: the index in cmd->opts of an option (its value in ->val), CLI_OPERAND,
 * CLI_END or CLI_EXIT. --help prints the command's help; a bad option says why on stderr.
 */
static int next(struct cli_parse *p)
{
	int at, c, i;
	const char *text;

	p->name[0] = '\0';
	p->val = NULL;
	if (p->done) {
		if (optind >= p->argc)
			return CLI_END;
		p->val = p->argv[optind++];
		return CLI_OPERAND;
	}
	/*
	 * Without permutation ('-'), the argument getopt_long reads is argv[optind] (1 before the
	 * first call): what the user wrote, to refuse an abbreviation getopt_long would take.
	 */
	at = optind ? optind : 1;
	c = getopt_long(p->argc, p->argv, p->optstring, p->lopts, NULL);
	text = at < p->argc ? p->argv[at] : "";
	if (c == -1) {
		p->done = 1;	/* "--", or the end: the rest are operands */
		return next(p);
	}
	if (c == 1) {
		p->val = optarg;
		return CLI_OPERAND;
	}
	if (c == ':' || c == '?') {
		i = opt_index(p->cmd, optopt);
		if (optopt == 'h' && !strncmp(text, "--", 2) && exact(text, "help"))
			return refuse(p, "%s takes no value", "--help");
		if (i < 0 || (!strncmp(text, "--", 2) && !exact(text, p->cmd->opts[i].name ?
								   p->cmd->opts[i].name : "")))
			return unknown(p, text);
		opt_label(p->name, sizeof(p->name), &p->cmd->opts[i], optopt >= CLI_LONG);
		return refuse(p, c == ':' ? "%s needs a value" : "%s takes no value", p->name);
	}
	if (c == 'h') {
		if (!strncmp(text, "--", 2) && !exact(text, "help"))
			return unknown(p, text);
		cli_print_help(stdout, p->cmd);
		p->rc = cli_finish_stdout();
		return CLI_EXIT;
	}
	i = opt_index(p->cmd, c);
	if (i < 0)
		return unknown(p, text);
	if (c >= CLI_LONG && !exact(text, p->cmd->opts[i].name))
		return unknown(p, text);
	opt_label(p->name, sizeof(p->name), &p->cmd->opts[i], c >= CLI_LONG);
	p->val = optarg;
	return i;
}

int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      int (*each)(const struct cli_parse *p, int k, void *ctx), void *ctx)
{
	struct cli_parse p;
	int k, rc = -1;

	if (parse_start(&p, cmd, argc, argv))
		return 2;
	while (rc < 0 && (k = next(&p)) != CLI_END)
		rc = k == CLI_EXIT ? p.rc : each(&p, k, ctx);
	parse_end(&p);
	return rc;
}

int cli_operand_once(const struct cli_cmd *cmd, const char **slot, const char *v,
		     const char *what)
{
	char fmt[64];

	if (!*slot) {
		*slot = v;
		return -1;
	}
	snprintf(fmt, sizeof(fmt), "more than one %s given ('%%s')", what);
	return cli_usage_error(cmd, fmt, v);
}

/* ---- usage, help and completion from the tables ---------------------------------------- */

/* Option @o as the usage shows it, without brackets: "--seed N", "-o DIR". */
static void opt_text(char *buf, size_t len, const struct cli_opt *o)
{
	char label[48];

	opt_label(label, sizeof(label), o, true);
	snprintf(buf, len, "%s%s%s", label, o->meta ? " " : "", o->meta ? o->meta : "");
}

/* Where a usage line is: its column, so that the next item knows whether it fits. */
struct line {
	FILE *f;
	size_t col;
	size_t indent;	/* of its continuation lines */
};

static void put_item(struct line *l, const char *item)
{
	size_t n = strlen(item);

	if (l->col + 1 + n > CLI_WIDTH && l->col > l->indent) {
		fprintf(l->f, "\n%*s", (int)l->indent, "");
		l->col = l->indent;
	} else {
		fputc(' ', l->f);
		l->col++;
	}
	fputs(item, l->f);
	l->col += n;
}

/* @cmd's options and operands as usage items after @prefix (printed already, @col wide). */
static void usage_items(FILE *f, const struct cli_cmd *cmd, size_t col, size_t indent)
{
	struct line l = { f, col, indent };
	char item[256], one[96];

	if (cmd->operands && !cmd->operands_last)
		put_item(&l, cmd->operands);
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *o = &cmd->opts[i];

		if (o->usage) {
			if (o->usage[0])
				put_item(&l, o->usage);
			continue;
		}
		opt_text(one, sizeof(one), o);
		if (o->group) {
			/* the group's options in one bracket: they exclude each other */
			snprintf(item, sizeof(item), "[%s", one);
			while (i + 1 < cmd->nopts && cmd->opts[i + 1].group == o->group) {
				size_t n = strlen(item);

				opt_text(one, sizeof(one), &cmd->opts[++i]);
				snprintf(item + n, sizeof(item) - n, "|%s", one);
			}
			strncat(item, "]", sizeof(item) - strlen(item) - 1);
		} else {
			snprintf(item, sizeof(item), o->required ? "%s" : o->many ? "[%s]..." : "[%s]",
				 one);
		}
		put_item(&l, item);
	}
	if (cmd->operands && cmd->operands_last)
		put_item(&l, cmd->operands);
	fputc('\n', f);
}

void cli_print_usage(FILE *f, const struct cli_cmd *cmd)
{
	int n = fprintf(f, "usage: cgsim %s", cmd->name);

	usage_items(f, cmd, (size_t)n, (size_t)n + 1);
	if (cmd->more_usage)
		fprintf(f, "       cgsim %s %s\n", cmd->name, cmd->more_usage);
}

/*
 * @text from column @col (where the line is now) to @indent's column, words wrapped within
 * CLI_WIDTH, each line after the first (and each after a '\n' in @text) at @indent.
 */
static void wrap(FILE *f, const char *text, size_t col, size_t indent)
{
	bool first = true;	/* of its line: no blank before it */

	if (col + 2 > indent) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", (int)(indent - col), "");
	col = indent;
	while (*text) {
		size_t w = strcspn(text, " \n");

		if (*text == ' ' || *text == '\n') {
			if (*text++ == '\n' && *text) {
				fprintf(f, "\n%*s", (int)indent, "");
				col = indent;
				first = true;
			}
			continue;
		}
		if (!first && col + 1 + w > CLI_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			first = true;
		}
		if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, text);
		col += w;
		text += w;
		first = false;
	}
	fputc('\n', f);
}

void cli_print_help(FILE *f, const struct cli_cmd *cmd)
{
	char label[128];
	size_t col = 0;

	cli_print_usage(f, cmd);
	fprintf(f, "\n%s\n\n", cmd->description);
	/*
	 * the help column: after the widest label, so that the texts line up, but no further
	 * than CLI_HELP_COL (a wider label has its text on the lines below)
	 */
	for (size_t i = 0; i < cmd->nopts; i++) {
		opt_text(label, sizeof(label), &cmd->opts[i]);
		if (strlen(label) + 4 > col && strlen(label) + 4 <= CLI_HELP_COL)
			col = strlen(label) + 4;
	}
	for (size_t i = 0; i < cmd->nopts; i++) {
		opt_text(label, sizeof(label), &cmd->opts[i]);
		fprintf(f, "  %s", label);
		wrap(f, cmd->opts[i].help, strlen(label) + 2, col);
	}
	if (cmd->exit_status)
		fprintf(f, "\n%s\n", cmd->exit_status);
}

void cli_print_commands(FILE *f, const struct cli_cmd *const *cmds, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		int w = fprintf(f, "  %s", cmds[k]->name);

		usage_items(f, cmds[k], (size_t)w, 12);
		wrap(f, cmds[k]->summary, 0, 12);
	}
}

/*
 * The case of the options of @cmd whose value completes to files (@files) or to nothing: their
 * names as "a|b", then @then; nothing when no option is one.
 */
static void value_case(FILE *f, const struct cli_cmd *cmd, bool files, const char *then)
{
	const char *sep = "\t\t";

	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct cli_opt *o = &cmd->opts[i];
		char label[48];

		if (!o->meta || o->words || o->files != files)
			continue;
		if (o->name) {
			opt_label(label, sizeof(label), o, true);
			fprintf(f, "%s%s", sep, label);
			sep = "|";
		}
		if (o->short_name) {
			fprintf(f, "%s-%c", sep, o->short_name);
			sep = "|";
		}
	}
	if (*sep == '|')
		fprintf(f, ") %s ;;\n", then);
}

/* One command's branch of the completion: its options' values, its options, its operands. */
static void completion_cmd(FILE *f, const struct cli_cmd *cmd)
{
	char label[48];

	fprintf(f, "\t%s)\n\t\tcase $prev in\n", cmd->name);
	value_case(f, cmd, true, "COMPREPLY=($(compgen -f -- \"$cur\")); return");
	value_case(f, cmd, false, "return");
	for (size_t i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].words && cmd->opts[i].name)
			fprintf(f, "\t\t--%s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n",
				cmd->opts[i].name, cmd->opts[i].words);
	fputs("\t\tesac\n\t\topts='", f);
	for (size_t i = 0; i < cmd->nopts; i++) {
		opt_label(label, sizeof(label), &cmd->opts[i], true);
		fprintf(f, "%s ", label);
	}
	fprintf(f, "--help'\n\t\toperands=%s glob='%s' ;;\n", cmd->operands ? "1" : "",
		cmd->operand_glob ? cmd->operand_glob : "");
}

void cli_print_completion(FILE *f, const struct cli_cmd *const *cmds, size_t n,
			  const char *top_words)
{
	fputs("# bash completion for cgsim, made by cgsim --bash-completion from its option tables\n"
	      "# (installed as share/bash-completion/completions/cgsim)\n"
	      "_cgsim()\n{\n"
	      "\tlocal cur prev cmd opts operands glob\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\tcmd=${COMP_WORDS[1]}\n"
	      "\t# --opt=VALUE: bash splits it at '=' (COMP_WORDBREAKS)\n"
	      "\tif [ \"$cur\" = = ]; then\n\t\tcur=\n"
	      "\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -gt 2 ]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD - 2]}\n\tfi\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W '", f);
	for (size_t k = 0; k < n; k++)
		fprintf(f, "%s ", cmds[k]->name);
	fprintf(f, "%s' -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase $cmd in\n", top_words);
	for (size_t k = 0; k < n; k++)
		completion_cmd(f, cmds[k]);
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telif [ -n \"$operands\" ]; then\n"
	      "\t\t# the operands' files by their pattern, and directories to find them in\n"
	      "\t\tCOMPREPLY=($([ -z \"$glob\" ] || compgen -f -X \"!$glob\" -- \"$cur\")\n"
	      "\t\t\t   $(compgen -d -- \"$cur\"))\n"
	      "\tfi\n}\ncomplete -F _cgsim cgsim\n", f);
}

/* ---- the helpers ----------------------------------------------------------------------- */

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "cgsim: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	/* the usage lines only, then where the rest is (GNU's way) */
	if (!cmd) {
		fputs("usage: cgsim COMMAND [ARGS]\nTry 'cgsim --help' for more information.\n",
		      stderr);
		return 2;
	}
	cli_print_usage(stderr, cmd);
	fprintf(stderr, "Try 'cgsim %s --help' for more information.\n", cmd->name);
	return 2;
}

int cli_finish_stdout(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cgsim: writing the output: %s\n", strerror(errno));
		return 2;
	}
	return 0;
}

bool cli_parse_u64(const char *v, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(v, &end, 10);
	return *v && !*end && errno != ERANGE && strspn(v, "0123456789") == strlen(v);
}

bool cli_parse_range(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	return cli_parse_u64(v, out) && *out >= lo && *out <= hi;
}

_Static_assert(SEEDS_MAX == 1000, "the usage texts give the most seeds");

int cli_seeds(const struct cli_cmd *cmd, const char *v, size_t *out)
{
	uint64_t n;

	if (!cli_parse_range(v, 1, SEEDS_MAX, &n))
		return cli_usage_error(cmd, "--seeds needs a number of runs from 1 to 1000, not "
				       "'%s'", v);
	*out = (size_t)n;
	return -1;
}

_Static_assert(RUN_MAX_EVENTS == 1000000000ull, "the usage texts give the default work bound");

/* --max-events N: the work bound of every run of this command (sim/run/run.h). */
int cli_max_events(const struct cli_cmd *cmd, const char *v)
{
	uint64_t n;

	if (!cli_parse_u64(v, &n))
		return cli_usage_error(cmd, "--max-events needs a number from 0 (no limit) to "
				       "18446744073709551615, not '%s'", v);
	run_set_max_events(n);
	return -1;
}

int cli_add_set(const struct cli_cmd *cmd, const char **sets, size_t *n, const char *v)
{
	if (*n >= CLI_MAX_SETS)
		return cli_usage_error(cmd, "more than %s --set options", "256");
	sets[(*n)++] = v;
	return -1;
}

/* Output formats (sim/cli/cli.h). */
size_t cli_format_asked(const void *t, size_t n, size_t size, const char *a)
{
	for (size_t i = 1; i < n; i++) {
		/* a row's first member, its option, is where the row starts */
		const char *opt = *(const char *const *)(const void *)((const char *)t + i * size);

		if (!strcmp(a, opt))
			return i;
	}
	return 0;
}

int cli_format_set(size_t *chosen, size_t f, const char *opt_f, const char *opt_chosen,
		   const struct cli_cmd *cmd)
{
	char both[64];

	if (*chosen && *chosen != f) {
		/* named in the table's order, whichever came first on the command line */
		snprintf(both, sizeof(both), "%s and %s", *chosen < f ? opt_chosen : opt_f,
			 *chosen < f ? opt_f : opt_chosen);
		return cli_usage_error(cmd, "%s exclude each other", both);
	}
	*chosen = f;
	return 0;
}

unsigned cli_timeline_refusals(const struct run_result *res, const char *variant)
{
	unsigned n = 0;

	for (size_t i = 0; i < res->nops; i++) {
		const char *r = res->ops[i].result, *colon = strchr(r, ':');

		if (!res->ops[i].failed || !colon)
			continue;
		n++;
		fprintf(stderr, "%s:%.*s: at %.3f s%s%s%s:%s\n", res->sc->file, (int)(colon - r), r,
			(double)res->ops[i].at / 1e9, variant ? " [" : "", variant ? variant : "",
			variant ? "]" : "", colon + 1);
	}
	return n;
}

void cli_notes(const struct scenario *sc)
{
	static char said[1024];	/* variants and sweeps load the same file again */

	if (!sc || !sc->nnotes || !strncmp(said, sc->file, sizeof(said) - 1))
		return;
	snprintf(said, sizeof(said), "%s", sc->file);
	for (size_t i = 0; i < sc->nnotes; i++)
		fprintf(stderr, "%s\n", sc->notes[i]);
}

struct scenario *cli_load(const char *file, const char *variant, const char *const *sets,
			  size_t nsets)
{
	char err[2048];
	struct scenario *sc = scn_load(file, NULL, variant, sets, nsets, err, sizeof(err));

	if (!sc)
		fprintf(stderr, "%s\n", err);
	cli_notes(sc);
	return sc;
}

int cli_live_failed(int e, const char *err, const char *what)
{
	fprintf(stderr, "%s\n", err[0] ? err : what);
	if (e == -EINTR) {
		signal(live_stop_signal(), SIG_DFL);
		raise(live_stop_signal());
	}
	return 2;
}
