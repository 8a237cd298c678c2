// SPDX-License-Identifier: MIT
/*
 * sim/machine/machine.c - the engine, the scheduler and the cgroup model wired together.
 *
 * Events:
 *   - one per thread (its behaviour's next wakeup, or its stop time);
 *   - one per CPU: the moment the thread running there finishes its current burst of work,
 *     recomputed (sched_cpu_finish_time) whenever the scheduler reports the CPU changed;
 *   - one for the scheduler: the earliest sched_next_tick() over all CPUs.
 * An event is only re-armed when its time really changes, so the engine's tie order between
 * events at the same nanosecond does not depend on how many ticks were processed: runs with
 * tick elision on and off see the same sequence of scheduler calls.
 *
 * This file builds and configures the machine and runs it; machine_events.c,
 * machine_cgroup.c and machine_metrics.c hold the rest (sim/machine/machine_internal.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine_internal.h"
#include "sim/trace/trace.h"

int machine__ensure_cg(struct sim_machine *m, int id)
{
	/* the two tables grow together: a failure leaves m->ncg, what both hold, as it was */
	size_t cpu_cap = (size_t)m->ncg, total_cap = (size_t)m->ncg;

	if (id < m->ncg)
		return 0;
	if (UTIL_GROW_ZERO(m->cg_cpu, cpu_cap, (size_t)id + 1) ||
	    UTIL_GROW_ZERO(m->cg_total, total_cap, (size_t)id + 1))
		return -ENOMEM;
	m->ncg = (int)cpu_cap;
	return 0;
}

/* Credit a thread's CPU time since the last credit to the cgroup it is in now. */
void machine__credit(struct sim_machine *m, struct mthread *t)
{
	uint64_t exec = sched_thread_exec(m->s, t->tid, sim_now(&m->eng));

	if (t->cgroup >= 0 && t->cgroup < m->ncg && exec > t->credited) {
		m->cg_cpu[t->cgroup] += exec - t->credited;
		m->cg_total[t->cgroup] += exec - t->credited;
	}
	t->credited = exec;
}

/* @t is switched in: remember it until the next sample credits its time. */
void machine__ran(struct sim_machine *m, struct mthread *t)
{
	if (t->ran)
		return;
	if (UTIL_GROW(m->ran, m->capran, m->nran + 1)) {
		machine__fail(m, -ENOMEM);
		return;
	}
	m->ran[m->nran++] = t->tid;
	t->ran = true;
}

void machine__fail(struct sim_machine *m, int err)
{
	if (!m->err)
		m->err = err;
	sim_stop(&m->eng);
}

/* ---------------- construction ---------------- */

/* splitmix64: a stateless, deterministic hash for the reservoir's choices. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * Keep every wakeup latency until the thread has m->lat_keep of them, then a uniform sample
 * of that size (reservoir sampling: the k-th sample replaces a random kept one with probability
 * keep/k), so that memory stays bounded however long the run. The largest, the smallest and
 * the sum are kept exactly. The choices come from a hash of (seed, tid, k), not from the
 * thread's stream, so keeping samples never changes what the thread draws.
 */
static void latency_hook(void *ctx, int tid, uint64_t lat)
{
	struct sim_machine *m = ctx;
	struct mthread *t = machine__mt(m, tid);

	if (!t)
		return;
	if (t->start_lat) {	/* its start's, not a wakeup's (activate()) */
		t->start_lat = false;
		return;
	}
	t->seen++;
	if (lat > SIM_DELAYED_NS)
		t->delayed++;
	if (lat > t->lat_max)
		t->lat_max = lat;
	if (t->seen == 1 || lat < t->lat_min)
		t->lat_min = lat;
	t->lat_sum += lat;
	if (t->nlat >= m->lat_keep) {
		uint64_t j = mix64(m->seed ^ mix64(((uint64_t)tid << 32) ^ t->seen)) % t->seen;

		if (j < t->nlat)
			t->lat[j] = lat;
		return;
	}
	if (t->nlat == t->caplat) {
		size_t k = t->caplat ? 2 * t->caplat : 1;	/* many threads wake once */
		uint64_t *p;

		if (k > m->lat_keep)
			k = m->lat_keep;
		p = realloc(t->lat, k * sizeof(*p));
		if (!p) {
			machine__fail(m, -ENOMEM);
			return;
		}
		t->lat = p;
		t->caplat = k;
	}
	t->lat[t->nlat++] = lat;
}

