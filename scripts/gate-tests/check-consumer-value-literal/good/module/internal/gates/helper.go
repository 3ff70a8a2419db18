package gates

func helper() string {
	return `Release` + " notes" // consumer-value-exempt: the helper's declared heading text
}
