/* SPDX-License-Identifier: MIT */
/* quote.h - one quoting function per target language.  A string read from
 * an input (results.json, a reference dataset, a --label, a path) that is
 * written into a gnuplot script, a data file, Markdown or a shell command is
 * data there, never code or markup.
 *
 * Every function writes into buf (len bytes, always NUL-terminated when len
 * > 0) and returns buf.  What does not fit is dropped whole: an escape
 * sequence, a UTF-8 character or a closing quote is never cut in two.  Bytes
 * that are not valid UTF-8 become '?'.  Plain text (letters, digits, spaces
 * and the usual punctuation) comes out as it went in, except where a
 * function says otherwise. */
#ifndef MP_QUOTE_H
#define MP_QUOTE_H

#include <stddef.h>

/* A gnuplot double-quoted string constant, quotes included.  gnuplot
 * interprets backslash escapes there and runs `command` substitution even
 * inside double quotes, and a newline ends a command: '"', '\' and '`' are
 * backslash-escaped, control characters written as octal escapes (\012), so
 * the string keeps its value and stays one token on one line. */
const char *mp_quote_gp(char *buf, size_t len, const char *s);

/* Text for a '#' comment line of a gnuplot script or data file: control
 * characters become spaces (a newline would end the comment) and a trailing
 * backslash is dropped (it would continue the comment onto the next line). */
const char *mp_quote_comment(char *buf, size_t len, const char *s);

/* One column of a whitespace-separated data file: whitespace, control
 * characters, '#' (a comment), quotes and backslashes become '_'; an empty
 * string becomes "_" so the columns do not shift. */
const char *mp_quote_dat(char *buf, size_t len, const char *s);

/* Markdown (and the HTML it may carry) text, in a paragraph or a table cell:
 * '&' '<' '>' as entities (no tag, no autolink), '|' '`' '\' escaped with a
 * backslash (no cell split, no code span), "](" as "]\(" (no link or image),
 * newlines and tabs as spaces, other control characters as '?'.  Emphasis
 * characters (* _) are left as they are: they can only style the text. */
const char *mp_quote_md(char *buf, size_t len, const char *s);

/* A Markdown code span, its backtick fence included: the fence is one
 * backtick longer than the longest run of backticks in s (padded with a
 * space where s starts or ends with one), control characters become spaces;
 * in_table: '|' escaped as "\|", which a table cell needs even in a span. */
const char *mp_quote_md_code(char *buf, size_t len, const char *s, int in_table);

/* One POSIX shell word: s itself when it holds only characters no shell
 * gives a meaning to (letters, digits, _ - . / + , : = @ %), else in single
 * quotes with each ' as '\'' and each control character as ? outside the
 * quotes (a glob that matches it). */
const char *mp_quote_sh(char *buf, size_t len, const char *s);

/* The quoted forms in a buffer that lives until the end of the enclosing
 * block, for use inside one printf: fprintf(f, "ttl = %s\n", MP_QGP(t)). */
#define MP_QUOTE_MAX 2048
#define MP_QGP(s) mp_quote_gp((char[MP_QUOTE_MAX]){0}, MP_QUOTE_MAX, (s))
#define MP_QMD(s) mp_quote_md((char[MP_QUOTE_MAX]){0}, MP_QUOTE_MAX, (s))
#define MP_QCOMMENT(s) mp_quote_comment((char[MP_QUOTE_MAX]){0}, MP_QUOTE_MAX, (s))
#define MP_QDAT(s) mp_quote_dat((char[MP_QUOTE_MAX]){0}, MP_QUOTE_MAX, (s))

/* Length of the valid UTF-8 character at s (1 for ASCII), reading at most
 * avail bytes and none past the first that does not fit; 0 when the bytes
 * there are not valid UTF-8 (a stray continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF, a sequence cut short). */
size_t mp_utf8_seq(const char *s, size_t avail);

#endif
