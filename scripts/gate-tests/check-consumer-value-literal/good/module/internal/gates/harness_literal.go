package gates

import (
	"example.com/fixture/internal/knob"
	"example.com/fixture/internal/paths"
	"example.com/fixture/internal/walk"
)

// consumer-value-exempt: the fixture's declared site, on the line above
const queueFile = "docs/" + "queue.md"

var notes = "## Release notes" // consumer-value-exempt: declared on its own line

// Values that name nothing the case tracks or heads.
var others = []string{"Done", "docs/missing.md", "Fenced heading", "queue.md", "./", paths.Base + "/absent.md", knob.QueueFile, walk.Root}

func checkHarnessLiteral() []string { return append(others, queueFile, notes, helper()) }
