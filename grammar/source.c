/* Reading a specification into memory and mapping offsets to lines. */
#include "grammar/source.h"
#include "grammar/ast.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* -1 when out of memory. */
static int build_line_map(struct source *src)
{
	int n = 1;
	for (size_t i = 0; i < src->len; i++)
		if (src->text[i] == '\n')
			n++;
	src->lines = calloc((size_t)n, sizeof(*src->lines));
	if (!src->lines)
		return -1;
	src->nlines = n;
	int k = 1;
	for (size_t i = 0; i < src->len; i++)
		if (src->text[i] == '\n')
			src->lines[k++] = i + 1;
	return 0;
}

int source_from_memory(struct source *src, const char *name, const char *text, size_t len)
{
	memset(src, 0, sizeof(*src));
	src->name = strdup(name);
	src->text = ast_strndup(text, len);
	src->len = len;
	if (!src->name || !src->text || build_line_map(src) < 0) {
		source_free(src);
		return -1;
	}
	return 0;
}

static int load_fail(struct source *src, FILE *err, const char *path, const char *why)
{
	fprintf(err, "%s: error: %s\n", path, why);
	source_free(src);
	return -1;
}

int source_load(struct source *src, const char *path, FILE *err)
{
	memset(src, 0, sizeof(*src));
	int is_stdin = strcmp(path, "-") == 0;
	/* O_NONBLOCK: a FIFO's open() would wait for a writer; it is refused */
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK);
	src->name = strdup(is_stdin ? "<stdin>" : path);
	if (fd >= 0 && !src->name) {
		if (!is_stdin)
			close(fd);
		return load_fail(src, err, path, "out of memory");
	}
	if (fd < 0)
		return load_fail(src, err, path, strerror(errno));
	struct stat st;
	if (!is_stdin && fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return load_fail(src, err, path, strerror(e));
	}
	if (!is_stdin && !S_ISREG(st.st_mode)) {
		close(fd);
		return load_fail(src, err, path, S_ISDIR(st.st_mode) ? "is a directory"
					     : "is not a regular file (a FIFO, a device or a socket): "
					       "give a file, or - and standard input");
	}
	if (!is_stdin)
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);
	for (;;) {
		if (!buf) {
			if (!is_stdin)
				close(fd);
			return load_fail(src, err, path, "out of memory");
		}
		if (len == cap) {
			if (cap >= SOURCE_MAX_BYTES) {
				free(buf);
				if (!is_stdin)
					close(fd);
				return load_fail(src, err, path, "file too large (more than 64 MiB)");
			}
			cap *= 2;
			char *bigger = realloc(buf, cap + 1);
			if (!bigger)
				free(buf);
			buf = bigger;
			continue;
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			if (!is_stdin)
				close(fd);
			return load_fail(src, err, path, strerror(e));
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	if (!is_stdin)
		close(fd);
	buf[len] = '\0';
	src->text = buf;
	src->len = len;
	if (build_line_map(src) < 0)
		return load_fail(src, err, path, "out of memory");
	return 0;
}

void source_free(struct source *src)
{
	free(src->name);
	free(src->text);
	free(src->lines);
	memset(src, 0, sizeof(*src));
}

const char *source_line(const struct source *src, int line, size_t *len)
{
	if (line < 1 || line > src->nlines)
		return NULL;
	size_t start = src->lines[line - 1];
	size_t end = start;
	while (end < src->len && src->text[end] != '\n')
		end++;
	if (end > start && src->text[end - 1] == '\r')
		end--;
	*len = end - start;
	return src->text + start;
}

void source_position(const struct source *src, size_t offset, int *line, int *col)
{
	int lo = 0, hi = src->nlines - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;
		if (src->lines[mid] <= offset)
			lo = mid;
		else
			hi = mid - 1;
	}
	*line = lo + 1;
	*col = (int)(offset - src->lines[lo]) + 1;
}
