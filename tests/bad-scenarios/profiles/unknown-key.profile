cgsim-costs: 1
costs: { switch: 1us, wakeup: 0.5us, sleep: 0.3us, tick: 0.4us, level: 13ns, walk: 8ns }
sweep: 3
