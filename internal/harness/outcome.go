package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gate-sdk/gates/internal/walk"
)

// Repo is what the outcome members read of the repository: what git will
// run for a commit, where the refs stand, the commits between two sets of
// tips and each commit's verdict as the git hooks would have given it.
type Repo interface {
	// Hooks compares the hooks git would run for a commit here with the
	// ones --install-hooks placed.
	Hooks() (HooksState, error)
	// Tips answers every ref with the object it names, HEAD included.
	Tips() ([]Tip, error)
	// Commits answers the commits reachable from include and from none of
	// exclude, newest first, at most max; more reports some left out.
	// since, when not 0, keeps only commits committed at or after it (Unix
	// seconds).
	Commits(include, exclude []string, since int64, max int) (ids []string, more bool, err error)
	// Judge runs the git hooks' gates over one commit: the commit-msg
	// members on its message, the pre-commit members on the change it
	// records against its first parent, each over the commit's own tree.
	Judge(id string) (CommitVerdict, error)
	// Fetched answers the tips fetch left: the ids FETCH_HEAD lists and
	// each remote-tracking tip of tips whose newest reflog entry a fetch,
	// pull or clone wrote (a push's update is not one).
	Fetched(tips []Tip) ([]string, error)
	// Foreign answers, of the commits reachable from tips and from none
	// of exclude, those this clone did not author at or after since: a
	// committer other than the clone's identity, or a commit time before
	// since.
	Foreign(tips, exclude []string, since int64) (map[string]bool, error)
	// Binary answers the gates binary the hooks run (the knob resolved,
	// absolute) and the work-tree top it is spelled against.
	Binary() (bin, top string, err error)
	// Pushed answers the remote-tracking tips of tips whose newest reflog
	// entry a push from this clone wrote.
	Pushed(tips []Tip) ([]string, error)
	// Elsewhere reports that the absolute directory abs lies outside
	// this repository: in another one's work tree, or in none. A
	// directory not made yet is placed by its deepest existing ancestor.
	Elsewhere(abs string) bool
	// StateDir is the directory, under the git dir, the members keep
	// their per-session state in.
	StateDir() (string, error)
	// Protected answers the directories (canonical, absolute) no edit
	// tool may write into: the git dir, the common dir, the hooks git
	// resolves and the gates' own hooks directory; and files such as a
	// linked worktree's .git.
	Protected() ([]string, error)
	// Canonical answers an absolute path with every symlink of its
	// existing part resolved.
	Canonical(abs string) string
}

// PushRecord is a Repo that keeps what pushes sent.
type PushRecord interface {
	// PushedSince answers the commits a push from this clone sent at or
	// after since (Unix seconds), of those the clone still holds; notes
	// are the ones only ever sent from a notes ref to a notes ref.
	PushedSince(since int64) (sent, notes []string, err error)
	// PushStamp answers when the record was last written; false when
	// there is none.
	PushStamp() (time.Time, bool)
}

// PushedNewRecord is a Repo that keeps, of what pushes sent, the commits
// no fetch had brought when they were sent.
type PushedNewRecord interface {
	// PushedNewSince answers those commits, sent at or after since (Unix
	// seconds).
	PushedNewSince(since int64) ([]string, error)
}

// pushedDuring reports that a push was recorded after the tips before
// the command were: the command pushed, whether or not a ref here moved.
func pushedDuring(c *Call) bool {
	pr, ok := c.Repo.(PushRecord)
	if !ok {
		return false
	}
	stamp, ok := pr.PushStamp()
	if !ok {
		return false
	}
	dir, err := c.Repo.StateDir()
	if err != nil {
		return false
	}
	fi, err := os.Stat(stateName(dir, c.Payload.SessionID, stateTips))
	return err == nil && stamp.After(fi.ModTime())
}

// Tip is one ref and the object it names.
type Tip struct {
	Ref string `json:"ref"`
	ID  string `json:"id"`
}

// HooksState is what Repo.Hooks found.
type HooksState struct {
	// OptedIn: init or --install-hooks recorded placing the hooks here.
	OptedIn bool
	// Problems are the ways what git runs differs from what was placed.
	Problems []string
	// Repair is the one command that puts the hooks back.
	Repair string
	// Other is the live directory of another hook manager git runs in
	// place of the placed hooks ("" for none); Chain says how to keep
	// its hooks and run the gates from them.
	Other, Chain string
}

// CommitVerdict is one commit judged as the hooks would have.
type CommitVerdict struct {
	ID      string `json:"id"`
	Short   string `json:"short"`
	Subject string `json:"subject"`
	Red     []Red  `json:"red,omitempty"`
	// Root: the commit has no parent.
	Root bool `json:"root,omitempty"`
	// Parent is the commit's first parent ("" for a root commit).
	Parent string `json:"parent,omitempty"`
}

// MaxJudged bounds the commits one event judges.
const MaxJudged = 50

// stateName answers the file of one kind of a session's state.
//
// An id of up to 64 letters, digits, '-' and '_' is its own name; any other
// (a '/', "..", an empty id) is "=" and a digest of it. No literal name
// holds '=', so two ids never share a file and no id leaves dir.
func stateName(dir, session, kind string) string {
	ok := session != "" && len(session) <= 64
	for _, r := range session {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			ok = false
		}
	}
	if !ok {
		sum := sha256.Sum256([]byte(session))
		session = "=" + hex.EncodeToString(sum[:16])
	}
	return filepath.Join(dir, session+"."+kind)
}

// Mirror is a Repo that keeps a second copy of the records the judge
// starts from outside the repository, where a command run in the clone
// does not reach them by removing or rewriting the git directory's files.
type Mirror interface {
	// MirrorDir answers the directory of the copy; an error when there is
	// no place for one (the copy is then not kept).
	MirrorDir() (string, error)
}

// mirrored are the kinds of state the judge starts from: where the refs
// stood before the command and when the session began, and the remotes it
// began with.
var mirrored = map[string]bool{stateTips: true, stateBase: true, stateBaseAt: true, stateRemotes: true}

// loadMirror decodes the copy of one state file into v; false when there
// is no copy, or none that reads.
func loadMirror(c *Call, kind string, v any) bool {
	m, ok := c.Repo.(Mirror)
	if !ok || !mirrored[kind] {
		return false
	}
	dir, err := m.MirrorDir()
	if err != nil {
		return false
	}
	data, err := walk.ReadConfig(stateName(dir, c.Payload.SessionID, kind))
	return err == nil && json.Unmarshal(data, v) == nil
}

// saveMirror writes the copy of one state file; a copy that cannot be
// written is left out (the git directory's file is still the record).
func saveMirror(c *Call, kind string, data []byte) {
	m, ok := c.Repo.(Mirror)
	if !ok || !mirrored[kind] {
		return
	}
	dir, err := m.MirrorDir()
	if err != nil || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	_ = walk.ReplaceFile(stateName(dir, c.Payload.SessionID, kind), data)
}

// loadState decodes one state file into v; false when there is none.
// The records the judge starts from are read from their copy outside the
// repository first: a command that removed, emptied or rewrote the git
// directory's file does not move where the judge starts.
func loadState(c *Call, kind string, v any) (bool, error) {
	dir, err := c.Repo.StateDir()
	if err != nil {
		return false, err
	}
	// assertion O: the judge's starting records outlive the command.
	if loadMirror(c, kind, v) {
		return true, nil
	}
	data, err := walk.ReadConfig(stateName(dir, c.Payload.SessionID, kind))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		// A state file cut short is read as none; it is rewritten.
		return false, nil
	}
	return true, nil
}

// saveState writes one state file whole (a rename over the old one).
func saveState(c *Call, kind string, v any) error {
	dir, err := c.Repo.StateDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	saveMirror(c, kind, data)
	p := stateName(dir, c.Payload.SessionID, kind)
	return walk.ReplaceFile(p, data)
}

// State kinds.
const (
	stateTips     = "tips"     // the tips before the current command
	stateBase     = "base"     // the tips the session first recorded
	stateBaseAt   = "base-at"  // when, in Unix seconds
	stateVerdicts = "verdicts" // every commit judged, by id
	stateAdvised  = "advised"  // the not-opted-in notice was given
	stateFetched  = "fetched"  // the tips fetch left, seen so far
	stateOther    = "other"    // the other hook manager the session was told of
	stateUnjudged = "unjudged" // commits the last judgement left out
	stateRemotes  = "remotes"  // the remotes configured when the session began
)

// RemoteReader is a Repo that reads the configured remotes, so what
// counts as fetched is what the remotes the session began with sent.
type RemoteReader interface {
	// Remotes answers each configured remote's name and URL.
	Remotes() (map[string]string, error)
	// FetchedFrom is Fetched counting only what the remotes of base
	// (name and URL, as Remotes answered at the session's start) sent.
	FetchedFrom(tips []Tip, base map[string]string) ([]string, error)
}

// Maker is a Repo that answers the commit objects written after a time.
type Maker interface {
	// MadeSince answers the commits written (as loose objects) after
	// since, less a stash's own.
	MadeSince(since time.Time) ([]string, error)
}

