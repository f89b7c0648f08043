# A malformed machine profile is refused with FILE:LINE and the reason (exit
# status 2), never read in part; a good one given by path works.
. "$(dirname "$0")/lib.inc"
spec=examples/stencil1d.bsp
# profile NAME: writes $dir/NAME.machine from stdin
profile() { cat > "$dir/$1.machine"; }
check() { # NAME MESSAGE
	run --machine "$dir/$1.machine" --grid 2 -D n=10 "$spec"
	expect_status 2
	expect_err "bspcost: $dir/$1.machine:$2"
}
printf 'machine m\np 2 l 10 g 1\n' | profile good
run --machine "$dir/good.machine" --grid 2 -D n=10 -f json "$spec"
expect_status 0
expect_out '"seconds": null'
printf 'machine m\np 2 l 10 gg 1\n' | profile typo
check typo "2: unknown value 'gg'; did you mean 'g'?"
printf 'machine m\ns 1e6\nwrd 4\np 2 l 1 g 1\n' | profile topkey
check topkey "3: unknown line 'wrd'; did you mean 'word'?"
printf 'machine m\np 2 l 10\n' | profile nog
check nog "2: p 2 needs both l and g (in flops)"
printf 'machine m\np 2 l 10 g 1\np 2 l 11 g 2\n' | profile twice
check twice "3: p 2 is given twice"
printf 'machine m\np 2 l ten g 1\n' | profile nan
check nan "2: 'l': 'ten' is not a number (12, 7.5, 26e6 or 1/3)"
printf 'machine m\np 2 l -1 g 1\n' | profile negative
check negative "2: 'l': -1 is negative"
printf 'machine m\np 0 l 1 g 1\n' | profile zero
check zero "2: 'p' needs a whole number from 1 to 1000000, not '0'"
printf '# nothing\np 2 l 1 g 1\n' | profile noname
check noname "2: no 'machine NAME' line"
printf 'machine m\n' | profile empty
check empty "1: no 'p' line: the profile gives no parameters"
printf 'machine m\np 2 l 1 g 1 g_us\n' | profile novalue
check novalue "2: 'g_us' needs a value"
printf 'machine m n\np 2 l 1 g 1\n' | profile twowords
check twowords "1: a machine's name is one word"
printf 'machine m\ns 0\np 2 l 1 g 1\n' | profile slow
check slow "2: 's': a speed of 0 flop/s"
printf 'machine m\nword 4 5\np 2 l 1 g 1\n' | profile words
check words "2: 'word' takes one value"
printf 'machine m\ns 5 6\np 2 l 1 g 1\n' | profile speeds
check speeds "2: 's' takes one value"
run --machine "$dir/absent.machine" --grid 2 -D n=10 "$spec"
expect_status 2
expect_err "bspcost: $dir/absent.machine: No such file or directory"
