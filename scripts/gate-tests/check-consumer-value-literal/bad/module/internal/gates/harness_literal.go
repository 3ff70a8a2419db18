package gates

import "example.com/fixture/internal/paths"

const queueFile = "docs/" + "queue.md"

var notes = "## Release notes"

// consumer-value-exempt:
var done = paths.Base + "/" // a directory, spelled with its slash

func checkHarnessLiteral() []string { return []string{queueFile, notes, done, helper(), paths.Notes} }
