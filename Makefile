# cgsim — a discrete-event simulator of the Linux fair scheduler and the cgroup hierarchy.
#
#   make            build ./cgsim
#   make test       install missing packages, build, run every test but the unit tests, then
#                   every check under -fsanitize=address,undefined (the unit tests' one run;
#                   the long simulation suites shortened, TESTS_QUICK), then the fuzzers'
#                   regression inputs and a brief fixed-seed run of each (fuzz-ci); each step
#                   timed (tests/README.md)
#   make check      build and run every test once (the fast suite, no packages installed)
#   make fuzz       run each libFuzzer target for FUZZ_TIME seconds (default 600; docs/fuzzing.md)
#   make demo       install missing packages, build, run the headline comparison
#   make bench      build and run the benchmarks in bench/
#   make memcheck   run the .cgs cases and the unit tests under valgrind
#   make deps       install the Debian packages cgsim needs (apt-get; sudo when not root)
#   make install PREFIX=/usr/local     make uninstall PREFIX=/usr/local     make clean
#
# Switches: SANITIZE=address,undefined builds into BUILD (default build/, build/san/ for the
# sanitizer pass); OPT overrides the optimisation flags; CFLAGS, CPPFLAGS and LDFLAGS add to
# the project's. A change of CC or of any flag rebuilds everything ($(BUILD)/flags).

.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: all test check check-commits check-unit check-cases check-scenarios check-kernel check-bad check-cli check-trace check-rtapp check-scale check-vm fuzz fuzz-build fuzz-seeds fuzz-regressions fuzz-ci demo bench deps install uninstall clean memcheck

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
# Link-time optimisation: the scheduler's hot paths cross its modules (account, queue, tick,
# the policy's ops), and inlining across them makes a flat run about 17 % faster, -O3 another
# 7-9 % (docs/scheduler.md, "Speed"). Same arithmetic, same output bytes.
OPT      ?= -O3 -g -flto=auto
SANITIZE ?=
BUILD    ?= build

PKGS     := gsl yaml-0.1 json-c
# clang and libclang-rt-dev (libFuzzer and the sanitizers' runtimes, only recommended by clang)
# build the fuzzers; GNU parallel runs the scale-out recipes' test (docs/scale-out.md); QEMU and
# a static busybox boot the guests of validate --vm and cgroupfs --vm (docs/vm.md), whose kernel
# the first such run fetches into ~/.cache/cgsim (or `cgsim validate --fetch-kernel`).
DEB_PKGS := libgsl-dev libyaml-dev libjson-c-dev libcriterion-dev gnuplot-nox pkg-config clang libclang-rt-dev \
            help2man parallel qemu-system-x86 busybox-static

WARN := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wdouble-promotion -Wvla -Wwrite-strings -fno-common
# Warnings are errors in `make test` (and so in CI), which sets WERROR=-Werror for every build
# it makes; a user's plain `make` warns but builds, whatever compiler or OPT they bring.
WERROR   ?=
# Recursive (=) on purpose: pkg-config runs when a recipe needs the flags, which is after
# `make deps` has installed the packages.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
CRIT_CFLAGS = $(shell pkg-config --cflags criterion)
CRIT_LIBS   = $(shell pkg-config --libs criterion)

ifneq ($(SANITIZE),)
SANFLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT      := -O1 -g
endif

# override: CFLAGS=... on the command line adds to these instead of replacing them.
override CPPFLAGS += -I. -D_POSIX_C_SOURCE=200809L
override CFLAGS   += $(OPT) $(WARN) $(WERROR) $(SANFLAGS) -pthread -MMD -MP
override LDFLAGS  += $(SANFLAGS) -pthread

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# What a build's objects depend on besides their sources: the compiler and its flags, kept in
# $(BUILD)/flags and rewritten only when they change, so that `make OPT=-O0` (or CC=, CFLAGS=,
# CPPFLAGS=, SANITIZE=) after `make` rebuilds everything and a plain `make` again rebuilds back.
# Simply expanded here, before any target-specific flag, so that every object sees one line.
BUILD_FLAGS := $(CC) | $(CPPFLAGS) | $(CFLAGS) | $(LDFLAGS) | $(PREFIX)

