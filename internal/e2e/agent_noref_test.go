package e2e

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Issue 41, Deliver 2: commits outside the local refs count when git
// wrote them into a pack (fast-import, a repack in the same command), and
// when a background job wrote them after the command's own look (named at
// the next Stop, or by the next session's first call). Ordinary work that
// writes packs (gc, repack, a fetch of others' red work, a stash) still
// passes untouched.

// fastImportLeak imports one commit on main holding the leak, into a pack
// (an import of any size past the limit), and keeps its id in $c, its
// ref deleted.
const fastImportLeak = `printf 'commit refs/heads/fi\ncommitter t <t@example.invalid> 1700000000 +0000\ndata <<E\ndocs: add notes\nE\nfrom refs/heads/main^0\nM 644 inline docs/leak.md\ndata <<E\nKeep notes in /ho''me/marta/notes.\nE\n\n' | ` +
	`git -c fastimport.unpackLimit=1 fast-import --quiet && c=$(git rev-parse fi) && git update-ref -d refs/heads/fi && `

// bgLeak starts a job that, once ../go exists, commits the leak on no ref
// (through an index of its own) and pushes it past the hooks, then makes
// ../done.
const bgLeak = `git init -q --bare ../pushed.git; ( while [ ! -e ../go ]; do sleep 0.1; done; ` +
	`export GIT_INDEX_FILE=$PWD/../bg.index; git read-tree HEAD && ` +
	`b=$(printf 'Keep notes in /ho''me/marta/notes.\n' | git hash-object -w --stdin) && git update-index --add --cacheinfo 100644,$b,docs/leak.md && ` +
	`c=$(git commit-tree -p HEAD -m "docs: add notes" $(git write-tree)) && git push -q --no-verify ../pushed.git $c:refs/heads/main; touch ../done ) </dev/null >/dev/null 2>&1 &`

// releaseBg lets the background job go on and waits until it is done.
func releaseBg(p *player) {
	up := filepath.Dir(p.dir)
	if err := os.WriteFile(filepath.Join(up, "go"), nil, 0o644); err != nil {
		p.t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		if _, err := os.Stat(filepath.Join(up, "done")); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatal("the background job did not finish")
}

// hidden runs cmd from a script the command line does not show, so
// nothing before the command can read what it does: only what the
// command leaves behind can name it.
func hidden(cmd string) plumbingStep {
	return bashStep(`echo ` + base64.StdEncoding.EncodeToString([]byte(cmd)) + ` | base64 -d | bash`)
}

// pause lets the clock pass a second, as between an agent's turns (the
// reflogs keep whole seconds).
func pause(*player) { time.Sleep(1100 * time.Millisecond) }

func TestAgentNoRefPacks(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	rows := []plumbingRow{
		{name: "fast-import into a pack, pushed by id, no ref kept", steps: []plumbingStep{hidden(fastImportLeak + `git init -q --bare ../pushed.git && git push -q --no-verify ../pushed.git $c:refs/heads/main`)}, expect: stAfter, gate: tt, also: []string{"pushed.git"}},
		{name: "a red commit repacked in the same command, left on no ref and pushed", steps: []plumbingStep{hidden(leakCmd + commitTree + `git update-ref refs/heads/t $c && git repack -adq && git update-ref -d refs/heads/t && git reset -q && rm docs/leak.md && git init -q --bare ../pushed.git && git push -q --no-verify ../pushed.git $c:refs/heads/main`)}, expect: stAfter, gate: tt, also: []string{"pushed.git"}},
		{name: "a background job commits on no ref and pushes after the command", steps: []plumbingStep{hidden(bgLeak), {user: releaseBg}, {stop: true}}, expect: stStop, gate: tt, also: []string{"pushed.git"}},
		{name: "a background job commits after the last Stop, the next session looks", steps: []plumbingStep{hidden(bgLeak), {stop: true}, {user: releaseBg}, {session: "s-u2-next-after-a-background-job"}, bashStep(`git status --short`)}, expect: stAfter, gate: tt, also: []string{"pushed.git"}},
	}
	runPlumbingRows(t, rows)
}

func TestAgentNoRefPacksOrdinaryWork(t *testing.T) {
	t.Parallel()
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `
	rows := []plumbingRow{
		{name: "gc and repack -ad after own work undone", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" && git reset -q --hard HEAD^`), {user: pause}, bashStep(`git gc -q && git repack -adq`)}},
		{name: "a red commit named and undone, then gc", steps: []plumbingStep{bashStep(leakCmd + sh2("docs: add notes")), bashStep(`git reset -q --hard HEAD^`), {user: pause}, bashStep(`git gc -q && git repack -adfq`)}, from: 2},
		{name: "a fetch of a colleague's red commits into a pack", setup: withOrigin, steps: []plumbingStep{{user: colleague(3, true)}, bashStep(`git -c fetch.unpackLimit=1 fetch -q origin && git -c fetch.unpackLimit=1 pull -q --ff-only`)}},
		{name: "a colleague's red pull request fetched into a pack, FETCH_HEAD only", setup: withOrigin, steps: []plumbingStep{
			{user: func(p *player) {
				colleague(3, true)(p)
				run(p.t, filepath.Join(filepath.Dir(p.dir), "up.git"), p.env, "git", "update-ref", "refs/pull/1/head", "main")
			}}, bashStep(`git -c fetch.unpackLimit=1 fetch -q origin refs/pull/1/head && git log -3 --oneline FETCH_HEAD >/dev/null`)}},
		{name: "a leak stashed, gc, the stash dropped", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git stash -q && git gc -q && git stash drop -q`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}
