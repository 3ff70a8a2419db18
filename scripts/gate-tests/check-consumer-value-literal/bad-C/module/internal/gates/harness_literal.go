package gates

import "example.com/fixture/internal/paths"

const queueFile = paths.Base + "/" + queueName

func checkHarnessLiteral() string { return queueFile + helper() }
