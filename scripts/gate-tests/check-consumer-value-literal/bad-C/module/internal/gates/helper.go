package gates

func helper() string { return "helper" }

const queueName = "queue.md"
