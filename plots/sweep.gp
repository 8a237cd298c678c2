# plots/sweep.gp - the sweep's target (a group's or process's share, or the overhead) against
# the swept value, one line per variant; dashed lines are the ideal shares.
#   gnuplot -e "term='png'; out='F.png'; data='DIR/sweep-target.csv'; key='KEY'; what='...'; \
#               scenario='NAME'; logx=1" plots/sweep.gp
# data: value,VARIANT,VARIANT ideal,VARIANT,VARIANT ideal,... (numeric values only).
# the key lists each variant and its ideal: common.gp sizes the figure for them
set datafile separator ','
stats data using 1 nooutput
n = STATS_columns
key_entries = n - 1
key_width = 20
load 'plots/common.gp'
kline = exists('kernel') && kernel ne '' ? "\n" . kernel : ''
set title sprintf("%s: %s as %s varies%s", scenario, what, key, kline) noenhanced
set xlabel key noenhanced
set ylabel what noenhanced
set key noenhanced
if (logx) { set logscale x 2 }
set yrange [0:*]
plot for [i=2:n:2] data using 1:i with linespoints lt (i/2) title columnhead(i), \
     for [i=3:n:2] data using 1:i with lines lt (i/2) dt 3 lw 1 title columnhead(i)