// tipsStamp answers when the tips before the command were recorded: the
// copy's file first (§O), else the git directory's; zero when neither is.
func tipsStamp(c *Call) time.Time {
	var dirs []string
	if m, ok := c.Repo.(Mirror); ok {
		if d, err := m.MirrorDir(); err == nil {
			dirs = append(dirs, d)
		}
	}
	if d, err := c.Repo.StateDir(); err == nil {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if fi, err := os.Stat(stateName(d, c.Payload.SessionID, stateTips)); err == nil {
			return fi.ModTime()
		}
	}
	return time.Time{}
}

// lastScanName is the clone's record of when the last look for commits
// on no ref began (its file's time, on the file system's clock as the
// objects' are). No session's file is named so.
const lastScanName = "=last.scan"

// scanStamp is one look for commits on no ref: the time it starts from
// and the record of its own start, put in place once it has looked.
type scanStamp struct {
	next, at string
	began    time.Time
}

// startScan answers the time the look starts from — the last look's
// start, or fallback where none is recorded (or it is not before the
// fallback and narrow is false) — and writes the record of this look's
// start aside. A record dated after now is no record.
func startScan(c *Call, fallback time.Time, narrow bool) (time.Time, *scanStamp) {
	dir, err := c.Repo.StateDir()
	if err != nil {
		return fallback, nil
	}
	at := filepath.Join(dir, lastScanName)
	since := fallback
	if fi, err := os.Stat(at); err == nil && fi.Mode().IsRegular() && !fi.ModTime().After(time.Now()) {
		if t := fi.ModTime(); fallback.IsZero() || t.Before(fallback) || narrow {
			since = t
		}
	}
	st := &scanStamp{next: at + "." + strconv.Itoa(os.Getpid()), at: at}
	if err := os.WriteFile(st.next, nil, 0o644); err != nil {
		return since, nil
	}
	if fi, err := os.Stat(st.next); err == nil {
		st.began = fi.ModTime()
	}
	return since, st
}

// done puts the look's start in place as the last look's.
func (st *scanStamp) done() {
	if st != nil {
		_ = os.Rename(st.next, st.at)
	}
}

// drop leaves the last look's record as it was.
func (st *scanStamp) drop() {
	if st != nil {
		_ = os.Remove(st.next)
	}
}

// madeOnNoRef answers the commits the command wrote that no tip reaches
// now: made and left behind, or sent by a push that skipped the hooks
// and left nothing here.
func madeOnNoRef(c *Call, now []Tip, since time.Time) ([]string, error) {
	m, ok := c.Repo.(Maker)
	if !ok || since.IsZero() {
		return nil, nil
	}
	made, err := m.MadeSince(since)
	if err != nil || len(made) == 0 {
		return nil, err
	}
	var all []string
	for _, t := range now {
		all = append(all, t.ID)
	}
	left, _, err := c.Repo.Commits(made, all, 0, maxListed)
	if err != nil {
		return nil, err
	}
	isMade := map[string]bool{}
	for _, id := range made {
		isMade[id] = true
	}
	var out []string
	for _, id := range left {
		if isMade[id] {
			out = append(out, id)
		}
	}
	if len(out) == 0 || len(out) == len(made) {
		return out, nil
	}
	return squashedLibrary(c, made, out, all)
}

// SubtreeReader is a Repo that reads git subtree's squash commits.
type SubtreeReader interface {
	// SquashSplits answers, of the commits ids, what each one that git
	// subtree wrote as a squash names as its source: the library commit
	// of its git-subtree-split trailer.
	SquashSplits(ids []string) []string
}

// squashedLibrary takes out of the commits on no ref (out) a library's
// history that `git subtree add/pull --squash` fetched by its URL: the
// squash commit lands (made, a tip reaches it) and is judged; the
// library's own commits stay on no ref here. assertion P: of those, the
// ones this clone did not author during the session are the library's,
// set apart as fetched work is (commit-audit G); a commit made here and
// named by a squash is judged.
func squashedLibrary(c *Call, made, out, tips []string) ([]string, error) {
	sr, ok := c.Repo.(SubtreeReader)
	if !ok {
		return out, nil
	}
	loose := map[string]bool{}
	for _, id := range out {
		loose[id] = true
	}
	var reached []string
	for _, id := range made {
		if !loose[id] {
			reached = append(reached, id)
		}
	}
	splits := sr.SquashSplits(reached)
	if len(splits) == 0 {
		return out, nil
	}
	var at int64
	if _, err := loadState(c, stateBaseAt, &at); err != nil {
		return nil, err
	}
	foreign, err := c.Repo.Foreign(splits, tips, at)
	if err != nil {
		return nil, err
	}
	keep := out[:0]
	for _, id := range out {
		if !foreign[id] {
			keep = append(keep, id)
		}
	}
	return keep, nil
}

// Worktree is one linked worktree: its directory and its HEAD, the ref it
// is on or the commit it is detached at.
type Worktree struct {
	Dir, Ref, ID string
}

// WorktreeReader is a Repo that lists its linked worktrees.
type WorktreeReader interface {
	Worktrees() []Worktree
}

// judged is one commit's kept verdict.
type judged struct {
	CommitVerdict
	// AtStop: the red verdict was reported at a Stop already.
	AtStop bool `json:"at_stop,omitempty"`
	// Fixed is the checked-out HEAD a later commit repaired this red
	// commit in (see repaired); Checked the HEAD that was last asked.
	Fixed   string `json:"fixed,omitempty"`
	Checked string `json:"checked,omitempty"`
	// Where the commit stands now, for its remedy (never kept).
	head, published bool
	// away are the local refs that reach the commit when the checked-out
	// HEAD does not (never kept).
	away []string
	// worktree is the linked worktree whose HEAD the commit is, when it is
	// not the checked-out HEAD here (never kept); wtBelow: the commit is
	// below that worktree's HEAD, not the HEAD itself.
	worktree string
	wtBelow  bool
	// loose: no ref here reaches the commit (never kept).
	loose bool
	// carried: the repository the command sent the commit to, past the
	// pre-push record (never kept).
	carried string
}

// place notes where each red commit stands now: at HEAD, and whether a
// remote-tracking ref already holds it (published: never offered a
// rewrite).
func place(c *Call, reds []*judged, now []Tip) {
	head := ""
	for _, t := range now {
		if t.Ref == "HEAD" {
			head = t.ID
		}
	}
	rem := remote(now)
	for _, j := range reds {
		j.head = j.ID == head
		if len(rem) > 0 {
			ids, _, err := c.Repo.Commits([]string{j.ID}, rem, 0, 1)
			j.published = err == nil && len(ids) == 0
		}
		if j.head || j.published || head == "" {
			continue
		}
		if wr, ok := c.Repo.(WorktreeReader); ok {
			// assertion H: a linked worktree's HEAD is undone there.
			for _, w := range wr.Worktrees() {
				id := w.ID
				for _, t := range now {
					if w.Ref != "" && t.Ref == w.Ref {
						id = t.ID
					}
				}
				if id == j.ID {
					j.worktree, j.wtBelow = w.Dir, false
					break
				}
				// assertion H: a commit below a linked worktree's HEAD
				// (whose branch git will not delete nor move while it is
				// checked out there) is repaired in that worktree.
				if j.worktree == "" && id != "" {
					if ids, _, err := c.Repo.Commits([]string{j.ID}, []string{id}, 0, 1); err == nil && len(ids) == 0 {
						if hs, _, err := c.Repo.Commits([]string{j.ID}, []string{head}, 0, 1); err == nil && len(hs) > 0 {
							j.worktree, j.wtBelow = w.Dir, true
						}
					}
				}
			}
			if j.worktree != "" {
				continue
			}
		}
		if ids, _, err := c.Repo.Commits([]string{j.ID}, []string{head}, 0, 1); err != nil || len(ids) == 0 {
			continue // HEAD reaches it (or it cannot be told): the branch's remedy
		}
		var all []string
		for _, t := range now {
			all = append(all, t.ID)
		}
		if ids, _, err := c.Repo.Commits([]string{j.ID}, all, 0, 1); err == nil && len(ids) > 0 {
			// assertion P: a commit no ref holds is not the branch's.
			j.loose = true
			continue
		}
		// assertion H: a commit the checked-out branch does not reach is
		// undone by deleting the refs that reach it.
		for _, t := range now {
			if t.Ref == "HEAD" || !strings.HasPrefix(t.Ref, "refs/") || strings.HasPrefix(t.Ref, "refs/remotes/") || t.Ref == "refs/stash" {
				continue
			}
			if len(j.away) == 8 {
				break
			}
			if ids, _, err := c.Repo.Commits([]string{j.ID}, []string{t.ID}, 0, 1); err == nil && len(ids) == 0 {
				j.away = append(j.away, t.Ref)
			}
		}
	}
}

// shellWord spells a path as one shell word.
func shellWord(p string) string {
	if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@") == "" {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// dropFrom answers the command that takes the commit j off one local
// ref: a branch goes back to the commit's parent (deleted only for a root
// commit), a tag or another ref is deleted.
func dropFrom(ref string, j *judged) string {
	if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok && !j.Root {
		return "git branch -f " + b + " " + j.Short + "^"
	}
	return dropRef(ref)
}

// dropRef answers the command that deletes one local ref.
func dropRef(ref string) string {
	if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		return "git branch -D " + b
	}
	if tag, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
		return "git tag -d " + tag
	}
	return "git update-ref -d " + ref
}

