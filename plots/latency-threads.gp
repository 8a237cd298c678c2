# plots/latency-threads.gp - each thread's wakeup latencies as a complementary distribution
# (the fraction of its wakeups that waited at least x), one variant, on log axes, so that the
# rarest wakeup (1/n) is on the plot. At most 24 threads: those with the highest p99.
#   gnuplot -e "term='png'; out='F.png'; data='DIR/VARIANT/latency-threads.csv'; \
#               variant='base'; load 'DIR/plots/latency-VARIANT.gp'" DIR/plots/labels.gp \
#           plots/latency-threads.gp
# data: one block per thread (gnuplot's index), latency_ms,fraction_at_or_above under two
# comment lines;
# latency-VARIANT.gp: nthreads (drawn), woke (how many threads woke) and tlabel[].
key_entries = nthreads
key_width = 0
do for [i=1:nthreads] {
	key_width = strlen(tlabel[i]) > key_width ? strlen(tlabel[i]) : key_width
}
load 'plots/common.gp'
which = nthreads < woke ? sprintf(", the %d of %d threads with the highest p99", nthreads, woke) : ''
if (exists('seed')) { which = which . sprintf(" (seed %d)", seed) }
if (exists('vkernel')) { which = which . "\n" . vkernel }
set title sprintf("%s, variant %s: wakeup latency by thread%s", scenario, variant, which) \
    noenhanced
set xlabel 'wakeup latency (ms)'
set ylabel 'fraction of its wakeups that waited at least'
set logscale x 10
set logscale y 10
set yrange [*:1]
set format y '10^{%L}'
set key noenhanced
# a dot where each curve starts, so that a thread whose every wakeup waited the same shows too
plot for [i=1:nthreads] data index (i - 1) using 1:2 with fsteps lt i title tlabel[i], \
     for [i=1:nthreads] data index (i - 1) every ::0::0 using 1:2 with points lt i pt 7 ps 0.8 \
	notitle
