# plots/shares-bars.gp - each cgroup's share against its ideal share, one variant.
#   gnuplot -e "term='png'; out='F.png'; data='DIR/VARIANT/groups.csv'; variant='base'; \
#               scenario='NAME'; load 'DIR/plots/groups-VARIANT.gp'" plots/shares-bars.gp
# data: path,cpu_ns,share,ideal (groups.csv), "/" first; glabel: the paths as gnuplot strings
# (gnuplot would read a backslash in the data as an escape). The root, always 1.0, is left out
# so as not to squeeze the rest; the labels are slanted so that long paths never overprint.
# With seeds=N (compare --seeds N) data is groups-seeds.csv, path,share,share_min,share_max,
# ideal: the bars are the means, with a range from the least to the greatest share.
load 'plots/common.gp'
if (!exists('seeds')) { seeds = 1 }
if (seeds > 1) {
	set title sprintf("%s, variant %s: share against ideal (mean of %d seeds, least to greatest)", \
	    scenario, variant, seeds) noenhanced
} else {
	set title sprintf("%s, variant %s: share against ideal", scenario, variant) noenhanced
}
set ylabel 'share of machine capacity'
set yrange [0:*]
set style data histograms
if (seeds > 1) {
	set style histogram errorbars gap 1 lw 1.5
} else {
	set style histogram clustered gap 1
}
set style fill pattern border -1
set boxwidth 0.9
set xtics noenhanced rotate by 30 right nomirror
set key noenhanced
# gnuplot's automatic margin is short of slanted labels, which then run into the key below:
# a label of n characters at 30 degrees takes about n/4 lines, the key and its box 4 more
set bmargin ceil(glabel_width / 4.0) + 5
# the header line read as such, so that every ::1 skips "/" and column(0) counts from 0 on the
# first cgroup below it (glabel[2])
set key autotitle columnhead
if (seeds > 1) {
	plot data every ::1 using 2:3:4:xtic(glabel[int(column(0)) + 2]) title 'simulated' \
		fs pattern 1 lc rgb '#000000', \
	     '' every ::1 using 5:5:5 title 'ideal' fs pattern 2 lc rgb '#808080'
} else {
	plot data every ::1 using 3:xtic(glabel[int(column(0)) + 2]) title 'simulated' \
		fs pattern 1 lc rgb '#000000', \
	     '' every ::1 using 4 title 'ideal' fs pattern 2 lc rgb '#808080'
}