// sameTips reports two tip lists naming the same refs at the same ids.
func sameTips(a, b []Tip) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// landed answers the ids of the tips a commit can land on: every ref but
// the remote-tracking ones (others' work, fetched), the stash and notes.
func landed(tips []Tip) []string {
	var out []string
	for _, t := range tips {
		if strings.HasPrefix(t.Ref, "refs/remotes/") || t.Ref == "refs/stash" || strings.HasPrefix(t.Ref, "refs/notes/") {
			continue
		}
		out = append(out, t.ID)
	}
	return out
}

// remote answers the ids of the remote-tracking tips.
func remote(tips []Tip) []string {
	var out []string
	for _, t := range tips {
		if strings.HasPrefix(t.Ref, "refs/remotes/") {
			out = append(out, t.ID)
		}
	}
	return out
}

// known answers the ids a judgement starts from: the tips recorded before
// (remote-tracking ones left out: a commit fetched from a scratch clone is
// judged when it lands on a branch) and the session's first remote tips.
func known(before, base []Tip) []string {
	out := landed(before)
	for _, t := range base {
		if strings.HasPrefix(t.Ref, "refs/remotes/") {
			out = append(out, t.ID)
		}
	}
	return out
}

// maxListed bounds the new commits one event lists before the fetched
// ones are set apart; judging is what MaxJudged bounds.
const maxListed = 1 << 20

// fetchedTips adds the tips fetch left now to the ones the session saw
// before and keeps them: a commit fetched in one command and merged in a
// later one is still known as fetched.
func fetchedTips(c *Call, now []Tip) ([]string, error) {
	var seen []string
	if _, err := loadState(c, stateFetched, &seen); err != nil {
		return nil, err
	}
	var fresh []string
	var began map[string]string
	var err error
	fr, ok := c.Repo.(RemoteReader)
	if ok {
		if ok, err = loadState(c, stateRemotes, &began); err != nil {
			return nil, err
		}
	}
	if ok && began != nil {
		// assertion G: only the remotes the session began with send
		// others' work; one added or repointed since is the agent's.
		fresh, err = fr.FetchedFrom(now, began)
	} else {
		fresh, err = c.Repo.Fetched(now)
	}
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, id := range seen {
		have[id] = true
	}
	grew := false
	for _, id := range fresh {
		if !have[id] {
			have[id] = true
			seen = append(seen, id)
			grew = true
		}
	}
	if grew {
		if err := saveState(c, stateFetched, seen); err != nil {
			return nil, err
		}
	}
	return seen, nil
}

