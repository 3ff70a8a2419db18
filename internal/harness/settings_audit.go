package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/repo"
	"github.com/gate-sdk/gates/internal/walk"
)

// SettingsReader is a Repo that names the harness settings files the
// session's hooks were registered from, so what a command did to them can
// be judged after it ran, whatever wrote them.
type SettingsReader interface {
	// SettingsFiles answers the settings files the harness reads hook
	// registrations from (absolute; some may not exist).
	SettingsFiles() []string
	// SettingsRepair answers the command that merges the gates'
	// registrations back into the project's settings.
	SettingsRepair() string
}

// settingsKeeper is a SettingsReader that answers a settings file a
// checkout kept off the disk: the copy the default branch records, while
// the work tree holds a tree from outside the adoption (a pages branch,
// a line from before it), which a checkout of the default branch brings
// back.
type settingsKeeper interface {
	KeptOff(p string) ([]byte, bool)
}

// keptOff answers c.Repo's KeptOff, nil when it has none.
func keptOff(r any) func(string) ([]byte, bool) {
	if k, ok := r.(settingsKeeper); ok {
		return k.KeptOff
	}
	return nil
}

// settingsFile is what one settings file held: its size and modification
// time (kept for the record; the file is read again at every check, since
// both can be set back), the gates registrations in it and whether it
// turned every hook off.
type settingsFile struct {
	Size int64             `json:"size"` // -1: no such file
	Mod  int64             `json:"mod"`
	Regs map[string]string `json:"regs,omitempty"`
	// Live are the names of the registrations that run this release's
	// stub: one rewritten by an upgrade's init keeps its name.
	Live map[string]bool `json:"live,omitempty"`
	Off  bool            `json:"off,omitempty"`
	Bad  bool            `json:"bad,omitempty"` // not JSON the harness reads
}

// settingsTold is the cut last handed to the model after a command and at
// a Stop, so one change is told once in each place.
type settingsTold struct {
	After string `json:"after,omitempty"`
	Stop  string `json:"stop,omitempty"`
}

// State kinds of the settings audit.
const (
	stateSettings     = "settings"      // the settings files as the session began
	stateSettingsTold = "settings-told" // what was told of a change to them
)

// readSettingsFile reads one settings file's registrations; a file that
// cannot be read for another reason than its absence is an error.
func readSettingsFile(p string, keep func(string) ([]byte, bool)) (settingsFile, error) {
	fi, err := os.Stat(p)
	var f settingsFile
	var data []byte
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A sparse checkout that keeps the file off the disk keeps it in
		// the index: the file is there, as a full checkout brings it back.
		kept, ok := sparseCopy(p)
		if !ok && keep != nil {
			// assertion Q (commit-audit): so does a checkout of a tree from
			// outside the adoption, as the default branch's checkout.
			kept, ok = keep(p)
		}
		if !ok {
			return settingsFile{Size: -1}, nil
		}
		f, data = settingsFile{Size: int64(len(kept))}, kept
	case err != nil:
		return settingsFile{}, err
	default:
		f = settingsFile{Size: fi.Size(), Mod: fi.ModTime().UnixNano()}
		if data, err = walk.ReadConfig(p); err != nil {
			return settingsFile{}, err
		}
	}
	var doc struct {
		DisableAllHooks bool `json:"disableAllHooks"`
	}
	if strings.TrimSpace(string(data)) != "" && json.Unmarshal(data, &doc) != nil {
		f.Bad = true
		return f, nil
	}
	f.Off = doc.DisableAllHooks
	f.Regs = settingsMembers(data)
	f.Live = liveMembers(data)
	return f, nil
}

// sparseCopy answers the bytes the index holds for the absent file p when
// its entry is outside a sparse checkout (skip-worktree); a file deleted
// any other way is gone, whatever the index still holds. The index is
// asked only when p's directory is gone too and the nearest directory
// left is a work-tree top (a settings file sits in .claude/ there), so an
// absent local settings file costs no git.
func sparseCopy(p string) ([]byte, bool) {
	dir := filepath.Dir(p)
	if _, err := os.Stat(dir); err == nil {
		return nil, false
	}
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			return nil, false
		}
		dir = up
	}
	if _, err := os.Lstat(walk.Child(dir, ".git")); err != nil {
		return nil, false
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return nil, false
	}
	rel = filepath.ToSlash(rel)
	entries, err := repo.Git{}.IndexFlags(dir)
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		if e.Path != rel || e.Stage != 0 {
			continue
		}
		if !e.SkipWorktree() {
			return nil, false
		}
		top, err := walk.Toplevel(dir, nil)
		if err != nil {
			return nil, false
		}
		fromTop, err := filepath.Rel(top, p)
		if err != nil {
			return nil, false
		}
		data, ok, err := repo.IndexFile(dir, filepath.ToSlash(fromTop))
		return data, ok && err == nil
	}
	return nil, false
}