/* A wait that a switch-in ended: counted, summed, and the longest (the first of equals) kept. */
static void wait_hook(void *ctx, int tid, uint64_t since, uint64_t at)
{
	struct mthread *t = machine__mt(ctx, tid);

	if (!t)
		return;
	machine__ran(ctx, t);
	if (t->pa && t->pa->act_pending) {	/* the periodic activation under way runs from now */
		t->pa->act.start = at;
		t->pa->act_pending = false;
	}
	t->waits++;
	t->wait_sum += at - since;
	if (t->waits == 1 || at - since > t->wait_max) {
		t->wait_max = at - since;
		t->wait_max_since = since;
		t->wait_max_at = at;
	}
}

/* t's activation records, allocated at its first activation; NULL (the run failed) on ENOMEM */
static struct mact *activations(struct sim_machine *m, struct mthread *t)
{
	if (!t->pa && !(t->pa = calloc(1, sizeof(*t->pa))))
		machine__fail(m, -ENOMEM);
	return t->pa;
}

void machine__activation_begin(struct sim_machine *m, struct mthread *t, uint64_t exec)
{
	struct sched_thread_stats st;
	uint64_t now = sim_now(&m->eng);
	struct mact *pa = activations(m, t);

	if (!pa)
		return;
	pa->act = (struct sim_activation){ .idx = pa->next_idx++, .period_start = t->next_period,
					   .wakeup = now };
	pa->act_exec0 = exec;
	/* one that follows an overrun on the CPU starts at once; others at their switch-in */
	pa->act_pending = sched_thread_stats(m->s, t->tid, &st) || !st.running;
	if (!pa->act_pending)
		pa->act.start = now;
}

/* Keep @a among t's records: all of them up to m->act_keep, then a reservoir as latency_hook. */
static void keep_activation(struct sim_machine *m, struct mthread *t,
			    const struct sim_activation *a)
{
	struct mact *pa = t->pa;

	if (pa->nacts >= m->act_keep) {
		uint64_t j = mix64(m->seed ^ mix64(((uint64_t)t->tid << 32) ^ pa->acts_done ^
						   0x5a5a000000000000ull)) % pa->acts_done;

		if (j < pa->nacts)
			pa->acts[j] = *a;
		return;
	}
	if (pa->nacts == pa->capacts && UTIL_GROW(pa->acts, pa->capacts, pa->nacts + 1)) {
		machine__fail(m, -ENOMEM);
		return;
	}
	pa->acts[pa->nacts++] = *a;
}

/*
 * The activation under way (t->pa, which exists) ends now with @slack and @missed periods:
 * counted and kept.
 */
static void activation_close(struct sim_machine *m, struct mthread *t, int64_t slack,
			     uint64_t missed)
{
	uint64_t now = sim_now(&m->eng);
	struct mact *pa = t->pa;
	struct sim_activation *a = &pa->act;

	a->end = now;
	a->run = sched_thread_exec(m->s, t->tid, now) - pa->act_exec0;
	a->slack = slack;
	a->missed = missed;
	if (pa->act_pending)	/* never ran: it cannot have ended, but keep the record whole */
		a->start = now;
	pa->acts_done++;
	pa->acts_overrun += a->slack <= 0;
	pa->acts_missed += a->missed;
	if (pa->acts_done == 1 || a->slack < pa->slack_min)
		pa->slack_min = a->slack;
	pa->slack_sum += a->slack;
	keep_activation(m, t, a);
}

/*
 * The activation under way ends now. Its slack counts to the start of the next period; the
 * periods missed are those, after its own, that began after it began and ended by now.
 */