LIB_SRC   := $(sort $(wildcard cgroup/*.c scheduler/*.c sim/*/*.c))
LIB_SRC   := $(filter-out sim/cli/main.c,$(LIB_SRC))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ  := $(BUILD)/obj/sim/cli/main.o
UNIT_SRC  := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJ  := $(UNIT_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

LIB       := $(BUILD)/libcgsim.a
UNIT_BIN  := $(BUILD)/tests/unit-tests
# The normal build puts the program at ./cgsim, the sanitizer build inside its build tree.
BIN       := $(if $(SANITIZE),$(BUILD)/cgsim,cgsim)

all: $(BIN)

$(BIN): $(MAIN_OBJ) $(LIB) $(BUILD)/flags
	$(CC) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(LIB) $(PKG_LIBS) -lm

# The version string reaches only main.c, through a header rewritten when the version changes.
$(BUILD)/version.h: FORCE
	@mkdir -p $(@D)
	@v='#define CGSIM_VERSION "$(VERSION)"'; [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@
# compare -o DIR looks for the gnuplot scripts in the install's data directory too.
$(BUILD)/obj/sim/study/figures.o: override CPPFLAGS += -DCGSIM_DATADIR='"$(PREFIX)/share/cgsim"'
$(MAIN_OBJ): $(BUILD)/version.h
$(MAIN_OBJ): override CPPFLAGS += -include $(BUILD)/version.h
$(BUILD)/flags: FORCE
	@mkdir -p $(@D)
	@f='$(subst ','\'',$(BUILD_FLAGS))'; [ "$$(cat $@ 2>/dev/null)" = "$$f" ] || printf '%s\n' "$$f" > $@
.PHONY: FORCE

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/obj/tests/%.o: tests/%.c Makefile $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CRIT_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: %.c Makefile $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(UNIT_BIN): $(UNIT_OBJ) $(LIB) $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(LIB) $(CRIT_LIBS) $(PKG_LIBS) -lm

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(LIB) $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) -lm

# ---- tests --------------------------------------------------------------------------------

# `make test` is what CI runs (.ci/run): packages first, then every check but the unit tests
# (CHECK_UNIT, below), then the sanitizer pass, the unit tests included, in its own build tree so that the two builds never mix objects, then the fuzzers'
# regression inputs and a brief run of each (fuzz-ci, below; not in check: it needs a clang build).
# Its builds, check's suites and fuzz-ci's targets run TEST_JOBS at a time (unless make itself
# was given -j), each suite's output kept together (--output-sync); check-vm runs alone, its
# guests' shares measured in 6 s windows. The guests' kernels (Debian's 6.12 and 7.3) are
# fetched (on a first run) while check runs. The sanitizer pass runs the simulation suites whose numbers the first pass judged
# in their quick form (TESTS_QUICK, below).
# Each step and each suite says how long it took ("time: NAME S s", tests/lib/timed.sh; "san:"
# in the sanitizer pass), so that CI's log shows where the time goes. Its last lines are the
# slowest steps and one verdict over every suite (tests/lib/verdict.sh); the log is kept in
# $(BUILD)/test.log.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: deps
	@mkdir -p $(BUILD)
	@j=-j$(TEST_JOBS); case " $$MAKEFLAGS" in *" -j"* | *jobserver*) j= ;; esac; \
	 m="$(MAKE) --no-print-directory --output-sync=target WERROR=-Werror $$j"; \
	 s="SANITIZE=address,undefined BUILD=build/san"; \
	 { tests/lib/timed.sh build $$m all && \
	   { tests/lib/timed.sh kernel-fetch sh -c './$(BIN) validate --fetch-kernel && \
	       ./$(BIN) validate --fetch-kernel --kernel-version 7.3' \
	       > $(BUILD)/kernel-fetch.log 2>&1 & } && \
	   { tests/lib/timed.sh check $$m CHECK_UNIT= check; st=$$?; wait; cat $(BUILD)/kernel-fetch.log; \
	     [ $$st -eq 0 ]; } && \
	   tests/lib/timed.sh check-vm $$m -j1 check-vm && \
	   tests/lib/timed.sh san:build $$m $$s all build/san/tests/unit-tests && \
	   tests/lib/timed.sh san:check $$m $$s check && \
	   tests/lib/timed.sh fuzz-ci $$m fuzz-ci; \
	   echo $$? > $(BUILD)/test.status; } 2>&1 | tee $(BUILD)/test.log
	@tests/lib/verdict.sh $(BUILD)/test.log "$$(cat $(BUILD)/test.status)"

