# plots/shares-bars.gp - each cgroup's share against its ideal share, one variant.
#   gnuplot -e "term='png'; out='F.png'; data='DIR/VARIANT/groups.csv'; variant='base'; \
#               scenario='NAME'" plots/shares-bars.gp
# data: path,cpu_ns,share,ideal (groups.csv).
load 'plots/common.gp'
set title sprintf("%s, variant %s: share against ideal", scenario, variant) noenhanced
set ylabel 'share of machine capacity'
set xlabel 'cgroup'
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill pattern border -1
set boxwidth 0.9
set xtics noenhanced
set key noenhanced
plot data using 3:xtic(1) title 'simulated' fs pattern 1 lc rgb '#000000', \
     '' using 4 title 'ideal' fs pattern 2 lc rgb '#808080'