void machine__activation_end(struct sim_machine *m, struct mthread *t)
{
	uint64_t now = sim_now(&m->eng), p = t->b->period_ns, first, last;
	struct sim_activation *a;

	if (!t->pa)
		return;		/* none began: its allocation failed, and so did the run */
	a = &t->pa->act;

	first = (a->wakeup - a->period_start) / p + 1;	/* the first period after it began */
	last = (now - a->period_start) / p;		/* periods 1 .. last - 1 ended by now */
	activation_close(m, t, (int64_t)(a->period_start + p) - (int64_t)now,
			 last > first ? last - first : 0);
}

/*
 * rt-app's view of a timer step (its log line per loop): the activation under way (the first
 * one from the thread's start) ends at the timer with slack = the expiry @due less now, and
 * the periods of @period that passed whole after @due missed; the next begins at @due when
 * the thread sleeps until it, at once when it does not.
 */
void machine__timer_activation(struct sim_machine *m, struct mthread *t, uint64_t due,
			       uint64_t period, bool sleeps)
{
	uint64_t now = sim_now(&m->eng), exec = sched_thread_exec(m->s, t->tid, now);
	struct mact *pa = activations(m, t);

	if (!pa)
		return;
	if (!pa->act_open) {
		pa->act = (struct sim_activation){ .idx = pa->next_idx++,
						   .period_start = t->t_first,
						   .wakeup = t->t_first, .start = t->t_first };
		pa->act_exec0 = 0;
		pa->act_pending = false;
		pa->act_open = true;
	}
	activation_close(m, t, (int64_t)due - (int64_t)now,
			 now > due && period ? (now - due) / period : 0);
	pa->act = (struct sim_activation){ .idx = pa->next_idx++, .period_start = due,
					   .wakeup = sleeps ? due : now };
	pa->act_exec0 = exec;
	pa->act_pending = sleeps;
	if (!sleeps)
		pa->act.start = now;
}

void sim_machine_set_activation_keep(struct sim_machine *m, size_t keep)
{
	m->act_keep = keep ? keep : 1;
}

int sim_machine_set_session(struct sim_machine *m, int tid, int session, int nice)
{
	struct mthread *t = machine__mt(m, tid);
	struct msession *ss;

	if (!t || !t->alive)
		return -ENOENT;
	if (nice < SCHED_NICE_MIN || nice > SCHED_NICE_MAX)
		return -EINVAL;
	ss = machine__session_get(m, session, nice);	/* a new session gets @nice */
	if (!ss)
		return -ENOMEM;
	if (ss->nice != nice) {
		if (ss->sid >= 0)
			return -EBUSY;	/* autogroup_set_nice() after use is not modelled */
		ss->nice = nice;
	}
	t->session = session;
	return m->autogroup ? machine__retarget(m, t, sim_now(&m->eng)) : 0;
}

int sim_machine_set_noise(struct sim_machine *m, const struct sim_wakeup_noise *noise)
{
	if (m->threads_set)
		return -EBUSY;
	if (sim_dist_validate(&noise->timer) || sim_dist_validate(&noise->idle_exit) ||
	    !(noise->steal >= 0 && noise->steal <= 0.5) ||
	    (noise->steal > 0 && (noise->steal_period_ns < 1000000 ||
				  noise->steal_period_ns > 1000000000)))
		return -EINVAL;
	m->noise = *noise;
	m->steal_ns = (uint64_t)(noise->steal * (double)noise->steal_period_ns + 0.5);
	/* each CPU's turns at a phase of its own, from the seed alone */
	for (int c = 0; noise->steal > 0 && c < m->ncpu; c++)
		machine__arm(m, &m->cpu[c].steal_ev,
			     mix64(m->seed ^ 0x737465616cull ^ (uint64_t)c) % noise->steal_period_ns);
	m->phase_ns = (noise->tick_phase ? mix64(m->seed ^ 0x7068617365ull) : noise->phase_ns) %
		      m->tick_ns;
	m->has_noise = sim_dist_mean(&noise->timer) > 0 || sim_dist_mean(&noise->idle_exit) > 0 ||
		       noise->timer.b > 0 || noise->idle_exit.b > 0;
	return 0;
}

int sim_machine_set_autogroup(struct sim_machine *m, bool on)
{
	m->autogroup = on;
	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];
		int e;

		if (t && t->alive && (e = machine__retarget(m, t, sim_now(&m->eng))))
			return e;
	}
	machine__sync(m);
	return m->err;
}