# A suite's command, timed: "time: check-NAME S s" after its output, "san:check-NAME" in the
# sanitizer pass; a target of several suites names each ($(TIME)/what).
TIME = tests/lib/timed.sh $(if $(SANITIZE),san:)$@

# TESTS_QUICK=1, the default under the sanitizers: the suites that judge the simulation's numbers
# over many long runs (check-kernel's 32 seeds of 14 layouts, each 20 s; the traces read back of
# every scenario) run few and short ones, and judge only what holds for any run (that it runs,
# and a trace's agreement with its report): the sanitizers look for memory errors and undefined
# behaviour, which the same code paths show in a short run, and the first pass has judged the
# numbers. The unit tests, .cgs cases, bad scenarios, the CLI's contract, the scenarios'
# expectations, replays and scale-out run in full. TESTS_QUICK=0 runs everything in full.
TESTS_QUICK ?= $(if $(SANITIZE),1,0)
export TESTS_QUICK

# make test runs the unit tests once, in the sanitizer pass (CHECK_UNIT= in the first): what they
# assert does not depend on the optimisation level, and their -O3 LTO link alone took 46 s of
# make test's ten minutes (2 CPUs), where the suites that run the -O3 program users run stay in
# the first pass. make check runs them here.
CHECK_UNIT ?= check-unit
check: $(CHECK_UNIT) check-cases check-scenarios check-kernel check-bad check-cli check-trace \
       check-rtapp check-scale $(if $(SANITIZE),,check-commits)

check-unit: $(UNIT_BIN)
	$(TIME) $(UNIT_BIN) --jobs 2

# Commit subjects since the rule began: `area: imperative summary`, one prefix per room
# (CONTRIBUTING.md, "Commits"). Once, not again in the sanitizer pass: it runs no code of ours.
check-commits:
	@tests/lib/commit-subjects.sh

check-cases: $(BIN)
	$(TIME) tests/cgroupfs/run.sh ./$(BIN) tests/cgroupfs

