# An empty file, and one with only blanks and comments.
. "$(dirname "$0")/lib.inc"
: > "$dir/empty.bsp"
run --check "$dir/empty.bsp"
expect_status 1
expect_err "empty.bsp:1:1: error: empty specification: nothing is declared"
printf '\n   \n# nothing\n\t\n' > "$dir/blank.bsp"
run --check "$dir/blank.bsp"
expect_status 1
expect_err "blank.bsp:1:1: error: empty specification: nothing is declared"
