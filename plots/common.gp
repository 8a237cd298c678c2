# plots/common.gp - the terminal and style every cgsim figure shares. Loaded by the others with
# the variables set by cgsim's render.sh: term ('png' or 'svg') and out (the file to write);
# a script whose key lists many series sets key_entries (how many) and key_width (the longest
# title, in characters) first, and the figure grows taller to make room for the key's rows.
if (!exists('key_entries')) { key_entries = 2 }
if (!exists('key_width')) { key_width = 10 }
# the key below the plot fills the width: about 9.5 pixels a character plus the sample line
key_cols = floor(900 / (key_width * 9.5 + 80))
key_cols = key_cols < 1 ? 1 : key_cols
key_rows = ceil(key_entries * 1.0 / key_cols)
fig_height = 600 + (key_rows > 2 ? (key_rows - 2) * 22 : 0)
if (term eq 'svg') {
	set terminal svg size 960,fig_height dynamic enhanced font 'Helvetica,13' background rgb 'white'
} else {
	set terminal pngcairo size 960,fig_height enhanced font 'Helvetica,12' background rgb 'white'
}
set output out
set datafile separator ','
set grid lc rgb '#d0d0d0'
set border lw 1.2
# the key below the plot: long labels in it never narrow the plot area; the bottom margin
# made for it (gnuplot's own runs the key into the axis label); a script that needs more for
# its tic labels sets its own
set key below center box opaque height 1 width 1 maxcols key_cols
set bmargin key_rows + 5
# room above the highest point
set offsets 0, 0, graph 0.08, 0
# 24 series told apart in grey as well as in colour: 8 colours, each with three dash patterns
# (solid, dashed, dotted) for series 1-8, 9-16 and 17-24, and a point shape per series; after
# 24 they repeat
# (one line: gnuplot does not continue an array's initialiser)
array lt_colour[8] = ['#000000', '#1f4e79', '#7f2704', '#2d6a2d', '#6a3d9a', '#4d4d4d', '#b8860b', '#808080']
do for [i=1:24] {
	# (dt followed by '(' would read a dash pattern)
	lt_dash = (i - 1) / 8 + 1
	set linetype i lw 2 ps 1.2 pt ((i - 1) % 13 + 1) dt lt_dash lc rgb lt_colour[(i - 1) % 8 + 1]
}
set linetype cycle 24
