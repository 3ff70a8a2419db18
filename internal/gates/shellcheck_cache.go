package gates

// The content cache of the two ShellCheck wrappers (check-shellcheck and
// check-action-run-shell): ShellCheck's report on one linted unit (a file,
// a run: body as extracted) kept in the result cache under a digest of
// exactly what decided it: the unit's bytes, the dialect, the ShellCheck
// flags and the ShellCheck release. A unit whose key is stored is never
// linted again. The report is stored relative to the unit (its own lines
// and columns, no path), and each rule places it where the unit sits this
// run. See gate-sdk/SPEC.md §The ShellCheck content cache.

import (
	"strings"

	"github.com/gate-sdk/gates/internal/cache"
	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/spawn"
)

// scCacheTable is the one table both wrappers share: its entries are
// digests, each spelling its own kind, flags and release, so the two
// rules' units never meet and a release change misses without naming a
// new table.
const scCacheTable = "SHELLCHECK-UNITS"

// scCache is one rule run's view of the content cache; nil misses every
// lookup and stores nothing.
type scCache struct {
	t       *cache.Table
	release string
}

// openScCache answers the content cache for this run: nil when the result
// cache is off or the ShellCheck release cannot be told (a unit is then
// linted, never served).
func openScCache(c *gate.Context) *scCache {
	if c.Cache == nil {
		return nil
	}
	t := c.Cache.Table(scCacheTable, nil)
	rel, ok := shellcheckRelease(c, t)
	if !ok {
		return nil
	}
	return &scCache{t: t, release: rel}
}

// shellcheckRelease answers what `shellcheck --version` prints for the
// shellcheck the gate's PATH reaches, asked once per binary: the answer is
// kept under the file's path, size, modification time and mode, so a run
// over an unchanged binary stats it and starts nothing.
func shellcheckRelease(c *gate.Context, t *cache.Table) (string, bool) {
	path, ok := spawn.Where("shellcheck", spawn.LookupEnv(c.Env))
	if !ok {
		return "", false
	}
	// assertion A: the release is asked once per binary, keyed by its
	// path, size, modification time and mode.
	stamp, ok := cache.FileStamp(path)
	if !ok {
		return "", false
	}
	var k cache.Config
	k.AddString("kind", "release")
	k.AddString("file", stamp)
	key := k.Digest()
	if v, ok := t.Get("", key); ok && len(v) > 0 {
		return string(v), true
	}
	res := spawn.RunStreamed(scVersionCmd(c), nil)
	out := strings.TrimSpace(string(res.Stdout()))
	if res.Code() != 0 || !strings.Contains(out, "version") {
		// A release that cannot be told keys nothing: the run lints all.
		return "", false
	}
	t.Put("", key, []byte(out))
	return out, true
}

// scVersionCmd is `shellcheck --version` under the gate's environment.
func scVersionCmd(c *gate.Context) spawn.Cmd {
	return shellcheckCmd(c, "--version")
}

// unitKey answers a unit's key: kind (which rule's units), the ShellCheck
// argv less its operands, the release, the dialect, the bytes, and any
// further inputs more adds (check-shellcheck's followed neighbours).
func (s *scCache) unitKey(kind string, flags []string, dialect string, body []byte, more func(*cache.Config)) string {
	if s == nil {
		return ""
	}
	// assertion B: a unit's key digests its bytes, the dialect, the flags
	// and the release, length-framed.
	var k cache.Config
	k.AddString("kind", kind)
	for _, f := range flags {
		k.AddString("flag", f)
	}
	k.AddString("release", s.release)
	k.AddString("dialect", dialect)
	k.Add("body", body)
	if more != nil {
		more(&k)
	}
	return k.Digest()
}

// get answers the unit's stored report (positions relative to the unit).
// A value that does not decode is a miss, never a clean.
func (s *scCache) get(key string) ([]scReport, bool) {
	if s == nil || key == "" {
		return nil, false
	}
	data, ok := s.t.Get("", key)
	if !ok {
		return nil, false
	}
	// assertion C: a stored value that does not decode is a miss.
	fs, err := gate.DecodeFindings(data)
	if err != nil {
		return nil, false
	}
	out := make([]scReport, 0, len(fs))
	for _, f := range fs {
		if f.Class != "sc" || f.Line < 1 || f.Msg == "" {
			return nil, false
		}
		out = append(out, scReport{line: f.Line, col: f.Column, level: f.Msg, text: f.Text})
	}
	return out, true
}

// put stores the unit's report under key.
func (s *scCache) put(key string, reports []scReport) {
	if s == nil || key == "" {
		return
	}
	fs := make([]gate.Finding, 0, len(reports))
	for _, r := range reports {
		fs = append(fs, gate.Finding{Class: "sc", Line: r.line, Column: r.col, Msg: r.level, Text: r.text})
	}
	s.t.Put("", key, gate.EncodeFindings(fs))
}
