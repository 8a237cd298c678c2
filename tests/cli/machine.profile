# A cost profile as cgsim calibrate --live --profile writes it (tests/cli/profile.yaml)
cgsim-costs: 1
costs: { switch: 2us, wakeup: 1us, sleep: 0.5us, tick: 1us, level: 20ns, walk: 10ns }
measured: { kernel: "6.18.44", cpu: "test", date: "2026-12-05" }
