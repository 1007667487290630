/* Parsing one pipeline of a line (the tokens between ;, &&, || and &): its commands,
 * cut at each |, each with its leading NAME=VALUE assignments, its words and its
 * redirections. check_pipeline looks at the tokens as typed, so that a malformed line
 * is refused before any of it runs; parse_pipeline expands the words (expand.c) just
 * before the pipeline runs, so that $? is the status of the one before it. Never
 * sleeps. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sh.h"

/* Words that start a compound command or a function in POSIX sh: Duplex's sh has none,
 * and running them as programs would misread the line. */
static bool is_reserved_word(const char *word)
{
	static const char *const reserved[] = {
	    "if",    "then",  "else", "elif", "fi", "do", "done", "case",     "esac",
	    "while", "until", "for",  "{",    "}",  "!",  "[[",   "function", "select"};
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (strcmp(word, reserved[i]) == 0)
			return true;
	return false;
}

static int syntax_error(const char *what)
{
	fprintf(stderr, "sh: syntax error: %s\n", what);
	return -1;
}

/* 0 if tokens[0..count) make a pipeline: no empty command, every redirection followed
 * by a word, no reserved word where a command starts; else -1 after saying what is
 * wrong. Called by run_line before anything on the line runs. */
int check_pipeline(const struct token *tokens, int count)
{
	bool command_start = true;
	int commands = 1;
	if (count == 0)
		return syntax_error("an empty command");
	for (int i = 0; i < count; i++) {
		const struct token *token = &tokens[i];
		if (token->kind == TOKEN_PIPE) {
			if (command_start || i == count - 1)
				return syntax_error("| without a command on each side");
			if (++commands > MAX_COMMANDS) {
				fprintf(stderr, "sh: more than %d commands in a pipeline\n",
				        MAX_COMMANDS);
				return -1;
			}
			command_start = true;
		} else if (token->kind == TOKEN_REDIRECT) {
			if (i == count - 1 || tokens[i + 1].kind != TOKEN_WORD)
				return syntax_error("a redirection without a file");
			const char *target = tokens[++i].text;
			if (token->redirect == REDIRECT_DUP &&
			    (target[0] < '0' || target[0] > '9' || target[1] != '\0'))
				return syntax_error(">& takes a descriptor, 0 to 9");
		} else if (command_start && is_reserved_word(token->text)) {
			fprintf(stderr, "sh: %s: not supported (no compound commands)\n",
			        token->text);
			return -1;
		} else if (!is_assignment(token->text)) {
			command_start = false;
		}
	}
	return 0;
}

/* Add the redirection `token` to `target` (its expanded word) to `command`. */
static int add_redirection(struct command *command, const struct token *token, const char *target)
{
	if (command->redirection_count == MAX_REDIRECTIONS) {
		fprintf(stderr, "sh: more than %d redirections\n", MAX_REDIRECTIONS);
		return -1;
	}
	struct redirection *redirection = &command->redirections[command->redirection_count++];
	static const int flags[] = {
	    [REDIRECT_READ] = O_RDONLY,
	    [REDIRECT_WRITE] = O_WRONLY | O_CREAT | O_TRUNC,
	    [REDIRECT_APPEND] = O_WRONLY | O_CREAT | O_APPEND,
	};
	if (token->redirect != REDIRECT_DUP) {
		*redirection = (struct redirection){token->fd, target, flags[token->redirect], 0};
		return 0;
	}
	/* check_pipeline saw to it that the target is one digit. */
	*redirection = (struct redirection){token->fd, NULL, 0, target[0] - '0'};
	return 0;
}

/* Expand the pipeline tokens[0..count) (checked by check_pipeline) into *parsed (its
 * `background` is left to the caller), the words kept in *store. 0, or -1 after saying
 * why it cannot run. Called by run_line just before the pipeline runs. */
int parse_pipeline(const struct token *tokens, int count, struct parsed_line *parsed,
                   struct fields *store)
{
	struct command *command = &parsed->commands[0];
	memset(command, 0, sizeof *command);
	parsed->count = 1;
	store->count = 0;
	store->used = 0;
	for (int i = 0; i < count; i++) {
		const struct token *token = &tokens[i];
		if (token->kind == TOKEN_PIPE) {
			command = &parsed->commands[parsed->count++];
			memset(command, 0, sizeof *command);
			continue;
		}
		int first = store->count;
		if (token->kind == TOKEN_REDIRECT) {
			/* The file's name is one field: no field splitting (POSIX 2.7). */
			if (expand_word(tokens[++i].text, store, false, false) < 0 ||
			    add_redirection(command, token, store->fields[first]) < 0)
				return -1;
			continue;
		}
		bool assignment = command->count == 0 && is_assignment(token->text);
		int fields = expand_word(token->text, store, !assignment, false);
		if (fields < 0)
			return -1;
		if (assignment) {
			if (command->assignment_count == MAX_ASSIGNMENTS) {
				fprintf(stderr, "sh: more than %d assignments\n", MAX_ASSIGNMENTS);
				return -1;
			}
			command->assignments[command->assignment_count++] = store->fields[first];
			continue;
		}
		for (int f = first; f < first + fields; f++)
			command->words[command->count++] = store->fields[f];
	}
	for (int c = 0; c < parsed->count; c++) {
		command = &parsed->commands[c];
		command->words[command->count] = NULL;
		if (command->count == 0 && (parsed->count > 1 || command->redirection_count > 0)) {
			fprintf(stderr, "sh: a command expanded to nothing\n");
			return -1;
		}
	}
	return 0;
}
