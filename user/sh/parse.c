/* Parsing a command line: words, operators, a pipeline of commands with their
 * redirections, and a trailing & (run the job in the background).
 *
 * A command line is words separated by spaces; "double quotes" keep spaces inside a word
 * and \" or \\ put a quote or a backslash in it. Outside quotes |, <, >, >>, 2>, 2>&1
 * and & are operators and need no spaces around them ("2>" only where a word begins). */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sh.h"

/* The operators a line may hold, outside quotes. A word is an operator only if it is
 * one of these very strings (a quoted "|" is a plain word). */
static const char pipe_operator[] = "|";
static const char input_operator[] = "<";
static const char output_operator[] = ">";
static const char append_operator[] = ">>";
static const char error_operator[] = "2>";
static const char error_to_output_operator[] = "2>&1";
static const char background_operator[] = "&";

static bool is_operator(const char *word)
{
	return word == pipe_operator || word == input_operator || word == output_operator ||
	       word == append_operator || word == error_operator ||
	       word == error_to_output_operator || word == background_operator;
}

/* The operator at `in`, or NULL; *length is how many characters it takes. The longest
 * first, so that "2>&1" is not read as "2>" and "&". */
static const char *operator_at(const char *in, size_t *length)
{
	static const char *const operators[] = {
	    error_to_output_operator, error_operator,  append_operator,    pipe_operator,
	    input_operator,           output_operator, background_operator};
	for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++) {
		*length = strlen(operators[i]);
		if (strncmp(in, operators[i], *length) == 0)
			return operators[i];
	}
	return NULL;
}

/* Split `line` into words[0..MAX_WORDS) (copies in a buffer of their own) and end the
 * list with NULL. Returns the number of words, or -1 after printing why the line is
 * malformed. */
static int split_words(const char *line, char **words)
{
	static char pool[2 * LINE_SIZE];
	const char *in = line;
	char *out = pool;
	int count = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t')
			in++;
		if (*in == '\0')
			break;
		if (count == MAX_WORDS) {
			fprintf(stderr, "sh: more than %d words\n", MAX_WORDS);
			return -1;
		}
		size_t length;
		const char *found = operator_at(in, &length);
		bool at_word_start = in == line || in[-1] == ' ' || in[-1] == '\t';
		bool names_fd = found == error_operator || found == error_to_output_operator;
		if (found && (!names_fd || at_word_start)) {
			words[count++] = (char *)found;
			in += length;
			continue;
		}
		words[count++] = out;
		/* Copy the word over the quotes and backslashes it loses. */
		bool quoted = false;
		while (*in != '\0' && (quoted || (*in != ' ' && *in != '\t'))) {
			if (!quoted && (*in == '|' || *in == '<' || *in == '>' || *in == '&'))
				break; /* an operator ends the word */
			if (*in == '"') {
				quoted = !quoted;
				in++;
				continue;
			}
			if (*in == '\\' && (in[1] == '"' || in[1] == '\\'))
				in++;
			*out++ = *in++;
		}
		if (quoted) {
			fprintf(stderr, "sh: missing closing \"\n");
			return -1;
		}
		*out++ = '\0';
	}
	words[count] = NULL;
	return count;
}

/* Cut words[0..count) into commands at each |, taking the redirections out of the
 * words; a & may only be the last word. Returns the number of commands, or -1 after
 * printing a syntax error. */
static int parse_pipeline(char **words, int count, struct parsed_line *parsed)
{
	struct command *commands = parsed->commands;
	int commands_used = 1;
	struct command *command = &commands[0];
	command->count = command->redirection_count = 0;
	parsed->background = false;
	if (count > 0 && words[count - 1] == background_operator) {
		parsed->background = true;
		count--;
	}
	for (int i = 0; i < count; i++) {
		const char *word = words[i];
		if (word == background_operator)
			goto syntax; /* only at the end of the line */
		if (word == pipe_operator) {
			if (command->count == 0 || i == count - 1 || commands_used == MAX_COMMANDS)
				goto syntax;
			command->words[command->count] = NULL;
			command = &commands[commands_used++];
			command->count = command->redirection_count = 0;
			continue;
		}
		if (!is_operator(word)) {
			command->words[command->count++] = words[i];
			continue;
		}
		if (command->redirection_count == MAX_REDIRECTIONS)
			goto syntax;
		struct redirection *redirection =
		    &command->redirections[command->redirection_count++];
		if (word == error_to_output_operator) {
			*redirection = (struct redirection){2, NULL, 0, 1};
			continue;
		}
		if (i == count - 1 || is_operator(words[i + 1]))
			goto syntax;
		const char *path = words[++i];
		if (word == input_operator)
			*redirection = (struct redirection){0, path, O_RDONLY, 0};
		else if (word == append_operator)
			*redirection =
			    (struct redirection){1, path, O_WRONLY | O_CREAT | O_APPEND, 0};
		else
			*redirection = (struct redirection){word == error_operator ? 2 : 1, path,
			                                    O_WRONLY | O_CREAT | O_TRUNC, 0};
	}
	if (command->count == 0)
		goto syntax;
	command->words[command->count] = NULL;
	return commands_used;
syntax:
	fprintf(stderr, "sh: syntax error\n");
	return -1;
}

/* Called by run_line for every line. Never sleeps. */
int parse_line(const char *line, struct parsed_line *parsed)
{
	static char *words[MAX_WORDS + 1];
	int count = split_words(line, words);
	if (count <= 0)
		return count;
	parsed->count = parse_pipeline(words, count, parsed);
	return parsed->count < 0 ? -1 : 1;
}