void sim_machine_set_latency_keep(struct sim_machine *m, size_t keep)
{
	m->lat_keep = keep ? keep : 1;
}

/*
 * The task groups and threads the hierarchy @h holds already: parents have smaller ids (they
 * were created first), the root is 0. 0 or a negative errno.
 */
static int adopt_layout(struct sim_machine *m, struct cg_hier *h)
{
	int maxcg = cg_cgroup_max_id(h), maxtid = cg_thread_max_id(h), e;

	if (machine__ensure_cg(m, maxcg))
		return -ENOMEM;
	if (machine__sid_reserve(m, 0))
		return -ENOMEM;
	m->sid_of_cg[0] = 0;
	m->next_sid = 1;
	for (int cg = 1; cg < maxcg; cg++) {
		if (!cg_cgroup_alive(h, cg) || !cg_is_tg(h, cg))
			continue;
		if ((e = machine__tg_add(m, cg, cg_tg_parent(h, cg), 0)))
			return e;
	}
	for (int tid = 1; tid < maxtid; tid++)
		if (cg_thread_alive(h, tid) && !machine__thread_add(m, tid, 0))
			return -ENOMEM;
	return 0;
}

struct sim_machine *sim_machine_new(const struct sched_config *cfg, struct cg_hier *h,
				    uint64_t seed, int *err)
{
	struct sim_machine *m = calloc(1, sizeof(*m));
	int e = -ENOMEM;

	if (!m)
		goto out;
	sim_engine_init(&m->eng);
	m->h = h;
	m->seed = seed;
	m->ncpu = cfg->machine.cpus;
	m->tick_ns = 1000000000ull / (cfg->tun.hz ? cfg->tun.hz : 1);
	m->lat_keep = 1u << 20;
	m->act_keep = 1u << 16;
	{
		/* the balancer's timing jitter draws from the scenario's seed too */
		struct sched_config c = *cfg;

		c.seed = seed;
		m->s = sched_new(&c);
	}
	if (!m->s) {
		e = -EINVAL;
		goto fail;
	}
	sched_set_latency_hook(m->s, latency_hook, m);
	sched_set_wait_hook(m->s, wait_hook, m);
	/* the hierarchy's cpusets are of this machine */
	e = cg_set_nr_cpus(h, cfg->machine.cpus);
	if (e)
		goto fail;
	e = -ENOMEM;
	m->cpu = calloc((size_t)m->ncpu, sizeof(*m->cpu));
	if (!m->cpu)
		goto fail;
	for (int c = 0; c < m->ncpu; c++) {
		m->cpu[c].m = m;
		m->cpu[c].id = c;
		m->cpu[c].tid = -1;
		sim_event_init(&m->cpu[c].ev, machine__cpu_event);
		sim_event_init(&m->cpu[c].steal_ev, machine__steal_event);
	}
	sim_event_init(&m->tick_ev, machine__tick_event);
	if ((e = adopt_layout(m, h)))
		goto fail;
	e = -ENOMEM;
	cg_set_observer(h, machine__observe, m);
	cg_set_stat_provider(h, machine__stat_provider, m);
	/* cpusets of the layout as it is */
	for (int tid = 1; tid < m->nthr; tid++)
		if (m->thr[tid] && (e = machine__apply_cpus(m, m->thr[tid], 0)))
			goto fail;
	return m;
fail:
	sim_machine_free(m);
	m = NULL;
out:
	if (err)
		*err = e;
	return m;
}

void sim_machine_set_trace(struct sim_machine *m, struct trace *tr)
{
	m->trace = tr;
	sched_set_trace_hook(m->s, tr ? trace_sched : NULL, tr);
}

