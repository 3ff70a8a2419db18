// Package gates carries the fixture pairs of every gate compiled into the
// binary and the core kit's templates: the module's top-level gate-tests/
// and templates/ trees, embedded so `gates init` can vendor them into a
// consumer's kit root. It holds data only.
//
// go:embed reaches no file above its own package's directory, which is why
// this embed lives at the module root and not beside the kit's in kits/.
// The files a vendoring writes are the ones kits/gate-sdk.manifest lists
// under gate-tests/ and templates/, never these embeds' own listings.
package gates

import "embed"

// GateTests is the top-level gate-tests/ tree, paths rooted at
// "gate-tests/".
//
//go:embed all:gate-tests
var GateTests embed.FS

// Templates is the top-level templates/ tree, paths rooted at
// "templates/".
//
//go:embed all:templates
var Templates embed.FS
