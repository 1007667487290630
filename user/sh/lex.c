/* Lexing a command line: its words and operators, as POSIX's token recognition does for
 * the part of the shell language Duplex's sh knows (XCU 2.3).
 *
 * Words are separated by blanks and end at an operator. Quotes and backslashes are kept
 * in the word (expand.c removes them): '...' is literal, "..." keeps $ expansions, \
 * quotes the next character. Operators: ; & && || | and the redirections [N]< [N]>
 * [N]>> [N]>& [N]<& (N a single digit written right before the operator). A # at the
 * start of a word begins a comment. What the shell does not do is refused here, before
 * anything on the line runs: ( ), `...`, $(...), <<, <>, >|, ;;, |& and line
 * continuation. Called by run_line for every line; never sleeps. */
#include <stdio.h>
#include <string.h>

#include "sh.h"

/* Print "sh: WHAT" and fail: the line is refused. */
static int refuse(const char *what)
{
	fprintf(stderr, "sh: %s\n", what);
	return -1;
}

/* The operator at `in` into *token; returns its length, 0 if a word starts there, -1
 * after saying why the operator is refused. */
static int lex_operator(const char *in, struct token *token)
{
	static const struct {
		const char *text;
		enum token_kind kind;
	} plain[] = {{"&&", TOKEN_AND},
	             {"||", TOKEN_OR},
	             {";", TOKEN_SEQUENCE},
	             {"|", TOKEN_PIPE},
	             {"&", TOKEN_BACKGROUND}};
	if (strncmp(in, ";;", 2) == 0 || strncmp(in, "|&", 2) == 0)
		return refuse("';;' and '|&' are not supported");
	if (*in == '(' || *in == ')')
		return refuse("'(' and ')': subshells and grouping are not supported");
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		size_t length = strlen(plain[i].text);
		if (strncmp(in, plain[i].text, length) == 0) {
			token->kind = plain[i].kind;
			return (int)length;
		}
	}
	/* A redirection, maybe after the one digit that names its descriptor. */
	const char *at = in;
	int fd = -1;
	while (*at >= '0' && *at <= '9')
		at++;
	if (*at != '<' && *at != '>')
		return 0; /* digits without an operator are a word */
	if (at - in > 1)
		return refuse("only descriptors 0 to 9 can be redirected");
	if (at > in)
		fd = *in - '0';
	token->kind = TOKEN_REDIRECT;
	if (strncmp(at, "<<", 2) == 0)
		return refuse("'<<': here-documents are not supported");
	if (strncmp(at, "<>", 2) == 0 || strncmp(at, ">|", 2) == 0)
		return refuse("'<>' and '>|' are not supported");
	int length = 1;
	if (at[1] == '&') {
		token->redirect = REDIRECT_DUP;
		length = 2;
	} else if (at[0] == '>' && at[1] == '>') {
		token->redirect = REDIRECT_APPEND;
		length = 2;
	} else {
		token->redirect = at[0] == '<' ? REDIRECT_READ : REDIRECT_WRITE;
	}
	token->fd = fd >= 0 ? fd : at[0] == '<' ? 0 : 1;
	return (int)(at - in) + length;
}

/* The length of the word at `in` (quotes and all), or -1 after saying what is wrong
 * with it. The word ends at a blank or an operator character outside quotes. */
static int word_length(const char *in)
{
	const char *at = in;
	while (*at != '\0' && !strchr(" \t;&|<>()", *at)) {
		if (*at == '`')
			return refuse("`...`: command substitution is not supported");
		if (*at == '\\') {
			if (at[1] == '\0')
				return refuse(
				    "'\\' at the end of the line: continuation is not supported");
			at += 2;
		} else if (*at == '\'') {
			const char *close = strchr(at + 1, '\'');
			if (!close)
				return refuse("missing closing '");
			at = close + 1;
		} else if (*at == '"') {
			for (at++; *at != '"'; at++) {
				if (*at == '\0')
					return refuse("missing closing \"");
				if (*at == '\\' && at[1] != '\0')
					at++;
			}
			at++;
		} else if (*at == '$' && at[1] == '{') {
			const char *close = strchr(at, '}');
			if (!close)
				return refuse("missing closing }");
			at = close + 1;
		} else if (*at == '$' && at[1] == '(') {
			return refuse("$(...): command substitution is not supported");
		} else {
			at++;
		}
	}
	return (int)(at - in);
}

/* Split `line` into list->tokens. Returns the number of tokens (0 for a blank line or a
 * comment), or -1 after saying why the line is refused; the words are checked as
 * expand_word would expand them, so a word it would refuse stops the line here. The
 * words' text lives in a static buffer until the next call. */
int lex_line(const char *line, struct token_list *list)
{
	static char pool[2 * LINE_SIZE];
	static struct fields scratch;
	size_t used = 0;
	const char *in = line;

	list->count = 0;
	for (;;) {
		while (*in == ' ' || *in == '\t')
			in++;
		if (*in == '\0' || *in == '#')
			break;
		if (list->count == MAX_TOKENS) {
			fprintf(stderr, "sh: more than %d words and operators\n", MAX_TOKENS);
			return -1;
		}
		struct token *token = &list->tokens[list->count];
		token->start = (int)(in - line);
		int length = lex_operator(in, token);
		if (length < 0)
			return -1;
		if (length == 0) {
			length = word_length(in);
			if (length < 0)
				return -1;
			if (used + length + 1 > sizeof pool)
				return refuse("line too long");
			token->kind = TOKEN_WORD;
			token->text = memcpy(pool + used, in, length);
			pool[used + length] = '\0';
			used += length + 1;
			scratch.count = 0;
			scratch.used = 0;
			if (expand_word(token->text, &scratch, false, true) < 0)
				return -1;
		}
		in += length;
		token->end = (int)(in - line);
		list->count++;
	}
	return list->count;
}
