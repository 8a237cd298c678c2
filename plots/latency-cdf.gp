# plots/latency-cdf.gp - the distribution of wakeup latencies of all threads, one curve per
# variant.
#   gnuplot -e "term='png'; out='F.png'; dir='DIR'; variants='base interposed'; \
#               scenario='NAME'" plots/latency-cdf.gp
# data: DIR/VARIANT/latency-cdf.csv: latency_ms,fraction.
load 'plots/common.gp'
set title sprintf("%s: wakeup latency (all threads)", scenario) noenhanced
set xlabel 'wakeup latency (ms)'
set ylabel 'fraction of wakeups at or below'
set yrange [0:1]
set logscale x 10
set key noenhanced bottom right
plot for [i=1:words(variants)] sprintf('%s/%s/latency-cdf.csv', dir, word(variants, i)) \
     using 1:2 skip 1 with steps lt i title word(variants, i)