# Every scenario's expect: entries (docs/scenario-format.md).
check-scenarios: $(BIN)
	$(TIME) ./$(BIN) check scenarios/*.yaml

# Shares of two-CPU layouts against a running 6.18 kernel's recorded answers (no kernel needed);
# a layout's 32 seeds run side by side.
check-kernel: $(BIN)
	$(TIME) tests/kernel/run.sh ./$(BIN) tests/kernel/smp-shares-6.18.txt

# The command line's contract: exit statuses, -o DIR, --json, check's exit status.
check-cli: $(BIN)
	$(TIME) tests/cli/run.sh ./$(BIN)

# compare --jobs N, --shard I/N and merge give the bytes of one process; the docs' GNU parallel
# and Slurm recipes (docs/scale-out.md).
check-scale: $(BIN)
	$(TIME) tests/scale-out/run.sh ./$(BIN)

# Every scenario's trace read back against its report (docs/trace.md), read by cgsim
# trace-stats, and replayed in its own layout (docs/replay.md; layouts whose processes keep
# their threads in one cgroup and name no affinity or policy, which a trace does not carry);
# a kernel's traces of one run, by two recorders, read and replayed (tests/replay/).
check-trace: $(BIN)
	$(TIME)/trace tests/trace/run.sh ./$(BIN) scenarios/*.yaml
	$(TIME)/stats tests/trace/run-stats.sh ./$(BIN) scenarios/*.yaml tests/rtapp/cases/*.yaml
	$(TIME)/replay tests/replay/run.sh ./$(BIN) $(REPLAY_SCENARIOS:%=scenarios/%.yaml)
	$(TIME)/replay-kernel tests/replay/run-kernel.sh ./$(BIN)
	$(TIME)/replay-chained tests/replay/run-chained.sh ./$(BIN)
	$(TIME)/replay-sleeps tests/replay/run-sleeps.sh ./$(BIN)

REPLAY_SCENARIOS := lat-hogs4 lat-idle smp-depth-bursty smp-quota-multi smp-nice-three \
	nested-weights zijlstra-root-vm

# rt-app workloads (docs/rt-app.md): Debian's examples each run with their notes or are refused
# with their message; small cases whose shares and latencies follow from rt-app's semantics.
check-rtapp: $(BIN)
	$(TIME)/debian tests/rtapp/run.sh ./$(BIN) tests/rtapp/debian
	$(TIME)/cases ./$(BIN) check tests/rtapp/cases/*.yaml
	$(TIME)/trace tests/trace/run.sh ./$(BIN) tests/rtapp/cases/*.yaml tests/rtapp/trace/*.yaml

# Real kernels under QEMU (docs/vm.md): shares against the layouts' rules, a guest's domains, the
# thread-mode tour at a cgroup2 root with the threaded controllers, Linux 7.3 in two
# cgroup_modes. In make test once (two to three minutes), not in check: it boots eight guests.
check-vm: $(BIN)
	$(TIME) tests/vm/run.sh ./$(BIN)

# Malformed scenarios: one exact message each, exit status 2, no output, no -o directory.
check-bad: $(BIN)
	$(TIME) tests/bad-scenarios/run.sh ./$(BIN) tests/bad-scenarios

# Criterion runs each test in a child process whose valgrind errors do not change the exit
# status, so every process logs to a file and any error or leak found there fails the target.
# Then compare's workers (valgrind follows a fork without --trace-children), shards and merge.
memcheck: $(BIN) $(UNIT_BIN)
	rm -rf $(BUILD)/memcheck && mkdir -p $(BUILD)/memcheck
	VALGRIND="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all" \
	    tests/cgroupfs/run.sh ./$(BIN) tests/cgroupfs
	valgrind -q --leak-check=full --errors-for-leak-kinds=all --trace-children=yes \
	    --log-file=$(BUILD)/memcheck/unit.%p.log $(UNIT_BIN) --jobs 1
	for a in "--seeds 2 --jobs 2" "--shard 1/2 -o $(BUILD)/memcheck/s1" \
	         "--shard 2/2 --jobs 2 -o $(BUILD)/memcheck/s2"; do \
	    valgrind -q --leak-check=full --errors-for-leak-kinds=all \
	        --log-file=$(BUILD)/memcheck/compare.%p.log \
	        ./$(BIN) compare scenarios/bursty-mix.yaml $$a > /dev/null || exit 1; done
	valgrind -q --leak-check=full --errors-for-leak-kinds=all \
	    --log-file=$(BUILD)/memcheck/merge.%p.log \
	    ./$(BIN) merge $(BUILD)/memcheck/s1 $(BUILD)/memcheck/s2 > /dev/null
	@if grep -l . $(BUILD)/memcheck/*.log >/dev/null 2>&1; then \
	    grep -h . $(BUILD)/memcheck/*.log; echo "memcheck: valgrind reported errors"; exit 1; fi
	@echo "memcheck: clean"

# ---- fuzzing (docs/fuzzing.md) ------------------------------------------------------------

# libFuzzer targets in their own build tree, compiled by clang with the fuzzer's coverage
# instrumentation and ASan/UBSan, so that they never mix objects with build/ or build/san/.
FUZZ_TARGETS := fuzz_scenario fuzz_cgs fuzz_set fuzz_runio fuzz_trace
FUZZ_BUILD   := build/fuzz
FUZZ_CC      ?= clang
FUZZ_TIME    ?= 600
FUZZ_FLAGS   := -max_len=65536 -timeout=20 -rss_limit_mb=4096 -print_final_stats=1
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/bin/%)
# The brief run of `make test`: a fixed seed and number of inputs from the seeds alone, about
# twenty seconds each here (a scenario's run costs more than a script's).
FUZZ_CI_RUNS_fuzz_scenario ?= 6000
FUZZ_CI_RUNS_fuzz_cgs      ?= 8000
FUZZ_CI_RUNS_fuzz_set      ?= 20000
FUZZ_CI_RUNS_fuzz_runio    ?= 100000
FUZZ_CI_RUNS_fuzz_trace    ?= 100000

# Inside the fuzz build the library and the targets' objects get -fsanitize=fuzzer-no-link,...;
# only the link brings in libFuzzer's main.
$(BUILD)/bin/fuzz_%: $(BUILD)/obj/fuzz/fuzz_%.o $(LIB) $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(subst fuzzer-no-link,fuzzer,$(LDFLAGS)) -o $@ $< $(LIB) $(PKG_LIBS) -lm

fuzz-build:
	$(TIME) $(MAKE) --no-print-directory CC=$(FUZZ_CC) SANITIZE=fuzzer-no-link,address,undefined \
	    BUILD=$(FUZZ_BUILD) $(FUZZ_BINS)

# Seed corpora, copied from the tests at fuzz time (never duplicated in git): scenarios for
# fuzz_scenario, .cgs scripts for fuzz_cgs, fuzz/set.seeds (one input a line, its --set
# strings separated by tabs, NUL bytes in the input) for fuzz_set, the run files of shards of
# four scenarios, cut to 0.3 s (made by ./cgsim), for fuzz_runio; traces of three scenarios
# cut to 0.3 s, for fuzz_trace.
fuzz-seeds: $(BIN)
	rm -rf $(FUZZ_BUILD)/seeds && mkdir -p $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/seeds/%)
	cp scenarios/*.yaml tests/bad-scenarios/*.yaml tests/cli/*.yaml $(FUZZ_BUILD)/seeds/fuzz_scenario/
	for f in scenarios/*.json tests/bad-scenarios/*.json tests/rtapp/*/*.json; do \
	    cp "$$f" "$(FUZZ_BUILD)/seeds/fuzz_scenario/$$(echo "$$f" | tr / _)"; done
	find tests/cgroupfs scenarios -name '*.cgs' | sort | \
	    while read -r f; do cp "$$f" "$(FUZZ_BUILD)/seeds/fuzz_cgs/$$(echo "$$f" | tr / _)"; done
	n=0; grep -v '^#' fuzz/set.seeds | while IFS= read -r l; do \
	    n=$$((n + 1)); printf '%s' "$$l" | tr '\t' '\000' > $(FUZZ_BUILD)/seeds/fuzz_set/seed$$n; done
	for s in zijlstra-root-vm bursty-mix timer-steps cgroup-steps; do \
	    ./$(BIN) compare scenarios/$$s.yaml --set duration=300ms --set warmup=0 --shard 1/1 \
	        -o $(FUZZ_BUILD)/seeds/shard-$$s > /dev/null && \
	    for f in $(FUZZ_BUILD)/seeds/shard-$$s/run-*.txt; do \
	        cp "$$f" "$(FUZZ_BUILD)/seeds/fuzz_runio/$$s-$${f##*/}"; done || exit 1; \
	    rm -rf $(FUZZ_BUILD)/seeds/shard-$$s; done
	for s in sync-mutex smp-duty-mix lat-pin1-slice; do \
	    ./$(BIN) run scenarios/$$s.yaml --set duration=300ms --set warmup=0 \
	        --trace $(FUZZ_BUILD)/seeds/fuzz_trace/$$s.txt > /dev/null || exit 1; done
	for f in tests/replay/*.txt.gz; do b=$${f##*/}; \
	    gzip -dc "$$f" | head -n 400 > $(FUZZ_BUILD)/seeds/fuzz_trace/$${b%.txt.gz}.txt; done

