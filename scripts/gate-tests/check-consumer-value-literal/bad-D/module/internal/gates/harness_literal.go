package gates

func checkHarnessLiteral() []string {
	return []string{"## Done", `Release notes`, helper()}
}
