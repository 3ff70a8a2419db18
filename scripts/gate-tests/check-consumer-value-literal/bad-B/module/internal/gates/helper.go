package gates

func helper() string { return "helper" }