# Every file in fuzz/regressions/TARGET/ once: inputs that once crashed must not again.
fuzz-regressions: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	    set -- fuzz/regressions/$$t/*; [ -e "$$1" ] || continue; \
	    echo "fuzz-regressions: $$t, $$# input(s)"; \
	    $(FUZZ_BUILD)/bin/$$t $(FUZZ_FLAGS) "$$@" >$(FUZZ_BUILD)/$$t-regressions.log 2>&1 || \
	        { cat $(FUZZ_BUILD)/$$t-regressions.log; exit 1; }; \
	done; echo "fuzz-regressions: every input passes"

# What `make test` runs: the regressions, then each target briefly from its seeds alone with a
# fixed seed, in a scratch corpus (reproducible; the long runs keep theirs). One target each,
# fuzz-ci-TARGET, so that make -j runs them side by side: a fixed number of inputs from a fixed
# seed gives the same run whatever else the machine does.
FUZZ_CI := $(FUZZ_TARGETS:%=fuzz-ci-%)
.PHONY: $(FUZZ_CI)
fuzz-ci: $(FUZZ_CI)
$(FUZZ_CI): fuzz-ci-%: fuzz-regressions fuzz-seeds
	@rm -rf $(FUZZ_BUILD)/ci/$* && mkdir -p $(FUZZ_BUILD)/ci/$* $(FUZZ_BUILD)/artifacts/$*
	@echo "fuzz-ci: $*, $(FUZZ_CI_RUNS_$*) inputs"
	@$(TIME) $(FUZZ_BUILD)/bin/$* $(FUZZ_FLAGS) -seed=1 -runs=$(FUZZ_CI_RUNS_$*) -max_total_time=120 \
	    -dict=fuzz/$*.dict -artifact_prefix=$(FUZZ_BUILD)/artifacts/$*/ \
	    $(FUZZ_BUILD)/ci/$* $(FUZZ_BUILD)/seeds/$* >$(FUZZ_BUILD)/$*-ci.log 2>&1 || \
	    { tail -n 60 $(FUZZ_BUILD)/$*-ci.log; exit 1; }
	@grep -h -e 'stat::number_of_executed_units' -e '^time: ' $(FUZZ_BUILD)/$*-ci.log

