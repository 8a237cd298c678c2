# plots/shares-over-time.gp - each item's share of the machine in each interval of one variant:
# its cgroups below the root, or, with none, its processes, or its threads.
#   gnuplot -e "term='png'; out='F.png'; data='DIR/VARIANT/items-series.csv'; variant='base'; \
#               load 'DIR/plots/items-VARIANT.gp'" DIR/plots/labels.gp plots/shares-over-time.gp
# data: time_s,ITEM,ITEM,... (a header, then one row per interval); items-VARIANT.gp:
# items_what, nitems, label[] (gnuplot would read a backslash in the data as an escape),
# ideal[] and show_ideal (dotted lines at the ideal shares, unless a timeline moves them during
# the run), and the timeline's operations, nmarks, mark_t[] (s) and mark_label[], drawn as
# grey lines.
key_entries = nitems
key_width = label_width
load 'plots/common.gp'
# the title: what is drawn, which of them when not all are, which seed's run, and what the *
# after a label means
head = sprintf("%s, variant %s: share of the machine by %s%s", scenario, variant, items_what, \
    under)
if (exists('seed')) { head = head . sprintf(" (seed %d)", seed) }
if (nitems < of_items) {
	head = head . sprintf("\nthe %d of %d farthest from their ideal", nitems, of_items)
}
if (bound_note ne '') { head = head . "\n" . bound_note }
if (exists('vkernel')) { head = head . "\n" . vkernel }
set title head noenhanced
set xlabel 'simulated time (s)'
set ylabel 'share of machine capacity'
set yrange [0:*]
set key noenhanced
do for [j=1:nmarks] {
	set arrow from mark_t[j], graph 0 to mark_t[j], graph 1 nohead dt 2 lw 1 lc rgb '#909090' back
	set label sprintf('%s', mark_label[j]) at mark_t[j], graph 0.98 rotate by 90 right \
	    offset character -0.6, 0 font ',9' tc rgb '#505050' noenhanced front
}
plot for [i=1:nitems] data skip 1 using 1:(column(i + 1)) with linespoints pi 10 lt i \
	title label[i], \
     for [i=1:(show_ideal ? nitems : 0)] data skip 1 using 1:(ideal[i]) with lines lt i dt 3 \
	lw 1 notitle
