# A directory given as FILE.
. "$(dirname "$0")/lib.inc"
mkdir "$dir/spec.bsp"
run --check "$dir/spec.bsp"
expect_status 1
expect_err "$dir/spec.bsp: error: is a directory"
