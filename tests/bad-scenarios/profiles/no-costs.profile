cgsim-costs: 1
measured: { kernel: 6.18 }
