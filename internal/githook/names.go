package githook

import (
	"runtime"
	"strings"
)

// The served hooks. The set is closed: these are the names the --git-hook
// arm takes and the files --install-hooks places. pre-merge-commit is git's
// pre-commit for a merge that commits without stopping (`git merge`
// outside a conflict), which never runs pre-commit; it runs the same
// members over the merge's index. The post-* hooks (unjudged.go) judge
// nothing: they report commits that landed with no pre-commit run; and
// pre-push (pushed.go) records the commits a push sends, refusing nothing.
const (
	PreCommit      = "pre-commit"
	CommitMsg      = "commit-msg"
	PreMergeCommit = "pre-merge-commit"
)

// Served answers the served hook names, sorted.
func Served() []string {
	return []string{CommitMsg, PostApplypatch, PostCommit, PostMerge, PostRewrite, PreCommit, PreMergeCommit, PrePush}
}

// IsServed reports whether name is a served hook.
func IsServed(name string) bool {
	for _, h := range Served() {
		if h == name {
			return true
		}
	}
	return false
}

// ExeSuffix is the host's executable suffix: ".exe" on Windows, else "".
func ExeSuffix() string { return ExeSuffixFor(runtime.GOOS) }

// ExeSuffixFor is the executable suffix of a build for goos, the target form
// a cross build names its artifact by.
func ExeSuffixFor(goos string) string { return exeSuffixFor(goos) }

func exeSuffixFor(goos string) string {
	if goos == "windows" {
		return ".exe"
	}
	return ""
}

// stem answers the last element of a path (either separator) with the
// host's executable suffix removed, compared without case on Windows.
func stem(p string) string { return stemFor(runtime.GOOS, p) }

func stemFor(goos, p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 && (goos == "windows" || p[i] == '/') {
		p = p[i+1:]
	}
	suf := exeSuffixFor(goos)
	if suf != "" && len(p) > len(suf) && strings.EqualFold(p[len(p)-len(suf):], suf) {
		p = p[:len(p)-len(suf)]
	}
	return p
}

// LauncherHook reports whether a process started under argv0 is a served
// hook's launcher, and which hook. Only the start name decides.
func LauncherHook(argv0 string) (string, bool) {
	// assertion J: the start name alone decides.
	s := stem(argv0)
	if IsServed(s) {
		return s, true
	}
	return "", false
}
