# The command line's table of options (cli/args.c) against bspcost(1): every
# option --help lists (--help is written from the table) has its entry in
# the manual's OPTIONS, under the same long and short names, and every
# option the manual's OPTIONS documents is in the table; each long option
# the table has is accepted by the parser (no "unknown option").
. "$(dirname "$0")/lib.inc"
man=$(dirname "$0")/../../man/bspcost.1
"$BIN" --help > "$dir/help" || fail "bspcost --help failed"
python3 - "$dir/help" "$man" <<'PY' > "$dir/opts" || exit 1
import re, sys
help_text, man = open(sys.argv[1]).read(), open(sys.argv[2]).read()
table = set()
for line in help_text.splitlines():
    m = re.match(r"  (-\w, )?(--[\w-]+)", line)
    if m:
        table.add(m.group(2))
        if m.group(1):
            table.add(m.group(1)[:2])
opts = man[man.index("\n.Sh OPTIONS"):man.index("\n.Ss Options that cannot be combined")]
documented = set()
for line in opts.splitlines():
    if not line.startswith(".It Fl"):
        continue
    for flag in re.findall(r"Fl (-?[\w-]+)", line):
        documented.add("-" + flag)
bad = 0
for o in sorted(table - documented):
    print("in the table, not in bspcost(1)'s OPTIONS: %s" % o, file=sys.stderr)
    bad = 1
for o in sorted(documented - table):
    print("in bspcost(1)'s OPTIONS, not in the table: %s" % o, file=sys.stderr)
    bad = 1
if len(table) < 30:
    print("only %d options read from --help" % len(table), file=sys.stderr)
    bad = 1
for o in sorted(table):
    if o.startswith("--"):
        print(o)
sys.exit(bad)
PY
# each long option is the parser's: given with a bad or no argument it is
# refused for that, never as unknown
n=0
while read -r o; do
	"$BIN" "$o" > /dev/null 2> "$dir/err" < /dev/null
	if grep -q "unknown option" "$dir/err"; then
		fail "$o: the parser does not know it"
	fi
	n=$((n + 1))
done < "$dir/opts"
echo "$n options, each in bspcost(1) and known to the parser"