void sim_machine_free(struct sim_machine *m)
{
	if (!m)
		return;
	if (m->h) {
		cg_set_observer(m->h, NULL, NULL);
		cg_set_stat_provider(m->h, NULL, NULL);
	}
	/* the engine marks its pending events idle: release it while they still exist */
	sim_engine_release(&m->eng);
	for (int i = 0; i < m->nthr; i++) {
		struct mthread *t = m->thr[i];

		if (!t)
			continue;
		free(t->affinity);
		free(t->repeats);
		free(t->timers);
		free(t->lat);
		if (t->pa)
			free(t->pa->acts);
		free(t->pa);
		free(t);
	}
	free(m->thr);
	for (size_t i = 0; i < m->nbehav; i++) {
		free((void *)m->behav[i]->phases);
		free(m->behav[i]);
	}
	free(m->behav);
	free(m->ran);
	machine__steps_free(m);
	free(m->cpu);
	free(m->cg_cpu);
	free(m->cg_total);
	free(m->sid_of_cg);
	free(m->sessions);
	util_imap_free(&m->session_ix);
	sched_free(m->s);
	free(m);
}

const struct sim_behavior machine__no_behavior = { .kind = SIM_BEHAV_NONE };

/* The same double to the bit (== would take -0.0 for 0.0). */
static bool same_bits(double x, double y)
{
	uint64_t a, b;

	memcpy(&a, &x, sizeof(a));
	memcpy(&b, &y, sizeof(b));
	return a == b;
}

static bool same_dist(const struct sim_dist *x, const struct sim_dist *y)
{
	return x->kind == y->kind && same_bits(x->a, y->a) && same_bits(x->b, y->b);
}

/* The phases a behaviour has: only a phases behaviour's count, whatever the others carry. */
static size_t nphases_of(const struct sim_behavior *b)
{
	return b->kind == SIM_BEHAV_PHASES ? b->nphases : 0;
}

static bool same_phase(const struct sim_phase *x, const struct sim_phase *y)
{
	return x->kind == y->kind && same_dist(&x->d, &y->d) && x->ns == y->ns &&
	       x->obj == y->obj && x->obj2 == y->obj2 && x->count == y->count &&
	       x->flags == y->flags;
}

/*
 * Is @b equal to @have (a copy made by share_behavior())? Field by field, the caller's
 * padding bytes being no part of it; masks and paths by address, as the caller keeps them
 * for the run's life.
 */
static bool same_behavior(const struct sim_behavior *have, const struct sim_behavior *b)
{
	if (have->kind != b->kind || !same_dist(&have->run, &b->run) ||
	    !same_dist(&have->sleep, &b->sleep) || have->period_ns != b->period_ns ||
	    nphases_of(have) != nphases_of(b) || have->loops != b->loops ||
	    have->masks != b->masks || have->nmasks != b->nmasks || have->paths != b->paths ||
	    have->npaths != b->npaths)
		return false;
	for (size_t i = 0; i < nphases_of(b); i++)
		if (!same_phase(&have->phases[i], &b->phases[i]))
			return false;
	return true;
}

/*
 * The machine's copy of @b, phases included: the last one made when @b equals it (threads
 * of one spec come one after another), else a new one. The copies live as long as the
 * machine; a copy's phases are never written.
 */
