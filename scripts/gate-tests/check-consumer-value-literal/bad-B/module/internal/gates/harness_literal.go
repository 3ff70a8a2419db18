package gates

import "example.com/fixture/internal/paths"

func checkHarnessLiteral() string { return paths.Queue + helper() }
