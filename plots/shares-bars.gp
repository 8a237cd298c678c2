# plots/shares-bars.gp - each item's share against its ideal share, one variant: its cgroups
# below the root, or, with none, its processes, or its threads.
#   gnuplot -e "term='png'; out='F.png'; data='DIR/VARIANT/bars.csv'; variant='base'; \
#               load 'DIR/plots/items-VARIANT.gp'" DIR/plots/labels.gp plots/shares-bars.gp
# data: share,share_min,share_max,ideal,name (a header, one row per item); items-VARIANT.gp:
# items_what, nitems, label[] (gnuplot would read a backslash in the data as an escape) and
# label_width. The labels are slanted so that long paths never overprint. With seeds=N
# (compare --seeds N) the bars are the means over the seeds, with a range from the least to
# the greatest share.
load 'plots/common.gp'
# the title: what is drawn, which of them when not all are, over how many seeds, and what the
# * after a label means
head = sprintf("%s, variant %s: share by %s%s against ideal", scenario, variant, items_what, \
    under)
if (nitems < of_items) {
	head = head . sprintf("\nthe %d of %d farthest from their ideal", nitems, of_items)
}
if (!exists('seeds')) { seeds = 1 }
if (seeds > 1) {
	head = head . sprintf("\nthe mean of %d seeds, with a range from the least to the greatest", \
	    seeds)
}
if (bound_note ne '') { head = head . "\n" . bound_note }
if (exists('vkernel')) { head = head . "\n" . vkernel }
set title head noenhanced
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
set bmargin ceil(label_width / 4.0) + 5
# the first label reaches left of its bar by about 8.2 pixels a character (cos 30 of the
# font's advance), less the half slot between the plot's edge and that bar (the plot, some
# 930 pixels less the margin, holds nitems slots): the left margin holds the rest, and at
# least the y tic labels and axis label (90 pixels); gnuplot's right margin, made for labels
# that are not there, is not needed
lpx = (8.2 * label_width - 465.0 / nitems) / (1 - 0.5 / nitems) + 10
set lmargin at screen (lpx < 90 ? 90 : lpx) / 960.0
set rmargin 3
if (seeds > 1) {
	plot data skip 1 using 1:2:3:xtic(label[int(column(0)) + 1]) title 'simulated' \
		fs pattern 1 lc rgb '#000000', \
	     '' skip 1 using 4:4:4 title 'ideal' fs pattern 2 lc rgb '#808080'
} else {
	plot data skip 1 using 1:xtic(label[int(column(0)) + 1]) title 'simulated' \
		fs pattern 1 lc rgb '#000000', \
	     '' skip 1 using 4 title 'ideal' fs pattern 2 lc rgb '#808080'
}