static const struct sim_behavior *share_behavior(struct sim_machine *m,
						 const struct sim_behavior *b)
{
	struct sim_behavior *c;
	struct sim_phase *ph = NULL;
	size_t n = nphases_of(b);

	if (m->nbehav && same_behavior(m->behav[m->nbehav - 1], b))
		return m->behav[m->nbehav - 1];
	if (m->nbehav == m->capbehav) {
		size_t cap = m->capbehav ? 2 * m->capbehav : 4;
		struct sim_behavior **grown = realloc(m->behav, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		m->behav = grown;
		m->capbehav = cap;
	}
	if (n && !(ph = malloc(n * sizeof(*ph))))
		return NULL;
	if (!(c = malloc(sizeof(*c)))) {
		free(ph);
		return NULL;
	}
	*c = *b;
	if (ph)
		memcpy(ph, b->phases, n * sizeof(*ph));
	c->phases = ph;
	c->nphases = n;
	m->behav[m->nbehav++] = c;
	return c;
}

/*
 * Behaviour @b is one the machine can run: a known kind, valid distributions, a period, and
 * phases whose repeats go back to an earlier step.
 */
static bool behavior_valid(const struct sim_behavior *b)
{
	switch (b->kind) {
	case SIM_BEHAV_PERIODIC:
		return b->period_ns && !sim_dist_validate(&b->run);
	case SIM_BEHAV_BURSTY:
		return !sim_dist_validate(&b->run) && !sim_dist_validate(&b->sleep);
	case SIM_BEHAV_PHASES:
		if (!b->nphases || !b->phases)
			return false;
		for (size_t i = 0; i < b->nphases; i++)
			if (sim_dist_validate(&b->phases[i].d) ||
			    (b->phases[i].kind == SIM_STEP_REPEAT && (b->phases[i].obj < 0 ||
			     (size_t)b->phases[i].obj > i)))
				return false;
		return true;
	case SIM_BEHAV_NONE:
	case SIM_BEHAV_BUSY:
		return true;
	default:
		return false;
	}
}

int sim_machine_set_thread(struct sim_machine *m, int tid, const struct sim_thread_spec *spec)
{
	struct mthread *t = machine__mt(m, tid);
	const struct sim_behavior *b = &spec->behavior, *shared;
	uint64_t now = sim_now(&m->eng);
	int err;

	if (!t || !t->alive)
		return -ENOENT;
	if (t->has_spec)
		return -EBUSY;
	if (spec->nice < SCHED_NICE_MIN || spec->nice > SCHED_NICE_MAX)
		return -EINVAL;
	if (!behavior_valid(b))
		return -EINVAL;
	/* the noise: a family of streams apart from the behaviours' (same index, another seed) */
	if ((err = sim_rng_init(&t->rng, m->seed, spec->stream)) ||
	    (m->has_noise && (err = sim_rng_init(&t->noise, m->seed ^ 0x6e6f697365ull, spec->stream))))
		return err;
	shared = share_behavior(m, b);
	if (!shared)
		return -ENOMEM;
	t->b = shared;
	if (b->kind == SIM_BEHAV_PHASES) {
		for (size_t i = 0; i < b->nphases && !t->repeats; i++)
			if (b->phases[i].kind == SIM_STEP_REPEAT &&
			    !(t->repeats = calloc(b->nphases, sizeof(*t->repeats))))
				return -ENOMEM;
	}
	m->threads_set = true;
	t->noise_ready = m->has_noise;
	t->nice = spec->nice;
	t->policy = spec->policy;
	t->slice_ns = spec->slice_ns;
	t->stop_ns = spec->stop_ns;
	t->has_spec = true;
	err = sched_thread_set_nice(m->s, tid, spec->nice, now);
	if (!err && spec->policy != SCHED_THREAD_NORMAL)
		err = sched_thread_set_policy(m->s, tid, spec->policy, now);
	if (!err && spec->affinity) {
		uint64_t *aff = machine__affinity(t);

		if (!aff)
			return -ENOMEM;
		memset(aff, 0, M_AFFINITY_WORDS * sizeof(*aff));
		for (size_t w = 0; w < spec->affinity_words && w < M_AFFINITY_WORDS; w++)
			aff[w] = spec->affinity[w];
		t->has_affinity = true;
	}
	if (!err)
		err = machine__apply_cpus(m, t, now);
	if (!err && spec->slice_ns)
		err = sched_thread_set_slice(m->s, tid, spec->slice_ns, now);
	if (err)
		return err;
	if (b->kind != SIM_BEHAV_NONE) {
		uint64_t start = spec->start_ns > now ? spec->start_ns : now;

		t->t_first = machine__later(start, m->phase_ns);
		machine__arm(m, &t->ev, t->t_first);
	}
	machine__sync(m);
	return m->err;
}

int sim_machine_run_until(struct sim_machine *m, uint64_t t)
{
	int err;

	if (m->err)
		return m->err;
	err = sim_run_until(&m->eng, t);
	if (m->err)
		return m->err;
	if (err)
		return err;
	sched_advance(m->s, t);
	machine__sync(m);
	return m->err;
}

void sim_machine_set_event_limit(struct sim_machine *m, uint64_t max)
{
	sim_engine_set_limit(&m->eng, max);
}

uint64_t sim_machine_now(const struct sim_machine *m)
{
	return sim_now(&m->eng);
}

struct sched *sim_machine_sched(struct sim_machine *m)
{
	return m->s;
}
