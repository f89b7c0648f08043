# A malformed machine profile is refused with FILE:LINE: error: and the reason
# (exit status 2), never read in part; a good one given by path works.
. "$(dirname "$0")/lib.inc"
spec=examples/stencil1d.bsp
# profile NAME: writes $dir/NAME.machine from stdin
profile() { cat > "$dir/$1.machine"; }
check() { # NAME "LINE: MESSAGE"
	run --machine "$dir/$1.machine" --grid 2 -D n=10 "$spec"
	expect_status 2
	expect_err "$dir/$1.machine:${2%%:*}: error:${2#*:}"
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
check nog "2: p 2 needs both l and g"
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
check empty "1: no 'p' or 'level' line: the profile gives no parameters"
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
# the cost functions' entries, units and bytes
printf 'machine m\np 2 F_iq g_i 1 l 1\n' | profile badmodel
check badmodel "2: unknown cost function 'F_iq' (one of: bsp, overlap, F_h, F_io, F_ioM, F_hM, F_M, F_oM, F_iM, F_o, F_i, nhalf, logp)"
printf 'machine m\np 2 F_io g_i 1 l 1\n' | profile nogo
check nogo "2: p 2 F_io needs g_o (w + h_in*g_i + h_out*g_o + l)"
printf 'machine m\np 2 F_o g_o 1 g_M 2 l 1\n' | profile extra
check extra "2: 'g_M': F_o (w + h_out*g_o + l) has no coefficient g_M"
printf 'machine m\np 2 l 1 g 1 g_i 3\n' | profile plain
check plain "2: 'g_i' is a coefficient of Bianco and Pucci's functions: write the function's name after p 2 (p 2 F_ioM g_i ... )"
printf 'machine m\np 2 F_o g_o 1 l 1\np 2 F_o g_o 2 l 1\n' | profile twicemodel
check twicemodel "3: p 2 F_o is given twice"
printf 'machine m\np 2 F_h g 1 l 1\np 2 bsp g 5 l 1\n' | profile bspfh
check bspfh "3: p 2 bsp is given twice (bsp and F_h are one function)"
printf 'machine m\nper byte\nword 4\nper word\np 2 l 1 g 1\n' | profile pertwice
check pertwice "4: 'per' is given twice"
printf 'machine m\nunit hours\np 2 l 1 g 1\n' | profile unit
check unit "2: 'unit' is flops, s, ms or us, not 'hours'"
printf 'machine m\nper bytes\np 2 l 1 g 1\n' | profile per
check per "2: 'per' is word or byte, not 'bytes'"
printf 'machine m\nper byte\np 2 l 1 g 1\n' | profile noword
check noword "2: 'per byte' needs 'word' (bytes per word): h counts words"
# a profile in ms per byte: needs a speed; with one, its costs are in flops
printf 'machine t\nunit ms\nper byte\nword 4\np 2 F_o g_o 1/1000 l 1\n# p 2 l 1 g 1\n' | profile timed
run --machine "$dir/timed.machine" --model F_o --grid 2 -D n=10 "$spec"
expect_status 2
expect_err "bspcost: $spec: --machine t gives its coefficients in ms and no speed s: give --speed FLOPS (its processors' flop/s) to add them to w, which counts flops"
run --machine "$dir/timed.machine" --model F_o --speed 1e6 --grid 2 -D n=10 -f json "$spec"
expect_status 0
expect_out '"g_o": 4, "l": 1000'
run --machine "$dir/timed.machine" --grid 2 -D n=10 "$spec"
expect_status 2
expect_err "bspcost: $spec: --machine t gives no coefficients for bsp (w + h*g + l); it prices F_o"
run --machine "$dir/absent.machine" --grid 2 -D n=10 "$spec"
expect_status 2
expect_err "$dir/absent.machine: error: No such file or directory"
# level entries: a cluster's D-BSP g, l and Pf, for --hierarchy
printf 'machine m\nlevel 3 g 1 l 1\n' | profile level3
check level3 "2: level 3: a level is a cluster of 2, 4, 8, ... processes"
printf 'machine m\nlevel 2 g 1 l 1\nlevel 2 g 1 l 2\n' | profile leveltwice
check leveltwice "3: level 2 is given twice"
printf 'machine m\nlevel 2 l 1\n' | profile levelnog
check levelnog "2: level 2 needs both g and l"
printf 'machine m\nlevel 2 g 1 l 1 L 3\n' | profile levelkey
check levelkey "2: unknown key 'L' in level 2 (g, l and pf)"
printf 'machine lv\nlevel 2 g 1 l 10\nlevel 4 g 2 l 50\nlevel 8 g 8 l 400 pf 100\n' | profile levels
# stencil1d's blocks on 8: H = [1/4, 1, 2], w = 24: D-BSP = 24 + (8 + 400 +
# 100) + (2 + 50) + (2*1 + 10) = 596, BSP = 24 + 2*8 + 400 = 440
run --hierarchy --machine "$dir/levels.machine" -D n=64 -D P=8 -f json "$spec"
expect_status 0
expect_out '"H": ["1/4", 1, 2], "alpha": 1, "alpha_approx": 1, "dbsp": 596, "dbsp_approx": 596, "bsp": 440'
run --hierarchy --machine "$dir/levels.machine" -D n=64 -D P=16 "$spec"
expect_status 2
expect_err "bspcost: $spec: machine lv gives no level for clusters of 16 processes (a 'level 16 g G l L' line)"
run --hierarchy --machine "$dir/levels.machine" --topology butterfly -D n=64 -D P=8 "$spec"
expect_status 2
expect_err "bspcost: $spec: --topology butterfly and machine lv's levels both price the hierarchy: give one"
# in ms at 2000 flop/s: every coefficient twice the flops
printf 'machine lt\nunit ms\ns 2000\nlevel 2 g 1 l 10\nlevel 4 g 2 l 50\nlevel 8 g 8 l 400 pf 100\n' | profile leveltime
run --hierarchy --machine "$dir/leveltime.machine" -D n=64 -D P=8 -f json "$spec"
expect_status 0
expect_out '"dbsp": 1168, "dbsp_approx": 1168, "bsp": 856'
