cgsim-costs: 1
costs: { switch: 1us, level: 200us }
