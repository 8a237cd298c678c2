# plots/common.gp - the terminal and style every cgsim figure shares. Loaded by the others with
# the variables set by cgsim's render.sh: term ('png' or 'svg') and out (the file to write).
# Lines differ by dash pattern and point shape as well as colour, so the figures read in grey.
if (term eq 'svg') {
	set terminal svg size 960,600 dynamic enhanced font 'Helvetica,13' background rgb 'white'
} else {
	set terminal pngcairo size 960,600 enhanced font 'Helvetica,12' background rgb 'white'
}
set output out
set datafile separator ','
set grid lc rgb '#d0d0d0'
set border lw 1.2
# the key below the plot: long cgroup paths in it never narrow the plot area
set key below center box opaque maxrows 4 height 1
# room above the highest point
set offsets 0, 0, graph 0.08, 0
do for [i=1:8] {
	set linetype i lw 2 ps 1.2 pt (i + 3) dt i
}
set linetype 1 lc rgb '#000000'
set linetype 2 lc rgb '#4d4d4d'
set linetype 3 lc rgb '#808080'
set linetype 4 lc rgb '#1f4e79'
set linetype 5 lc rgb '#7f2704'
set linetype 6 lc rgb '#2d6a2d'
set linetype 7 lc rgb '#6a3d9a'
set linetype 8 lc rgb '#b2b2b2'
