# plots/shares-over-time.gp - each cgroup's share of the machine in each interval of one variant.
#   gnuplot -e "term='png'; out='F.png'; data='DIR/VARIANT/groups-series.csv'; variant='base'; \
#               scenario='NAME'; load 'DIR/plots/groups-VARIANT.gp'" plots/shares-over-time.gp
# data: time_s,GROUP,GROUP,... (written by cgsim compare -o / run -o), "/" first; glabel: the
# paths as gnuplot strings. The root, always 1.0, is left out so as not to squeeze the rest.
load 'plots/common.gp'
set title sprintf("%s, variant %s: share of the machine by cgroup", scenario, variant) noenhanced
set xlabel 'simulated time (s)'
set ylabel 'share of machine capacity'
set yrange [0:*]
set key noenhanced
stats data using 1 nooutput
n = STATS_columns
plot for [i=3:n] data using 1:i with linespoints pi 10 title glabel[i - 1]
