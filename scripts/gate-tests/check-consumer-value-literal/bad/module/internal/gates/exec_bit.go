package gates

func checkExecBit() string { return "exec bit" }
