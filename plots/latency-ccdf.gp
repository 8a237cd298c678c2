# plots/latency-ccdf.gp - how often a wakeup waits longer than x, all threads, one curve per
# variant, on log axes: the tail, where a latency problem shows, reads as well as the body.
#   gnuplot -e "term='png'; out='F.png'; dir='DIR'; variants='base interposed'" \
#           DIR/plots/labels.gp plots/latency-ccdf.gp
# data: DIR/VARIANT/latency-cdf.csv: latency_ms,fraction (at or below); drawn as the fraction
# at or above each latency, 1 - the previous row's fraction (1 on the first row), which is
# never 0 and so always on the log axis.
load 'plots/common.gp'
kline = exists('kernel') && kernel ne '' ? "\n" . kernel : ''
if (exists('seed')) {
	set title sprintf("%s: wakeup latency, all threads (seed %d)%s", scenario, seed, kline) \
	    noenhanced
} else {
	set title sprintf("%s: wakeup latency, all threads%s", scenario, kline) noenhanced
}
set xlabel 'wakeup latency (ms)'
set ylabel 'fraction of wakeups that waited at least'
set logscale x 10
set logscale y 10
set yrange [*:1]
set format y '10^{%L}'
set key noenhanced
plot for [i=1:words(variants)] sprintf('%s/%s/latency-cdf.csv', dir, word(variants, i)) \
     skip 1 using 1:(column(0) == 0 ? prev = 0 : 0, at_least = 1 - prev, prev = $2, at_least) \
     with fsteps lt i title word(variants, i), \
     for [i=1:words(variants)] sprintf('%s/%s/latency-cdf.csv', dir, word(variants, i)) \
     skip 1 every ::0::0 using 1:(1) with points lt i pt 7 ps 0.8 notitle