# The long runs: FUZZ_TIME seconds per target, the corpus kept in build/fuzz/corpus/ from one
# run to the next; a crash is written to build/fuzz/artifacts/TARGET/ (then see docs/fuzzing.md).
fuzz: deps
	$(MAKE) --no-print-directory fuzz-build fuzz-seeds
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts/$$t; \
	    echo "fuzz: $$t for $(FUZZ_TIME) s"; \
	    $(FUZZ_BUILD)/bin/$$t $(FUZZ_FLAGS) -max_total_time=$(FUZZ_TIME) -dict=fuzz/$$t.dict \
	        -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t/ \
	        $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/seeds/$$t || exit 1; \
	done

# ---- demo, bench, deps, install -----------------------------------------------------------

# The headline comparison: Zijlstra's root layout against Heo's interposed one (and autogroup),
# then the same question on Linux 7.2 and 7.3, every cgroup_mode, 2 to 64 CPUs.
demo: deps
	$(MAKE) --no-print-directory all
	./cgsim compare scenarios/zijlstra-root-vm.yaml -o build/demo
	@echo
	./cgsim compare scenarios/kernels-root-vm.yaml -o build/demo/kernels
	@echo
	@echo "tables: build/demo/compare.txt, compare.md, compare.json; per variant CSV files in"
	@echo "build/demo/VARIANT/ (the thread-mode rules behind it: ./cgsim cgroupfs scenarios/thread-mode-tour.cgs)"
	@echo "7.2 against 7.3: build/demo/kernels/compare.txt, sweep.csv, figures/sweep.png"
	@echo "(docs/root-threads-7.3.md explains them)"