// liveMembers answers the names (as settingsMembers spells them) of the
// registrations a settings text holds that run this release's stub under
// an interpreter named bare, with time to answer.
func liveMembers(data []byte) map[string]bool {
	out := map[string]bool{}
	for _, r := range settingsRegistrations(data) {
		if r.Live {
			out[r.Name] = true
		}
	}
	return out
}

// settingsCuts answers, for one settings file, what it lost of the gates'
// hooks between was and now: every line empty when nothing.
func settingsCuts(p string, was, now settingsFile) []string {
	var cuts []string
	// assertion Q: the registrations the session began with stay,
	// however the file was written.
	switch {
	case now.Size < 0 && len(was.Regs) > 0:
		cuts = append(cuts, fmt.Sprintf("%s, which registered the gates' hooks, is gone", p))
	case now.Bad && !was.Bad && len(was.Regs) > 0:
		cuts = append(cuts, fmt.Sprintf("%s is no longer JSON the harness can read, so the gates' hooks it registered are lost", p))
	default:
		var missing []string
		for k, name := range was.Regs {
			if _, ok := now.Regs[k]; !ok && !now.Live[name] {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			cuts = append(cuts, fmt.Sprintf("%s no longer registers %s", p, strings.Join(missing, ", ")))
		}
	}
	if now.Off && !was.Off {
		cuts = append(cuts, fmt.Sprintf(`%s now sets "disableAllHooks": true, which turns every hook off`, p))
	}
	return cuts
}

// readSettings reads every settings file the repository names.
func readSettings(files []string, keep func(string) ([]byte, bool)) (map[string]settingsFile, error) {
	out := map[string]settingsFile{}
	for _, p := range files {
		f, err := readSettingsFile(p, keep)
		if err != nil {
			return nil, err
		}
		out[p] = f
	}
	return out, nil
}

// recordSettings keeps the settings files as they stand as the session's
// starting record, once per session.
func recordSettings(c *Call) error {
	sr, ok := c.Repo.(SettingsReader)
	if !ok {
		return nil
	}
	var had map[string]settingsFile
	if ok, err := loadState(c, stateSettings, &had); err != nil || ok {
		return err
	}
	now, err := readSettings(sr.SettingsFiles(), keptOff(c.Repo))
	if err != nil {
		return err
	}
	return saveState(c, stateSettings, now)
}

// settingsLost answers what has happened to the gates' registrations since
// the session began ("" when nothing has, or it was told at this place
// already, or the repository names no settings): a file that dropped one,
// turned every hook off, stopped being JSON or went away. where is "after"
// or "stop"; what is answered is marked told there.
func settingsLost(c *Call, where string) (string, error) {
	sr, ok := c.Repo.(SettingsReader)
	if !ok {
		return "", nil
	}
	var had map[string]settingsFile
	ok, err := loadState(c, stateSettings, &had)
	if err != nil {
		return "", err
	}
	if !ok {
		// No record yet (a session begun by an older release): from here on.
		return "", recordSettings(c)
	}
	var cuts []string
	for _, p := range sr.SettingsFiles() {
		was, known := had[p]
		if !known {
			was = settingsFile{Size: -1}
		}
		// Read again every time: a size and a modification time can both
		// be set back by whatever rewrote the file.
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) && was.Size < 0 {
			continue
		}
		now, err := readSettingsFile(p, keptOff(c.Repo))
		if err != nil {
			return "", err
		}
		cuts = append(cuts, settingsCuts(p, was, now)...)
	}
	if len(cuts) == 0 {
		return "", nil
	}
	text := "gate-sdk commit-audit: the harness settings lost the gates' hooks: " + strings.Join(cuts, "; ") +
		". Without them the next sessions' commits go unjudged. Put them back: `" + sr.SettingsRepair() +
		"` merges every gates registration into .claude/settings.json and keeps the rest, and a disableAllHooks line comes out with the Edit tool. " +
		"Turning the hooks off is the operator's decision, not the agent's."
	var told settingsTold
	if _, err := loadState(c, stateSettingsTold, &told); err != nil {
		return "", err
	}
	mark := &told.After
	if where == "stop" {
		mark = &told.Stop
	}
	if *mark == text {
		return "", nil
	}
	*mark = text
	if err := saveState(c, stateSettingsTold, told); err != nil {
		return "", err
	}
	return text, nil
}