// judgeNew judges the commits reachable from now and not from the known
// ids, reusing the session's kept verdicts; it answers them newest first,
// and whether some were left unjudged past MaxJudged. A commit that
// arrived by fetch and that this clone did not author during the session
// is others' work: never judged, never named.
func judgeNew(c *Call, now []Tip, from, extra []string) ([]*judged, map[string]*judged, int, error) {
	ids, _, err := c.Repo.Commits(landed(now), from, 0, maxListed)
	if err != nil {
		return nil, nil, 0, err
	}
	// A commit pushed from no local ref shows only on a remote-tracking
	// one: those made since the session began are judged too (older ones
	// are others' work, fetched).
	var at int64
	if ok, err := loadState(c, stateBaseAt, &at); err != nil {
		return nil, nil, 0, err
	} else if ok && at > 0 {
		pushed, _, err := c.Repo.Commits(remote(now), append(append([]string(nil), from...), landed(now)...), at, maxListed)
		if err != nil {
			return nil, nil, 0, err
		}
		ids = append(ids, pushed...)
	}
	// pushedFrom adds the commits reachable from tips and not from the
	// base or the landed record, each once, whatever dates they carry.
	pushedFrom := func(tips []string) error {
		if len(tips) == 0 {
			return nil
		}
		more, _, err := c.Repo.Commits(tips, append(append([]string(nil), from...), landed(now)...), 0, maxListed)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, id := range ids {
			seen[id] = true
		}
		for _, id := range more {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		return nil
	}
	// assertion K: a tip this clone's push wrote is the agent's whatever
	// dates its commits carry.
	byPush, err := c.Repo.Pushed(now)
	if err != nil {
		return nil, nil, 0, err
	}
	if err := pushedFrom(byPush); err != nil {
		return nil, nil, 0, err
	}
	// A notes ref's history is its own; one that joins the project's
	// holds project commits (a push sends them as any branch), judged as
	// a branch's.
	joins := func(id string) error {
		fresh, _, err := c.Repo.Commits([]string{id}, from, 0, maxListed)
		if err != nil || len(fresh) == 0 {
			return err
		}
		all, _, err := c.Repo.Commits([]string{id}, nil, 0, len(fresh)+1)
		if err != nil {
			return err
		}
		if len(all) > len(fresh) {
			return pushedFrom([]string{id})
		}
		return nil
	}
	for _, t := range now {
		if strings.HasPrefix(t.Ref, "refs/notes/") {
			if err := joins(t.ID); err != nil {
				return nil, nil, 0, err
			}
		}
	}
	// assertion P: the commits the command wrote that no ref holds.
	if err := pushedFrom(extra); err != nil {
		return nil, nil, 0, err
	}
	// assertion K: a remote-tracking tip under a name none of the remotes
	// the session began with has is no remote's work, so no date bound
	// sets it apart.
	var began map[string]string
	if ok, err := loadState(c, stateRemotes, &began); err != nil {
		return nil, nil, 0, err
	} else if ok && began != nil {
		var made []string
		for _, t := range now {
			rest, ok := strings.CutPrefix(t.Ref, "refs/remotes/")
			if !ok {
				continue
			}
			of := false
			for n := range began {
				of = of || strings.HasPrefix(rest, n+"/")
			}
			if !of {
				made = append(made, t.ID)
			}
		}
		if err := pushedFrom(made); err != nil {
			return nil, nil, 0, err
		}
	}
	// assertion K: a commit a push from this clone sent since the session
	// began (the placed pre-push hook's record) is the agent's, though no
	// ref here holds it: pushed by URL, or its local ref reset after.
	if pr, ok := c.Repo.(PushRecord); ok && at > 0 {
		sent, notes, err := pr.PushedSince(at)
		if err != nil {
			return nil, nil, 0, err
		}
		if err := pushedFrom(sent); err != nil {
			return nil, nil, 0, err
		}
		// assertion K: what a notes ref sent to a notes ref is judged
		// by the same rule as a notes ref here, though the ref is gone.
		for _, id := range notes {
			if err := joins(id); err != nil {
				return nil, nil, 0, err
			}
		}
		// assertion K: what this command's push sent is judged from the
		// session's base, not from the refs before the command: a red
		// commit named before and pushed now has left the clone, and is
		// named again as it goes.
		if pushedDuring(c) {
			if stamp := tipsStamp(c); !stamp.IsZero() {
				if err := sentNow(c, pr, stamp.Unix(), now, &ids); err != nil {
					return nil, nil, 0, err
				}
			}
		}
	}
	if len(ids) > 0 {
		// assertion G: what fetch brought is set apart before any
		// judging, so no cap is spent on it.
		var before []string
		if _, err := loadState(c, stateFetched, &before); err != nil {
			return nil, nil, 0, err
		}
		tips, err := fetchedTips(c, now)
		if err != nil {
			return nil, nil, 0, err
		}
		if len(tips) > 0 {
			foreign, err := c.Repo.Foreign(tips, from, at)
			if err != nil {
				return nil, nil, 0, err
			}
			if err := sentBeforeFetched(c, at, from, before, foreign); err != nil {
				return nil, nil, 0, err
			}
			keep := ids[:0]
			for _, id := range ids {
				if !foreign[id] {
					keep = append(keep, id)
				}
			}
			ids = keep
		}
	}
	kept := map[string]*judged{}
	if _, err := loadState(c, stateVerdicts, &kept); err != nil {
		return nil, nil, 0, err
	}
	if kept == nil {
		// A record of null keeps no verdict: every commit is judged anew.
		kept = map[string]*judged{}
	}
	// Commits an earlier look left unjudged are judged now, while a ref
	// still reaches them.
	var pending []string
	if _, err := loadState(c, stateUnjudged, &pending); err != nil {
		return nil, nil, 0, err
	}
	if len(pending) > 0 {
		var all []string
		for _, t := range now {
			all = append(all, t.ID)
		}
		gone, _, err := c.Repo.Commits(pending, all, 0, maxListed)
		if err != nil {
			return nil, nil, 0, err
		}
		skip := map[string]bool{}
		for _, id := range append(gone, ids...) {
			skip[id] = true
		}
		for _, id := range pending {
			if !skip[id] {
				ids = append(ids, id)
				skip[id] = true
			}
		}
	}
	// assertion J: the cap bounds the commits judged in one look, never
	// the ones judged at all: those past it are kept and judged by the
	// next look, and counted until they are.
	var out []*judged
	var left []string
	fresh := 0
	dirty := false
	// parents keeps each judgement of this look as it came, before any
	// inherited finding is taken off, so a commit judged as a parent is
	// not judged again as itself, nor the other way round.
	parents := map[string]CommitVerdict{}
	lookBegan := time.Now()
	for _, id := range ids {
		j, ok := kept[id]
		if !ok || j == nil {
			// assertion L: a commit whose kept verdict is absent or empty
			// is judged again, never read as a verdict.
			if fresh >= MaxJudged && (c.JudgeBudget <= 0 || time.Since(lookBegan) >= c.JudgeBudget) {
				left = append(left, id)
				continue
			}
			fresh++
			v, ok := parents[id]
			if !ok {
				var err error
				if v, err = c.Repo.Judge(id); err != nil {
					return nil, nil, 0, err
				}
				parents[id] = v
			}
			if len(v.Red) > 0 && v.Parent != "" {
				v.Red = notInherited(c, v, parents)
			}
			j = &judged{CommitVerdict: v}
			kept[id] = j
			dirty = true
		}
		out = append(out, j)
	}
	if dirty {
		if err := saveState(c, stateVerdicts, kept); err != nil {
			return nil, nil, 0, err
		}
	}
	if len(left) > 0 || len(pending) > 0 {
		if err := saveState(c, stateUnjudged, left); err != nil {
			return nil, nil, 0, err
		}
	}
	return out, kept, len(left), nil
}

// sentBeforeFetched takes out of foreign the commits a push from this
// clone sent since the session began (at) while no fetch had brought them
// (the placed pre-push hook's second record), and that no tip an earlier
// look saw fetched (before) reaches: a commit under another identity
// pushed and fetched back is the agent's, though the fetch brought it.
func sentBeforeFetched(c *Call, at int64, from, before []string, foreign map[string]bool) error {
	pn, ok := c.Repo.(PushedNewRecord)
	if !ok || at <= 0 || len(foreign) == 0 {
		return nil
	}
	sent, err := pn.PushedNewSince(at)
	if err != nil {
		return err
	}
	var mine []string
	for _, id := range sent {
		if foreign[id] {
			mine = append(mine, id)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	held := map[string]bool{}
	if len(before) > 0 {
		ids, _, err := c.Repo.Commits(before, from, 0, maxListed)
		if err != nil {
			return err
		}
		for _, id := range ids {
			held[id] = true
		}
	}
	for _, id := range mine {
		if !held[id] {
			delete(foreign, id)
		}
	}
	return nil
}

// sentNow adds to ids the commits a push sent at or after since that the
// session's base and the landed refs now do not reach, each once.
func sentNow(c *Call, pr PushRecord, since int64, now []Tip, ids *[]string) error {
	sent, _, err := pr.PushedSince(since)
	if err != nil || len(sent) == 0 {
		return err
	}
	var base []Tip
	if _, err := loadState(c, stateBase, &base); err != nil {
		return err
	}
	exclude := landed(now)
	for _, t := range base {
		exclude = append(exclude, t.ID)
	}
	more, _, err := c.Repo.Commits(sent, exclude, 0, maxListed)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, id := range *ids {
		seen[id] = true
	}
	for _, id := range more {
		if !seen[id] {
			seen[id] = true
			*ids = append(*ids, id)
		}
	}
	return nil
}

// notInherited answers v's red results less those its first parent
// already had, whoever made that parent (the base's history, a
// colleague's fetched, or the session's own commit, red and named on its
// own or made green the same way): a pre-commit gate whose every report
// line the parent's judgement of the same gate holds found nothing this
// commit brought. The parent is judged as any commit would be (its own
// findings and the ones it inherited), once per look; a parent that
// cannot be judged takes nothing away.
func notInherited(c *Call, v CommitVerdict, parents map[string]CommitVerdict) []Red {
	// assertion G: findings the commit's parent already had are not the
	// agent's.
	pv, ok := parents[v.Parent]
	if !ok {
		var err error
		if pv, err = c.Repo.Judge(v.Parent); err != nil {
			return v.Red
		}
		parents[v.Parent] = pv
	}
	var keep []Red
	for _, r := range v.Red {
		if r.Hook != "pre-commit" || r.Code != 1 || !heldBy(r, pv.Red) {
			keep = append(keep, r)
		}
	}
	return keep
}

// heldBy reports a red result each of whose report lines one of had's
// results of the same gate and hook also reports.
func heldBy(r Red, had []Red) bool {
	for _, h := range had {
		if h.Name != r.Name || h.Hook != r.Hook || h.Code != r.Code {
			continue
		}
		lines := map[string]bool{}
		for _, l := range strings.Split(h.Output, "\n") {
			lines[l] = true
		}
		all := true
		for _, l := range strings.Split(r.Output, "\n") {
			if !lines[l] {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// redReport renders the red commits for the model: each by short id and
// subject, the gate, its findings, and the remedy that fits where the
// commit stands.
func redReport(reds []*judged) string {
	var b strings.Builder
	for _, j := range reds {
		msg, tree := false, false
		for _, r := range j.Red {
			what := "refuses"
			if r.Code == 2 {
				what = "could not judge"
			}
			if r.Hook == "commit-msg" {
				msg = true
			} else {
				tree = true
			}
			fmt.Fprintf(&b, "Commit %s (%q): %s %s it:\n%s\n", j.Short, j.Subject, r.Name, what, strings.TrimRight(r.Output, "\n"))
		}
		fmt.Fprintf(&b, "To repair commit %s: %s\n", j.Short, remedy(j, msg, tree))
	}
	// The help lines offering the baseline are the user's (edit-gates O).
	if note := baselineIsTheUsers(b.String()); note != "" {
		b.WriteString(strings.TrimPrefix(note, "\n") + "\n")
	}
	b.WriteString("The git hooks would have refused these commits; never use --no-verify or any other way around the hooks.")
	return b.String()
}

// reword is the rebase that rewrites the message of the commit short
// below HEAD: its todo line `pick` becomes `edit` (a merge's `merge -C`
// line gets a `break` after it), where the message is amended (with
// --allow-empty: git's own reword step cannot amend a commit that changes
// nothing) and the rebase goes on, spelled so that it runs without an
// editor. --autostash keeps the user's uncommitted edits out of the way
// and puts them back at the end (a rebase refuses to start over them);
// --rebase-merges keeps the merges above and at the commit merges.
func reword(short, upstream string) string {
	return rewordWith("git", short, upstream)
}

// rewordWith is reword with git spelled as given (`git -C <worktree>`).
func rewordWith(git, short, upstream string) string {
	// assertion H: the rebase stops at the commit, the amend rewrites its
	// message whatever it changed, and the rebase goes on.
	rebase := git + " rebase -i --autostash --rebase-merges " + upstream
	return fmt.Sprintf("it is below HEAD, so reword it with `%s`, changing its line `pick %s …` to `edit %s …` (a merge's line `merge -C %s …` gets a line `break` after it), then amend its message with --allow-empty and continue the rebase; without an editor: "+
		"`GIT_SEQUENCE_EDITOR=\"sed -i -e 's/^pick %s /edit %s /' -e '/^merge -C %s /a break'\" %s && %s commit --amend --allow-empty -m \"<a message these gates pass>\" && %s rebase --continue` (the commit-msg hook runs on the amended message)",
		rebase, short, short, short, short, short, short, rebase, git, git)
}

// remedy is the repair offered for one red commit: its message by
// --amend at HEAD or by a rebase's reword step below it, its content by a
// new commit or by undoing HEAD; a root commit is undone by deleting the
// branch ref, and a published commit is never offered a rewrite.
func remedy(j *judged, msg, tree bool) string {
	// assertion H: the remedy fits where the commit stands.
	var parts []string
	if j.published {
		parts = append(parts, "it is already on a remote-tracking ref, so do not rewrite it")
		if tree {
			parts = append(parts, "fix each finding in a new commit")
		}
		if msg {
			parts = append(parts, "its message stays as it is: tell the operator, and write later messages so these gates pass")
		}
		return strings.Join(parts, "; ") + "."
	}
	if j.carried != "" {
		return "no ref here holds it now, and " + j.carried + " does: the command sent it there past the pre-push hook; tell the operator where it went, and remove it there or fix each finding in a new commit on the branch that holds it there."
	}
	if j.loose {
		return "no ref here holds it: the command left it behind, or a push that skipped the hooks sent it elsewhere; if it was pushed, tell the operator where, and remove it there (`git push <remote> --delete <branch>`) or fix each finding in a new commit on that branch."
	}
	if j.worktree != "" && j.wtBelow {
		git := "git -C " + shellWord(j.worktree)
		if msg {
			upstream := j.Short + "^"
			if j.Root {
				upstream = "--root"
			}
			parts = append(parts, strings.Replace(rewordWith(git, j.Short, upstream), "it is below HEAD", "it is below HEAD of the linked worktree "+j.worktree, 1))
		}
		if tree {
			parts = append(parts, "fix each finding in a new commit in the linked worktree "+j.worktree)
		}
		return strings.Join(parts, "; ") + "."
	}
	if j.worktree != "" {
		git := "git -C " + shellWord(j.worktree)
		if msg {
			parts = append(parts, fmt.Sprintf("it is HEAD of the linked worktree %s, so `%s commit --amend --allow-empty -m \"<a message these gates pass>\"` rewrites its message there (the hooks run on the amend)", j.worktree, git))
		}
		if tree {
			undo := git + " reset --soft HEAD^"
			if j.Root {
				undo = git + " update-ref -d HEAD"
			}
			parts = append(parts, fmt.Sprintf("fix each finding in a new commit in the linked worktree %s, or undo the commit there with `%s` (its change stays staged) and commit again with the hooks running", j.worktree, undo))
		}
		return strings.Join(parts, "; ") + "."
	}
	if len(j.away) > 0 {
		// assertion H: a branch is moved back to the commit's parent, not
		// deleted: what it held before the commit (the user's own work,
		// say) stays; a root commit has no parent, so its branch goes.
		var drops []string
		for _, r := range j.away {
			drops = append(drops, "`"+dropFrom(r, j)+"`")
		}
		return fmt.Sprintf("it is not on the checked-out branch but on %s: if it should not exist, take it off %s (%s; a branch goes back to the commit's parent, keeping what it held before); otherwise switch to it and repair it there (its message with `git commit --amend` at its tip, its content in a new commit).",
			strings.Join(j.away, ", "), map[bool]string{true: "that ref", false: "those refs"}[len(drops) == 1], strings.Join(drops, " and "))
	}
	if msg {
		switch {
		case j.head:
			// assertion H: --allow-empty, so the amend runs on a commit that
			// changes nothing (git refuses to amend it into an empty one).
			parts = append(parts, "it is HEAD, so `git commit --amend --allow-empty -m \"<a message these gates pass>\"` rewrites its message (the hooks run on the amend)")
		case j.Root:
			parts = append(parts, reword(j.Short, "--root"))
		default:
			parts = append(parts, reword(j.Short, j.Short+"^"))
		}
	}
	if tree {
		switch {
		case j.head && j.Root:
			parts = append(parts, "fix each finding in a new commit, or undo this first commit with `git update-ref -d HEAD` (its change stays staged) and commit again with the hooks running")
		case j.head:
			parts = append(parts, "fix each finding in a new commit, or undo the commit with `git reset --soft HEAD^` (its change stays staged) and commit again with the hooks running")
		default:
			parts = append(parts, "fix each finding in a new commit")
		}
	}
	if len(parts) == 0 {
		return "run the gates named above and fix what they report."
	}
	return strings.Join(parts, "; ") + "."
}

// commitAudit is PreToolUse, PostToolUse and PostToolUseFailure on Bash:
// before a command it records where every ref stands; after it, every
// commit the command made reachable is judged as the git hooks would have
// judged it, and a red one is handed back to the model by id.
func commitAudit(c *Call) int {
	if c.Payload == nil {
		return c.Decline(c.PayloadErr.Error())
	}
	if c.Payload.ToolName != "" && c.Payload.ToolName != "Bash" {
		return Allow
	}
	if c.Repo == nil {
		return c.Decline("no repository reader")
	}
	switch c.Payload.HookEventName {
	case PostToolUseFailure:
		return auditFailed(c)
	case PreToolUse:
		now, err := c.Repo.Tips()
		if err != nil {
			return c.Decline(err.Error())
		}
		// assertion A: the tips before the command, and the session's
		// first tips once, under the git dir, keyed by session.
		if err := recordTips(c, now); err != nil {
			return c.Decline(err.Error())
		}
		return Allow
	case PostToolUse:
		lost, err := settingsLost(c, "after")
		if err != nil {
			return c.unjudged(err)
		}
		if lost == "" {
			return auditAfter(c)
		}
		// assertion Q: a cut of the settings is told with what else the
		// command made, in the one envelope the event reads.
		var b strings.Builder
		out := c.Stdout
		c.Stdout = &b
		code := auditAfter(c)
		c.Stdout = out
		if said := envelopeText(b.String()); said != "" {
			lost += "\n\n" + said
		}
		fmt.Fprintln(c.Stdout, Feedback(lost))
		return code
	}
	return Allow
}

// auditFailed is commit-audit after a command that failed: the harness
// fires PostToolUseFailure in place of PostToolUse, and what the command
// landed before it failed (`git commit … && make test`) is judged all the
// same. assertion S: the look is PostToolUse's; what it hands the model
// as a block reason goes as context, the one field the event reads.
func auditFailed(c *Call) int {
	var b strings.Builder
	out := c.Stdout
	c.Stdout = &b
	c.Payload.HookEventName = PostToolUse
	code := commitAudit(c)
	c.Payload.HookEventName = PostToolUseFailure
	c.Stdout = out
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var env struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}
		if json.Unmarshal([]byte(line), &env) == nil && env.Decision == "block" {
			line = Advise(PostToolUseFailure, env.Reason)
		}
		fmt.Fprintln(out, line)
	}
	return code
}

// recordTips keeps now as the tips before the next command, and as the
// session's base when it has none. A session's base is where the last
// look of any session left the refs, when one did: a commit that landed
// after that look (a background job of an earlier session, after its last
// Stop) is this session's to judge.
func recordTips(c *Call, now []Tip) error {
	var base []Tip
	ok, err := loadState(c, stateBase, &base)
	if err != nil {
		return err
	}
	if !ok {
		// assertion A: the last look of any session is the new base.
		from, at := now, time.Now().Unix()
		if last, lastAt, had, err := loadLast(c); err != nil {
			return err
		} else if had {
			from, at = last, lastAt
		}
		if err := saveState(c, stateBase, from); err != nil {
			return err
		}
		if err := saveState(c, stateBaseAt, at); err != nil {
			return err
		}
		if err := recordSettings(c); err != nil {
			return err
		}
		if err := inheritReds(c, now); err != nil {
			return err
		}
		pruneState(c, time.Now())
		if rr, ok := c.Repo.(RemoteReader); ok {
			rs, err := rr.Remotes()
			if err != nil {
				return err
			}
			if err := saveState(c, stateRemotes, rs); err != nil {
				return err
			}
		}
	}
	// assertion A: refs that moved since the last look of any session,
	// with no command of ours between (a background job after the last
	// Stop, a resumed session), are the next command's to judge: it starts
	// from that look rather than from now.
	keep := now
	if last, _, had, err := loadLast(c); err != nil {
		return err
	} else if had && !sameTips(last, now) {
		keep = last
	}
	if err := saveState(c, stateTips, keep); err != nil {
		return err
	}
	return saveLast(c, now)
}

// Sessions whose records are kept whatever their age, and the age past
// which an older session's records go.
const (
	keepSessions = 20
	pruneAfter   = 14 * 24 * time.Hour
)

// pruneState removes, at a session's first look (after inheritReds took
// what they still hold), the records of the sessions that ended long ago,
// in the state directory and in its mirror, so the first look of a clone
// that has seen many sessions reads a bounded number of them. A record
// that cannot be removed stays.
func pruneState(c *Call, now time.Time) {
	own := filepath.Base(stateName("", c.Payload.SessionID, ""))
	own = strings.TrimSuffix(own, ".")
	var dirs []string
	if dir, err := c.Repo.StateDir(); err == nil {
		dirs = append(dirs, dir)
	}
	if m, ok := c.Repo.(Mirror); ok {
		if dir, err := m.MirrorDir(); err == nil {
			dirs = append(dirs, dir)
		}
	}
	for _, dir := range dirs {
		for _, p := range staleSessionFiles(dir, own, now) {
			_ = os.Remove(p)
		}
	}
}

// staleSessionFiles answers the files under dir of every session but own
// and the keepSessions most recent ones whose newest file is older than
// pruneAfter. A session is the part of a file name before its first dot,
// for a file whose kind (the rest) is one the judge writes.
func staleSessionFiles(dir, own string, now time.Time) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type session struct {
		newest time.Time
		files  []string
	}
	by := map[string]*session{}
	for _, e := range entries {
		name := e.Name()
		sess, kind, ok := strings.Cut(name, ".")
		if !ok || !stateKinds[kind] || sess == own || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		s := by[sess]
		if s == nil {
			s = &session{}
			by[sess] = s
		}
		if info.ModTime().After(s.newest) {
			s.newest = info.ModTime()
		}
		s.files = append(s.files, filepath.Join(dir, name))
	}
	all := make([]*session, 0, len(by))
	for _, s := range by {
		all = append(all, s)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].newest.After(all[j].newest) })
	var out []string
	for i, s := range all {
		if i >= keepSessions && now.Sub(s.newest) > pruneAfter {
			out = append(out, s.files...)
		}
	}
	sort.Strings(out)
	return out
}

// stateKinds are the kinds of per-session file the judge writes.
var stateKinds = map[string]bool{
	stateTips: true, stateBase: true, stateBaseAt: true, stateVerdicts: true, stateAdvised: true,
	stateFetched: true, stateOther: true, stateUnjudged: true, stateRemotes: true,
	stateSettings: true, stateSettingsTold: true,
}

// inheritReds carries into a session's record, at its first look, the
// red commits earlier sessions named that no repair cleared and a ref
// still reaches. They come marked reported: each was named when it
// landed and holds no Stop again, but the status line keeps showing it
// (§--statusline F), and a repair made in this session clears it as it
// clears the session's own (§stop-gates D).
func inheritReds(c *Call, now []Tip) error {
	dir, err := c.Repo.StateDir()
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	own := filepath.Base(stateName(dir, c.Payload.SessionID, stateVerdicts))
	var tips []string
	for _, t := range now {
		tips = append(tips, t.ID)
	}
	kept := map[string]*judged{}
	if _, err := loadState(c, stateVerdicts, &kept); err != nil {
		return err
	}
	added := false
	for _, e := range entries {
		name := e.Name()
		if name == own || !strings.HasSuffix(name, "."+stateVerdicts) {
			continue
		}
		data, err := walk.ReadConfig(filepath.Join(dir, name))
		if err != nil {
			continue // a record another session is writing, or broken: its own session judges it
		}
		var theirs map[string]*judged
		if json.Unmarshal(data, &theirs) != nil {
			continue
		}
		for id, j := range theirs {
			if j == nil || len(j.Red) == 0 || j.Fixed != "" || kept[id] != nil || len(tips) == 0 {
				continue
			}
			// assertion F (--statusline): only while a ref reaches it.
			if out, _, err := c.Repo.Commits([]string{id}, tips, 0, 1); err != nil || len(out) > 0 {
				continue
			}
			j.AtStop, j.Checked = true, ""
			kept[id] = j
			added = true
		}
	}
	if !added {
		return nil
	}
	return saveState(c, stateVerdicts, kept)
}

// lastName is the clone's record of where the last look of any session
// left the refs. No session's file is named so: a literal id holds no
// '=', and a digest is hex.
const lastName = "=last.tips"

// loadLast answers the tips the last look of any session recorded, and
// when (Unix seconds); false when none did.
func loadLast(c *Call) ([]Tip, int64, bool, error) {
	dir, err := c.Repo.StateDir()
	if err != nil {
		return nil, 0, false, err
	}
	p := filepath.Join(dir, lastName)
	data, err := walk.ReadConfig(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	var last struct {
		At   int64 `json:"at"`
		Tips []Tip `json:"tips"`
	}
	if err := json.Unmarshal(data, &last); err != nil || last.At == 0 {
		return nil, 0, false, nil // cut short: read as none, rewritten
	}
	return last.Tips, last.At, true, nil
}

// saveLast records now as where the last look left the refs.
func saveLast(c *Call, now []Tip) error {
	dir, err := c.Repo.StateDir()
	if err != nil {
		return err
	}
	data, err := json.Marshal(struct {
		At   int64 `json:"at"`
		Tips []Tip `json:"tips"`
	}{time.Now().Unix(), now})
	if err != nil {
		return err
	}
	return walk.ReplaceFile(filepath.Join(dir, lastName), data)
}

// unjudged answers a failure of the judge's own footing — its state under
// the git directory, a ref listing, its scratch space — to the model: after
// a command and at a Stop it blocks with the reason (the command already
// ran; a Stop is held once, stop_hook_active lets the next one through).
// Elsewhere it declines as before.
func (c *Call) unjudged(err error) int {
	// assertion I: the judge's failures reach the model.
	text := fmt.Sprintf("gate-sdk %s: the commits this session makes cannot be judged: %v.\n"+
		"Until this is repaired nothing committed is checked after the fact. Put back what was changed under the git directory "+
		"(the judge keeps its state in the directory .git/%s, and `git show-ref --head` must list every ref), then run `git status` so the judge starts again; "+
		"do not work around it.", c.Member, err, stateDirName)
	return c.tell(text, err)
}

// tell hands text to the model where the event lets a hook speak to it
// after the fact (PostToolUse's reason, a Stop held once); before a call
// the member declines with err, as every member does.
func (c *Call) tell(text string, err error) int {
	switch c.Payload.Event() {
	case PostToolUse:
		fmt.Fprintln(c.Stdout, Feedback(text))
	case Stop, SubagentStop:
		fmt.Fprintln(c.Stdout, RefuseStop(text))
	default:
		return c.Decline(err.Error())
	}
	fmt.Fprintln(c.Stderr, text)
	return Allow
}

// gatesFailed answers gates that could not be run at all (a registry or
// knob file that does not resolve, a change git cannot list) after an
// edit or at a Stop: the model is told what stands in the way, since
// nothing it leaves uncommitted is judged until it is repaired and the
// git hooks refuse every commit meanwhile.
func (c *Call) gatesFailed(err error) int {
	// assertion R (stop-gates), P (edit-gates): the gates' own failure
	// reaches the model.
	text := fmt.Sprintf("gate-sdk %s: the gates could not judge the change: %v\n"+
		"Nothing uncommitted is checked, and the git hooks refuse every commit, until what it names is repaired "+
		"(a registry or knob file: `git diff` shows what changed); repair it, then go on.", c.Member, strings.TrimRight(err.Error(), "\n"))
	return c.tell(text, err)
}

// stateDirName is the state directory's name under the git directory, as
// the messages spell it (the command line's StateDirName).
const stateDirName = "gates-agent"

func auditAfter(c *Call) int {
	var before, base []Tip
	hadBefore, err := loadState(c, stateTips, &before)
	if err != nil {
		return c.unjudged(err)
	}
	hadBase, err := loadState(c, stateBase, &base)
	if err != nil {
		return c.unjudged(err)
	}
	now, err := c.Repo.Tips()
	if err != nil {
		return c.unjudged(err)
	}
	if !hadBefore {
		before = base
	}
	// assertion P: a commit the command wrote and no ref holds now (left
	// behind, or pushed past the hooks) is judged as a new one.
	var loose []string
	if hadBefore {
		// assertion P: the look starts where the last one began (a Stop's,
		// another session's) when that is earlier than this command's
		// record: what a background job wrote in between counts.
		since, st := startScan(c, tipsStamp(c), false)
		if loose, err = madeOnNoRef(c, now, since); err != nil {
			st.drop()
			return c.unjudged(err)
		}
		st.done()
	}
	// assertion B: no ref moved: nothing to judge, one ref listing spent.
	if (hadBefore || hadBase) && sameTips(before, now) && !pushedDuring(c) && len(loose) == 0 {
		return Allow
	}
	if !hadBefore && !hadBase {
		// Nothing recorded before: from here on.
		if err := recordTips(c, now); err != nil {
			return c.unjudged(err)
		}
		return Allow
	}
	js, kept, left, err := judgeNew(c, now, known(before, base), loose)
	if err != nil {
		return c.unjudged(err)
	}
	// The status line shows no red commit a later one repaired (stop-gates
	// D, --statusline F); the commits this command made are still named.
	if repaired(c, kept, now) {
		if err := saveState(c, stateVerdicts, kept); err != nil {
			return c.unjudged(err)
		}
	}
	if err := saveState(c, stateTips, now); err != nil {
		return c.unjudged(err)
	}
	if err := saveLast(c, now); err != nil {
		return c.unjudged(err)
	}
	var reds []*judged
	named := map[string]bool{}
	for _, j := range js {
		if len(j.Red) > 0 {
			reds = append(reds, j)
			named[j.ID] = true
		}
	}
	// assertion K: a red commit named before, taken off the refs here by
	// a command that sent it to a repository it names, is named again.
	gone, err := carriedOut(c, kept, before, now)
	if err != nil {
		return c.unjudged(err)
	}
	for _, j := range gone {
		if !named[j.ID] {
			reds = append(reds, j)
		}
	}
	if len(reds) == 0 {
		if left > 0 {
			fmt.Fprintln(c.Stdout, Feedback(notJudged(left)))
		}
		return Allow
	}
	place(c, reds, now)
	// assertion C: a red commit is named by its short id, with the gate,
	// the findings and the remedy, after the command that made it.
	text := "gate-sdk commit-audit: a commit the gates refuse has landed.\n" + redReport(reds)
	if left > 0 {
		text += "\n" + notJudged(left)
	}
	fmt.Fprintln(c.Stdout, Feedback(text))
	return Allow
}

// notJudged tells the model how many new commits wait for a judgement.
func notJudged(n int) string {
	return fmt.Sprintf("gate-sdk commit-audit: %d commits not yet judged (one look judges %d, and more while its time allows); the next command and the next Stop judge more, and a Stop is held while any is left.", n, MaxJudged)
}

// sessionReds judges every commit the session made since its base and
// answers the red ones not yet reported at a Stop, marking them reported.
func sessionReds(c *Call) ([]*judged, int, error) {
	var base []Tip
	ok, err := loadState(c, stateBase, &base)
	if err != nil || !ok {
		return nil, 0, err
	}
	now, err := c.Repo.Tips()
	if err != nil {
		return nil, 0, err
	}
	var from []string
	for _, t := range base {
		from = append(from, t.ID)
	}
	// assertion D: the Stop looks for commits on no ref too, from where
	// the last look began (the session's start when none did): what a
	// background job wrote after the last command is judged here.
	var began time.Time
	var at int64
	if ok, err := loadState(c, stateBaseAt, &at); err != nil {
		return nil, 0, err
	} else if ok && at > 0 {
		began = time.Unix(at, 0)
	}
	since, st := startScan(c, began, true)
	loose, err := madeOnNoRef(c, now, since)
	if err != nil {
		st.drop()
		return nil, 0, err
	}
	js, kept, left, err := judgeNew(c, now, from, loose)
	if err != nil {
		st.drop()
		return nil, 0, err
	}
	st.done()
	if err := saveLast(c, now); err != nil {
		return nil, 0, err
	}
	fixed := repaired(c, kept, now)
	var reds []*judged
	for _, j := range js {
		// assertion D: a red commit a later one repaired (the remedy's
		// "fix each finding in a new commit") no longer holds the turn.
		if len(j.Red) > 0 && !j.AtStop && j.Fixed == "" {
			j.AtStop = true
			reds = append(reds, j)
		}
	}
	if len(reds) > 0 || fixed {
		if err := saveState(c, stateVerdicts, kept); err != nil {
			return nil, 0, err
		}
	}
	if len(reds) > 0 {
		place(c, reds, now)
	}
	return reds, left, nil
}

// SpanJudge is what a Repo may answer besides: the pre-commit hook's red
// results over the change from base to commit id taken as one commit
// (the registry and lists id records, a registry entry or a ban it drops
// judged as a bypass), in process only.
type SpanJudge interface {
	JudgeSpan(id, base string) ([]Red, error)
}

// repaired notes, in kept, which red commits a later commit repaired: a
// commit red for its content alone (a refused message stays in history
// whatever follows it), strictly below the checked-out HEAD, whose
// change from its parent to HEAD, judged as one commit, brings none of
// the pre-commit findings that parent did not already have. It is what
// the remedy "fix each finding in a new commit" leaves, a revert, or a
// fixup not squashed yet. Each red commit is asked once per HEAD; one
// that cannot be judged so stays red. It reports whether kept changed.
func repaired(c *Call, kept map[string]*judged, now []Tip) bool {
	sj, ok := c.Repo.(SpanJudge)
	if !ok {
		return false
	}
	head := ""
	for _, t := range now {
		if t.Ref == "HEAD" {
			head = t.ID
		}
	}
	changed := false
	for id, j := range kept {
		if j == nil || len(j.Red) == 0 || j.Checked == head {
			continue
		}
		fixed := ""
		if head != "" && head != id && contentOnly(j.Red) {
			if below, _, err := c.Repo.Commits([]string{id}, []string{head}, 0, 1); err == nil && len(below) == 0 {
				// assertion D: the agent's later commits, taken together,
				// bring none of the findings back.
				if reds, err := sj.JudgeSpan(head, j.Parent); err == nil && len(spanOwn(sj, reds, j.Parent)) == 0 {
					fixed = head
				}
			}
		}
		if j.Fixed != fixed || j.Checked != head {
			j.Fixed, j.Checked = fixed, head
			changed = true
		}
	}
	return changed
}

// contentOnly reports red results that are all the pre-commit hook's
// findings (code 1), the kind a new commit can take out.
func contentOnly(reds []Red) bool {
	for _, r := range reds {
		if r.Hook != "pre-commit" || r.Code != 1 {
			return false
		}
	}
	return true
}

// spanOwn answers reds less the pre-commit findings the parent's own tree
// already reports (nothing for a root commit's empty parent); a parent
// that cannot be judged takes nothing away.
func spanOwn(sj SpanJudge, reds []Red, parent string) []Red {
	if parent == "" || len(reds) == 0 {
		return reds
	}
	tj, ok := sj.(TreeJudge)
	if !ok {
		return reds
	}
	had, err := tj.JudgeTree(parent)
	if err != nil {
		return reds
	}
	var keep []Red
	for _, r := range reds {
		if r.Hook != "pre-commit" || r.Code != 1 || !heldBy(r, had) {
			keep = append(keep, r)
		}
	}
	return keep
}

// gitDirGuard is PreToolUse on the edit tools: a path inside the git
// directory (its config, hooks, index, HEAD, refs) or inside the hooks git
// runs is refused before the tool writes it.
func gitDirGuard(c *Call) int {
	if c.Payload == nil {
		return c.Decline(c.PayloadErr.Error())
	}
	if c.Payload.HookEventName == ConfigChange {
		return configGuard(c)
	}
	if c.Repo != nil {
		// assertion Q (commit-audit): the settings the session began with
		// are kept from its first call on.
		if err := recordSettings(c); err != nil {
			return c.Decline(err.Error())
		}
	}
	if c.Repo == nil {
		return c.Decline("no repository reader")
	}
	var in editInput
	if !c.Payload.Input(&in) {
		return c.Decline("the payload's tool_input is absent or not an object")
	}
	p := in.FilePath
	if p == "" {
		p = in.NotebookPath
	}
	if p == "" {
		return c.Decline("the payload's tool_input names no file_path")
	}
	// The path as spelled against cwd, and, for a path spelled with ~,
	// against the home directory too: the reference gives file_path
	// absolute and is silent on ~, so both readings are guarded.
	spelled := []string{p}
	if rest, ok := strings.CutPrefix(filepath.ToSlash(p), "~/"); ok || p == "~" {
		if home, err := os.UserHomeDir(); err == nil {
			spelled = append(spelled, filepath.Join(home, filepath.FromSlash(rest)))
		}
	}
	prot, err := c.Repo.Protected()
	if err != nil {
		return c.Decline(err.Error())
	}
	if wr, ok := c.Repo.(WorktreeReader); ok {
		// assertion A: a linked worktree's .git file is git's link to its
		// state, not the edit tools' to repoint.
		for _, w := range wr.Worktrees() {
			prot = append(prot, c.Repo.Canonical(filepath.Join(w.Dir, ".git")))
		}
	}
	for _, s := range spelled {
		if c.Payload.Cwd != "" {
			s = walk.AbsAgainst(c.Payload.Cwd, s)
		}
		canon := c.Repo.Canonical(filepath.Clean(filepath.FromSlash(s)))
		for _, d := range prot {
			if canon == d || strings.HasPrefix(canon, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator)) {
				// assertion A: the git dir and the hooks are not the edit
				// tools' to write, whatever the spelling of the path.
				fmt.Fprintf(c.Stderr, "gate-sdk git-dir-guard: %s lies inside %s, which holds the repository's configuration, hooks and refs; the agent's file tools do not edit it.\n", p, d)
				fmt.Fprintln(c.Stderr, "Change the work tree instead; a change to git's configuration or hooks is the operator's to make.")
				return Block
			}
		}
		if harnessSettings(canon) {
			// assertion B: the harness's settings keep the gates' hooks.
			if why := settingsCut(c, canon); why != "" {
				fmt.Fprintf(c.Stderr, "gate-sdk git-dir-guard: this edit of %s was not made: %s, and the agent's commits would then go unjudged.\n", p, why)
				fmt.Fprintln(c.Stderr, "Keep every gates registration and leave disableAllHooks unset; any other change to the settings is fine. Turning the hooks off is the operator's to do.")
				return Block
			}
		}
	}
	return Allow
}

// hooksCheck is commit-guard's first look: the hooks git will run for a
// commit here against the placed ones. It answers Block (with the repair
// on stderr), or Allow with an advise text to give when nothing else is
// said ("" for none).
func hooksCheck(c *Call, command string) (int, string) {
	if c.Repo == nil {
		return Allow, ""
	}
	if code := cleanCheck(c, command); code != Allow {
		return code, ""
	}
	if code := settingsWriteCheck(c, command); code != Allow {
		return code, ""
	}
	st, err := c.Repo.Hooks()
	if err != nil {
		fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: cannot compare the hooks git runs with the placed ones: %v\n", err)
		return Allow, ""
	}
	if !st.OptedIn {
		// assertion X: a clone that never opted in is told once per
		// session, never blocked.
		var done bool
		ok, err := loadState(c, stateAdvised, &done)
		if err != nil {
			// The note is advice, never a verdict: a session state that
			// cannot be read repeats it and says why.
			fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: cannot read whether this session was told about the hooks: %v\n", err)
		}
		if ok && done {
			return Allow, ""
		}
		return Allow, "gate-sdk commit-guard: this clone has not opted in to the gates' git hooks, so a commit here runs no gate; `gates --install-hooks` places them (commits are still judged after each command)."
	}
	if len(st.Problems) == 0 {
		return Allow, ""
	}
	if st.Other != "" {
		// assertion Z: another hook manager's hooks are what git runs:
		// told once, with a repair that keeps them, never a block.
		var told string
		if ok, err := loadState(c, stateOther, &told); err == nil && ok && told == st.Other {
			return Allow, ""
		}
		c.advised = func() {
			if err := saveState(c, stateOther, st.Other); err != nil {
				fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: cannot keep the session's state: %v\n", err)
			}
		}
		return Allow, fmt.Sprintf("gate-sdk commit-guard: git runs the hooks in %s (another hook manager's, such as husky's) in place of the gates' hooks, so a commit here runs no gate before it lands; commits are still judged after each command. %s", st.Other, st.Chain)
	}
	low := strings.ToLower(command)
	if strings.Contains(low, "--install-hooks") || st.Repair != "" && strings.Contains(command, st.Repair) {
		// The repair itself (or one in the making) runs.
		return Allow, ""
	}
	// assertion W: an opted-in clone whose hooks git would not run blocks
	// every command but the repair, naming it.
	fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: the git hooks of this clone are not the ones placed: %s.\n", strings.Join(st.Problems, "; "))
	fmt.Fprintf(c.Stderr, "Run %s to put them back, then run the command again.\n", st.Repair)
	return Block, ""
}

// cleanCheck stops a `git clean -x` (or -X) that would delete the gates
// binary, and a `git stash --all` that would put it away in the stash:
// every git hook and agent hook runs it, and once it is gone the agent
// hooks cannot even say so (nor let the stash be popped). The block names
// the spelling that keeps it.
func cleanCheck(c *Call, command string) int {
	if !strings.Contains(command, "clean") && !strings.Contains(command, "stash") {
		return Allow
	}
	v, err := InspectAt(command, func(dir string) bool { return elsewhere(c, dir) })
	if err != nil || len(v.Cleans) == 0 {
		return Allow
	}
	bin, top, err := c.Repo.Binary()
	if err != nil {
		return Allow
	}
	rel, ok := walk.RelUnder(walk.NormalizeAbs(top), walk.NormalizeAbs(bin))
	if !ok || rel == "" {
		return Allow
	}
	if _, err := os.Stat(bin); err != nil {
		return Allow
	}
	for _, cl := range v.Cleans {
		if cl.Stash {
			// assertion V: a stash of ignored files takes the binary off
			// the disk, and the hooks' scratch directory, which they
			// write again before the stash could be popped (the pop then
			// fails); a pathspec that leaves both out keeps them.
			keep := []string{rel}
			if sc := hooksScratch(top); sc != "" {
				keep = append(keep, sc)
			}
			taken := false
			var specs []string
			for _, k := range keep {
				taken = taken || cleanTakes(c, top, walk.Child(top, k), k, cl)
				specs = append(specs, "':!/"+k+"'")
			}
			if !taken {
				continue
			}
			also := ""
			if len(keep) > 1 {
				also = fmt.Sprintf(" (with %s, the hooks' scratch, which they write again, so the stash would not pop)", keep[1])
			}
			fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: this command was not run: its git stash --all would take %s, the gates binary that the git hooks and these agent hooks run, off the disk into the stash%s, and leave the repository unguarded.\n", rel, also)
			fmt.Fprintf(c.Stderr, "Keep them: leave them out with pathspecs (for example `git stash push --all -- %s`), then run it again.\n", strings.Join(specs, " "))
			return Block
		}
		// assertion V: a clean that would take the binary is stopped.
		if !cleanTakes(c, top, bin, rel, cl) {
			continue
		}
		switch {
		case cl.Only:
			// Under -X an -e pattern adds to the ignore rules, so the
			// file it names is removed; its negation keeps it.
			fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: this command was not run: its git clean would delete %s, the gates binary that the git hooks and these agent hooks run, and leave the repository unguarded.\n", rel)
			fmt.Fprintf(c.Stderr, "Keep the binary: add `-e '!/%s'` to the clean (under -X a plain -e pattern is one more file to remove; for example `git clean -fdX -e '!/%s'`), then run it again.\n", rel, rel)
		default:
			fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: this command was not run: its git clean would delete %s, the gates binary that the git hooks and these agent hooks run, and leave the repository unguarded.\n", rel)
			fmt.Fprintf(c.Stderr, "Keep the binary: add `-e /%s` to the clean (for example `git clean -fdx -e /%s`), then run it again.\n", rel, rel)
		}
		return Block
	}
	return Allow
}

// cleanTakes reports that the clean cl, run from the payload's directory,
// would remove the binary at bin (rel under top).
func cleanTakes(c *Call, top, bin, rel string, cl Clean) bool {
	dir := c.Payload.Cwd
	if dir == "" {
		dir = top
	}
	if cl.Dir != "" {
		dir = walk.AbsAgainst(dir, cl.Dir)
	}
	// A clean works below its directory; a stash over the whole tree
	// wherever it is run.
	if r, ok := walk.RelUnder(walk.NormalizeAbs(dir), walk.NormalizeAbs(bin)); !cl.Stash && (!ok || r == "") {
		return false
	}
	positive, hit := false, false
	for _, p := range cl.Paths {
		spec, exclude, fromTop := pathspecMagic(p)
		base := dir
		if fromTop {
			base = top
		}
		covers := strings.ContainsAny(spec, "*?[")
		if !covers {
			_, covers = walk.RelUnder(walk.NormalizeAbs(walk.AbsAgainst(base, spec)), walk.NormalizeAbs(bin))
		}
		if exclude {
			if covers && !strings.ContainsAny(spec, "*?[") {
				return false // the pathspec leaves the binary out
			}
			continue
		}
		positive = true
		hit = hit || covers
	}
	if positive && !hit {
		return false
	}
	// The last -e pattern that names the binary decides: under -x it
	// keeps what it names; under -X it adds to the ignore rules, which is
	// what goes, and only its negation keeps the file.
	spared := false
	for _, e := range cl.Excludes {
		if neg, ok := strings.CutPrefix(e, "!"); ok {
			if excludesExactly(neg, rel) {
				spared = cl.Only
			}
			continue
		}
		if excludes(e, rel) {
			spared = !cl.Only
		}
	}
	return !spared
}

// hooksScratch answers the hooks' own scratch directory under top (the
// default GATE_SDK_TMP_DIR, which ignores itself), or "" when there is
// none.
func hooksScratch(top string) string {
	const dir = ".tmp" // consumer-value-exempt: the default GATE_SDK_TMP_DIR, which the hooks create with a "*" ignore of its own
	data, err := walk.ReadConfig(walk.Child(walk.Child(top, dir), ".gitignore"))
	if err != nil || string(data) != walk.TmpIgnoreBody {
		return ""
	}
	return dir
}

// pathspecMagic answers a pathspec's path with its magic read: git's
// short `:!p` / `:^p` and long `:(exclude)p` exclude it, `:/p` (or top)
// reads it from the top; other magic words are kept out of the path.
func pathspecMagic(p string) (spec string, exclude, fromTop bool) {
	rest, ok := strings.CutPrefix(p, ":")
	if !ok {
		return p, false, false
	}
	if words, after, ok := strings.Cut(strings.TrimPrefix(rest, "("), ")"); ok && strings.HasPrefix(rest, "(") {
		for _, w := range strings.Split(words, ",") {
			switch w {
			case "exclude":
				exclude = true
			case "top":
				fromTop = true
			}
		}
		return after, exclude, fromTop
	}
	for rest != "" {
		switch rest[0] {
		case '!', '^':
			exclude = true
		case '/':
			fromTop = true
		case ':':
			return rest[1:], exclude, fromTop
		default:
			return rest, exclude, fromTop
		}
		rest = rest[1:]
	}
	return rest, exclude, fromTop
}

// excludesExactly reports that the gitignore pattern pat names rel
// itself (a negation cannot bring back a file whose directory is
// excluded, so a directory above rel does not count).
func excludesExactly(pat, rel string) bool {
	pat = strings.TrimSuffix(pat, "/")
	// path-dialect-exempt: a gitignore pattern's leading slash anchors it to the top; the pattern is no filesystem location.
	anchored := strings.HasPrefix(pat, "/")
	pat = strings.TrimPrefix(pat, "/")
	if ok, _ := path.Match(pat, rel); ok && pat != "" {
		return true
	}
	if !anchored && !strings.Contains(pat, "/") {
		ok, _ := path.Match(pat, path.Base(rel))
		return ok && pat != ""
	}
	return false
}

// excludes reports that the -e pattern pat (gitignore syntax, read from
// the top) covers rel or a directory above it.
func excludes(pat, rel string) bool {
	pat = strings.TrimSuffix(pat, "/")
	// path-dialect-exempt: a gitignore pattern's leading slash anchors it to the top; the pattern is no filesystem location.
	anchored := strings.HasPrefix(pat, "/")
	pat = strings.TrimPrefix(pat, "/")
	if pat == "" {
		return false
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		if ok, _ := path.Match(pat, prefix); ok {
			return true
		}
		if !anchored && !strings.Contains(pat, "/") {
			if ok, _ := path.Match(pat, parts[i]); ok {
				return true
			}
		}
	}
	return false
}

// markAdvised notes that the session was told it has not opted in.
func markAdvised(c *Call) {
	if c.advised != nil {
		c.advised()
		return
	}
	if err := saveState(c, stateAdvised, true); err != nil {
		fmt.Fprintf(c.Stderr, "gate-sdk commit-guard: cannot keep the session's state: %v\n", err)
	}
}

// SessionRed answers this session's commits the members judged red, full
// id to short id, from the kept verdicts in stateDir (none when the
// session kept none or its record is unreadable).
func SessionRed(stateDir, session string) map[string]string {
	data, err := walk.ReadConfig(stateName(stateDir, session, stateVerdicts))
	if err != nil {
		return nil
	}
	kept := map[string]*judged{}
	if json.Unmarshal(data, &kept) != nil {
		return nil
	}
	out := map[string]string{}
	for id, j := range kept {
		if j != nil && len(j.Red) > 0 && j.Fixed == "" {
			out[id] = j.Short
		}
	}
	return out
}

// SessionUnjudged answers how many commits the session's last judgement
// left unjudged (0 when none or unknown).
func SessionUnjudged(stateDir, session string) int {
	data, err := walk.ReadConfig(stateName(stateDir, session, stateUnjudged))
	if err != nil {
		return 0
	}
	var ids []string
	if json.Unmarshal(data, &ids) != nil {
		return 0
	}
	return len(ids)
}

// SessionRedCommits answers the short ids of the commits this session made
// that the members judged red, read from the session's kept verdicts in
// stateDir (none when the session kept none, or its record is unreadable:
// the status line that asks must render regardless).
func SessionRedCommits(stateDir, session string) []string {
	var red []string
	for _, short := range SessionRed(stateDir, session) {
		red = append(red, short)
	}
	sort.Strings(red)
	return red
}