# bench_jobs times ./cgsim itself, so the program is built first.
bench: $(BENCH_BIN) $(BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done

# Installs only what is missing, so that a machine set up once is not touched again.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' \
	        || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	    echo "deps: installing$$missing"; \
	    $$sudo apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends $$missing; \
	fi

# The install: the program, its gnuplot scripts and scenario library in the data directory
# (share/cgsim, which the program finds from PREFIX or beside itself), the documentation, a
# manual page made from --help by help2man (make deps installs it), bash completion.
DATA_DIR := $(DESTDIR)$(PREFIX)/share/cgsim
install: all $(BUILD)/cgsim.1 $(BUILD)/cgsim.bash-completion
	install -D -m 0755 cgsim $(DESTDIR)$(PREFIX)/bin/cgsim
	install -D -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/cgsim/README.md
	install -D -m 0644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/cgsim/LICENSE
	for f in docs/*.md; do install -D -m 0644 $$f $(DESTDIR)$(PREFIX)/share/doc/cgsim/$$f; done
	for f in plots/*.gp; do install -D -m 0644 $$f $(DATA_DIR)/$$f; done
	for f in scenarios/*.yaml scenarios/*.json scenarios/*.cgs; do \
	    install -D -m 0644 $$f $(DATA_DIR)/$$f; done
	install -D -m 0644 $(BUILD)/cgsim.1 $(DESTDIR)$(PREFIX)/share/man/man1/cgsim.1
	install -D -m 0644 $(BUILD)/cgsim.bash-completion \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/cgsim

# Exactly what install puts there, and the directories it made once they are empty.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/cgsim $(DESTDIR)$(PREFIX)/share/man/man1/cgsim.1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/cgsim
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/cgsim $(DATA_DIR)
	-cd $(DESTDIR)$(PREFIX) 2>/dev/null && rmdir -p --ignore-fail-on-non-empty bin \
	    share/man/man1 share/bash-completion/completions share/doc 2>/dev/null

# The manual page: help2man from --help and --version, every command's own --help added (the
# commands listed by cgsim --help). Both it and the bash completion come from the program's
# option tables (sim/cli/cli.h), so that neither can drift from the parser.
$(BUILD)/cgsim.1: $(BIN)
	@mkdir -p $(@D)
	help2man --no-info --name='simulate the Linux fair scheduler and the cgroup hierarchy' \
	    --version-string="$$(./$(BIN) --version | cut -d' ' -f2)" ./$(BIN) > $@.tmp
	for c in $$(./$(BIN) --help | sed -n '/^commands:/,/^$$/s/^  \([a-z][a-z]*\) .*/\1/p'); do \
	    printf '.SH "CGSIM %s"\n.nf\n' "$$(echo $$c | tr a-z A-Z)"; \
	    ./$(BIN) $$c --help | sed 's/\\/\\\\/g; s/^\./\\\&./'; printf '.fi\n'; done >> $@.tmp
	mv $@.tmp $@

$(BUILD)/cgsim.bash-completion: $(BIN)
	@mkdir -p $(@D)
	./$(BIN) --bash-completion > $@.tmp
	mv $@.tmp $@

clean:
	rm -rf build cgsim

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