// envelopeText answers the words one hook envelope carries (its reason, or
// the context or message it adds), "" for none.
func envelopeText(out string) string {
	out = strings.TrimSpace(out)
	if out == "" {
		return ""
	}
	var env struct {
		Reason        string `json:"reason"`
		SystemMessage string `json:"systemMessage"`
		Specific      struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(out), &env) != nil {
		return out
	}
	for _, s := range []string{env.Reason, env.Specific.AdditionalContext, env.SystemMessage} {
		if s != "" {
			return s
		}
	}
	return ""
}

// settingsSources are ConfigChange's sources whose files register hooks
// the session runs and a block can keep out (the managed policy's always
// applies).
var settingsSources = map[string]int{"project_settings": 0, "local_settings": 1, "user_settings": 2}

// configGuard is git-dir-guard on ConfigChange: a settings file changed
// on disk during the session, by whatever wrote it. When the file as it
// now stands has lost a gates registration the session began with, or
// turns every hook off, the change is kept out of the running session.
func configGuard(c *Call) int {
	idx, ok := settingsSources[c.Payload.Source]
	if !ok {
		return Allow
	}
	if c.Repo == nil {
		return c.Decline("no repository reader")
	}
	sr, ok := c.Repo.(SettingsReader)
	if !ok {
		return c.Decline("no reader of the harness settings")
	}
	files := sr.SettingsFiles()
	p := c.Payload.FilePath
	if p == "" && idx < len(files) {
		p = files[idx]
	}
	if p == "" {
		return Allow
	}
	if c.Payload.Cwd != "" {
		p = walk.AbsAgainst(c.Payload.Cwd, p)
	}
	var had map[string]settingsFile
	known, err := loadState(c, stateSettings, &had)
	if err != nil {
		return c.keepOut(p, fmt.Sprintf("the session's record of the settings cannot be read (%v)", err))
	}
	was, ok := had[p]
	if !ok {
		// The harness may spell the file through a link the record does
		// not: compared as the files they are.
		canon := c.Repo.Canonical(p)
		for k, f := range had {
			if c.Repo.Canonical(k) == canon {
				was, ok = f, true
				break
			}
		}
	}
	if !ok {
		// A file the record does not name (no record yet, or a spelling
		// of its own): judged on what it says alone.
		was = settingsFile{Size: -1}
	}
	now, err := readSettingsFile(p, keptOff(c.Repo))
	if err != nil {
		return c.keepOut(p, fmt.Sprintf("it cannot be read (%v)", err))
	}
	cuts := settingsCuts(p, was, now)
	if !known && len(cuts) == 0 && now.Bad {
		cuts = append(cuts, p+" is not JSON the harness can read")
	}
	if len(cuts) == 0 {
		return Allow
	}
	// assertion C: a settings change that takes the gates'
	// hooks away does not reach the running session.
	return c.keepOut(p, strings.Join(cuts, "; "))
}

// keepOut blocks a settings change with the reason.
func (c *Call) keepOut(p, why string) int {
	fmt.Fprintf(c.Stderr, "gate-sdk git-dir-guard: the change to %s was kept out of this session: %s.\n", p, why)
	if sr, ok := c.Repo.(SettingsReader); ok {
		fmt.Fprintf(c.Stderr, "The gates' hooks stay on until the session ends. Put the registrations back with `%s` (it keeps the rest of the file); turning the hooks off is the operator's to do, between sessions.\n", sr.SettingsRepair())
	}
	return Block
}

// SessionSettingsCut answers, for the status line, what the harness
// settings have lost of the gates' hooks since session began ("" when
// nothing, or no record): each file the record names, read again.
func SessionSettingsCut(stateDir, session string, keep func(string) ([]byte, bool)) string {
	name := stateName(stateDir, session, stateSettings)
	data, err := walk.ReadConfig(name)
	if errors.Is(err, fs.ErrNotExist) {
		return "" // the session has recorded nothing yet
	}
	if err != nil {
		return fmt.Sprintf("the session's record of the harness settings cannot be read (%v)", err)
	}
	var had map[string]settingsFile
	if err := json.Unmarshal(data, &had); err != nil {
		// assertion E: a record that does not parse is not "nothing
		// lost"; the Bash and Stop checks refuse on it too.
		return fmt.Sprintf("the session's record of the harness settings (%s) does not parse: %v", name, err)
	}
	var files []string
	for p := range had {
		files = append(files, p)
	}
	sort.Strings(files)
	var cuts []string
	for _, p := range files {
		was := had[p]
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) && was.Size < 0 {
			continue
		}
		now, err := readSettingsFile(p, keep)
		if err != nil {
			cuts = append(cuts, fmt.Sprintf("%s cannot be read (%v)", p, err))
			continue
		}
		cuts = append(cuts, settingsCuts(p, was, now)...)
	}
	if len(cuts) == 0 {
		return ""
	}
	return "the harness settings lost the gates' hooks: " + strings.Join(cuts, "; ")
}
