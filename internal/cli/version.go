package cli

import "strings"

// release is the release this binary was built as: the tag the build's
// commit carries, baked in with -ldflags -X by the Makefile (a commit with
// no tag of its own, and a plain `go build`, leave it "devel").
var release = "devel"

// releaseName answers the release, "devel" when the build baked in none.
func releaseName() string {
	if r := strings.TrimSpace(release); r != "" {
		return r
	}
	return "devel"
}

// versionLine is what --version prints: the release and the source stamp.
func versionLine() string {
	return "gates " + releaseName() + " (source stamp " + versionStamp() + ")"
}

// toolVersion is the version machine documents carry (SARIF's
// tool.driver.version): the release with the stamp as its build metadata.
func toolVersion() string {
	return releaseName() + "+" + versionStamp()
}
