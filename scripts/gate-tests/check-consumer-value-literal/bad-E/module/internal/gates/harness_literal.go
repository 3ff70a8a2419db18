package gates

// consumer-value-exempt:
func checkHarnessLiteral() string { return "exec" + helper() }
