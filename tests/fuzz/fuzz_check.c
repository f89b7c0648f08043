/* libFuzzer harness: the input as a specification, parsed and checked as by
 * `bspcost --print` (the --check command with the canonical form as output).
 *
 * Beyond "no crash, no sanitizer report, no leak", it holds the command to what
 * bspcost(1) promises for any bytes:
 *   - the status is 0 or 1, and 1 comes with at least one error message (a
 *     specification is never refused in silence), 0 with none;
 *   - the canonical form of a specification that checks is itself a
 *     specification that checks, and printing it again changes nothing (the
 *     examples section of tests/run.sh asks the same of the examples).
 * A broken property aborts with a message, which libFuzzer reports as a crash
 * and saves the input for. */
#include "tests/fuzz/fuzz.h"

/* Runs --print on the text in F; the canonical form in *OUT, the messages in
 * *ERR (both malloc'd).  Returns the command's status. */
static int print_check(struct fuzz_file *f, const void *data, size_t size, char **out,
		       size_t *outlen, char **err)
{
	char *const files[] = {(char *)fuzz_file_set(f, data, size)};
	size_t errlen = 0;
	FILE *o = open_memstream(out, outlen);
	FILE *e = open_memstream(err, &errlen);
	if (!o || !e)
		fuzz_die("open_memstream failed");
	struct options opt = options_defaults(o, e);
	opt.check_only = true;
	opt.print = true;
	int st = cmd_check(1, files, &opt, NULL);
	if (fclose(o) != 0 || fclose(e) != 0)
		fuzz_die("closing a memstream failed");
	return st;
}

/* Whether MSGS, what the command printed for the file at PATH, has an error:
 * a line "PATH:LINE:COL: error: ..." or "bspcost: PATH: ..." (a file that
 * cannot be read). */
static int has_error(const char *msgs, const char *path)
{
	size_t n = strlen(path);
	for (const char *l = msgs; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, "bspcost: ", 9) == 0)
			return 1;
		if (strncmp(l, path, n) != 0 || l[n] != ':')
			continue;
		const char *p = l + n + 1;
		p += strspn(p, "0123456789");
		if (*p++ != ':')
			continue;
		p += strspn(p, "0123456789");
		if (strncmp(p, ": error: ", 9) == 0)
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_file f;
	char *p1 = NULL, *p2 = NULL, *err1 = NULL, *err2 = NULL;
	size_t n1 = 0, n2 = 0;

	int st = print_check(&f, data, size, &p1, &n1, &err1);
	if (st != EXIT_OK && st != EXIT_SPEC)
		fuzz_die("--check: exit status neither 0 nor 1");
	if ((st == EXIT_SPEC) != has_error(err1, f.path)) {
		fprintf(stderr, "%s", err1);
		fuzz_die(st == EXIT_SPEC ? "--check: status 1 without an error message"
					 : "--check: status 0 with an error message");
	}
	if (st == EXIT_OK) {
		int st2 = print_check(&f, p1, n1, &p2, &n2, &err2);
		if (st2 != EXIT_OK) {
			fprintf(stderr, "canonical form:\n%s\nmessages:\n%s", p1, err2);
			fuzz_die("--print: the canonical form of a correct specification does "
				 "not check");
		}
		if (n1 != n2 || memcmp(p1, p2, n1) != 0) {
			fprintf(stderr, "canonical form:\n%s\nprinted again:\n%s", p1, p2);
			fuzz_die("--print: printing the canonical form changes it");
		}
	}
	free(p1);
	free(p2);
	free(err1);
	free(err2);
	return 0;
}
