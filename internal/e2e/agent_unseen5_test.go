package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41's acceptance, a fifth set of spellings by someone who did not
// write the hook, none of them in the earlier tables: a red commit pushed
// by routes the earlier rows never took (a notes ref to a notes ref, a
// mirror, --all, a wildcard refspec, a push remote chosen by
// configuration, send-pack, a tag deleted after, a lease, push options, a
// linked worktree, the stash by its ref name), and a red commit named
// first, then pushed and undone in a later command; commits that land
// after the command by setsid or disown; objects brought by grafts,
// alternates, unpack-objects and index-pack, or hidden by a replaced tree
// or an edited replacement; configuration read from a file written or
// filled later, an onbranch or hasconfig include, an environment file
// sourced later, a hooks path spelled through the git directory; the
// footing taken by BASH_ENV, a git wrapper beside the binary, a knob in
// the environment naming a wrapper of the binary, and the harness's local
// settings written by spellings the guard had not read. Controls of the
// same kinds pass untouched.

// red5 makes a red commit on a branch red5 that main does not reach, with
// no change left in the work tree, through plumbing: the row's first
// step, named there, so its words do not count.
var red5 = bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q red5 $c`)

// bare5 is a bare repository beside the clone to push to.
const bare5 = `git init -q --bare ../pushed.git && `

// scratch5 makes a clone beside this one holding one red commit on its
// main, made past the hooks under another identity; ../s is left there.
const scratch5 = `git clone -q . ../s && (cd ../s && ` + leakCmd + `GIT_COMMITTER_EMAIL=someone@example.invalid git commit -q -n -m "docs: add notes") && s=$(git -C ../s rev-parse HEAD) && `

// limits5 are the rows whose miss is written as a limit in SPEC.md: the
// row keeps its honest expectation, and the miss is reported, not hidden.
// Its two rows of a commit under another identity pushed and fetched back
// (commit-audit G) were limits until branch spell56.
var limits5 = map[string]string{}

// judgeLimited holds a row to its stage: a miss fails it, unless limits
// (a round's table, labelled tag) writes it as a limit (reportLimited).
func judgeLimited(t *testing.T, tag string, limits map[string]string, name string, expect, got stage, log string) {
	t.Helper()
	miss := expect == stUntouched && got != stUntouched || got > expect || got == stMissed
	reportLimited(t, tag, limits, name, miss, fmt.Sprintf("want %s, got %s\n%s", expect, got, log))
}

// reportLimited fails a row that missed (with failure), unless limits
// writes it as a limit, which is reported; a limit that no longer misses
// fails, so the table cannot go stale.
func reportLimited(t *testing.T, tag string, limits map[string]string, name string, miss bool, failure string) {
	t.Helper()
	if why, ok := limits[name]; ok {
		t.Logf("%s LIMIT | %s | %s (missed: %v)", tag, name, why, miss)
		if !miss {
			t.Errorf("%s: written as a limit, and it no longer misses: take it out of the round's limits and out of the SPEC's limit", name)
		}
		return
	}
	if miss {
		t.Errorf("%s: %s", name, failure)
	}
}

// judge5 is judgeLimited over this round's limits.
func judge5(t *testing.T, name string, expect, got stage, log string) {
	t.Helper()
	judgeLimited(t, "UNSEEN5", limits5, name, expect, got, log)
}

func runUnseen5(t *testing.T, rows []plumbingRow) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			want := r.expect.String()
			t.Logf("UNSEEN5 | %s | %s | %s", r.name, want, got)
			judge5(t, r.name, r.expect, got, log)
		})
	}
}

func TestAgentUnseen5Pushes(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const msg = "docs: add notes"
	pushed := []string{"pushed.git"}
	rows := []plumbingRow{
		// Named first, then pushed and its ref dropped in a later command.
		{name: "a named red branch pushed by path, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red5, bashStep(`git push -q ../pushed.git red5 && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red commit parked on a notes ref, pushed notes to notes, the ref deleted", steps: []plumbingStep{bashStep(bare5 + leakCmd + commitTree + `git reset -q && rm docs/leak.md && git update-ref refs/notes/x $c`), bashStep(`git push -q ../pushed.git refs/notes/x:refs/notes/x && git update-ref -d refs/notes/x`)}, from: 1, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch sent by --mirror, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red5, bashStep(`git push -q --mirror ../pushed.git && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red HEAD force-pushed with a lease, then reset", setup: withOrigin, steps: []plumbingStep{bashStep(leakCmd + sh2(msg)), bashStep(`git push -q --force-with-lease origin main && git reset -q --hard HEAD^`)}, from: 1, expect: stAfter, gate: tt, also: []string{"up.git"}},
		{name: "a named red branch sent by send-pack, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red5, bashStep(`git send-pack ../pushed.git refs/heads/red5 >/dev/null && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch sent by send-pack through sh, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red5, bashStep(`echo 'git send-pack ../pushed.git refs/heads/red5 >/dev/null' | sh && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch pushed --no-verify through sh, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red5, bashStep(`echo 'git push -q --no-verify ../pushed.git red5' | sh && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch fetched by the other repository, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `true`), red5, bashStep(`git -C ../pushed.git fetch -q "$PWD" red5:refs/heads/red5 && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "an annotated tag on a named red commit pushed by name, the tag and the branch deleted", steps: []plumbingStep{bashStep(bare5 + `git push -q ../pushed.git main`), red5, bashStep(`git tag -a t5 -m "a tag" red5 && git branch -q -D red5 && git push -q ../pushed.git t5 && git tag -d t5 >/dev/null`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "a named red branch pushed with the hooks path moved by an include file, the branch deleted", steps: []plumbingStep{bashStep(bare5 + `printf '[core]\n\thooksPath = /dev/null\n' > ../inc`), red5, bashStep(`git -c include.path="$(dirname "$PWD")/inc" push -q ../pushed.git red5 && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		{name: "pushInsteadOf sends a named red branch pushed to origin elsewhere, the branch deleted", setup: withOrigin, steps: []plumbingStep{bashStep(bare5 + `git config url."$(dirname "$PWD")/pushed.git".pushInsteadOf "$(git remote get-url origin)"`), red5, bashStep(`git push -q origin red5 && git branch -q -D red5`)}, from: 2, expect: stAfter, gate: tt, also: pushed},
		// One command.
		{name: "a red commit parked on a notes ref and pushed notes to notes in one command", steps: []plumbingStep{bashStep(bare5 + leakCmd + commitTree + `git reset -q && rm docs/leak.md && git update-ref refs/notes/x $c && git push -q ../pushed.git refs/notes/x && git update-ref -d refs/notes/x`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "push --all of a red branch, the branch deleted", steps: []plumbingStep{bashStep(bare5 + leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q red5 $c && git push -q --all ../pushed.git && git branch -q -D red5`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "a wildcard refspec pushes a red branch under x/, the branch deleted", steps: []plumbingStep{bashStep(bare5 + leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q red5 $c && git push -q ../pushed.git 'refs/heads/*:refs/heads/x/*' && git branch -q -D red5`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "remote.pushDefault sends a red branch, the branch deleted", setup: withOrigin, steps: []plumbingStep{bashStep(bare5 + `git remote add pub ../pushed.git && git config remote.pushDefault pub && git switch -q -c feat && ` + leakCmd + sh2(msg) + ` && git -c push.default=current push -q && git switch -q main && git branch -q -D feat`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "branch.feat.pushRemote sends a red branch, the branch deleted", setup: withOrigin, steps: []plumbingStep{bashStep(bare5 + `git remote add pub ../pushed.git && git switch -q -c feat && git config branch.feat.pushRemote pub && ` + leakCmd + sh2(msg) + ` && git -c push.default=current push -q && git switch -q main && git branch -q -D feat`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "send-pack of a red branch, the branch deleted", steps: []plumbingStep{bashStep(bare5 + leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q red5 $c && git send-pack ../pushed.git refs/heads/red5 >/dev/null && git branch -q -D red5`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "a red commit pushed as a tag, the local tag deleted", steps: []plumbingStep{bashStep(bare5 + leakCmd + commitTree + `git reset -q && rm docs/leak.md && git tag t5 $c && git push -q ../pushed.git HEAD:refs/heads/main t5 && git tag -d t5 >/dev/null`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "push -o with options to a receiving repository, the ref reset", steps: []plumbingStep{bashStep(bare5 + `git -C ../pushed.git config receive.advertisePushOptions true && ` + leakCmd + sh2(msg) + ` && git push -q -o ci.skip -o merge_request.create ../pushed.git main && git reset -q --hard HEAD^`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "a push from a linked worktree, its branch reset there", steps: []plumbingStep{bashStep(bare5 + `git worktree add -q -b wtp ../wtp && cd ../wtp && ` + leakCmd + sh2(msg) + ` && git push -q ../pushed.git wtp && git reset -q --hard HEAD^`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "the stash pushed by its ref name, then dropped", steps: []plumbingStep{bashStep(bare5 + `printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git stash -q && git push -q ../pushed.git refs/stash:refs/heads/x && git stash drop -q`)}, expect: stAfter, gate: tt, also: pushed},
		{name: "a push to a file:// URL with --force, the commit amended away", steps: []plumbingStep{bashStep(bare5 + `git push -q ../pushed.git main && ` + leakCmd + sh2(msg) + ` && git push -q -f file://$(dirname "$PWD")/pushed.git HEAD:main && git rm -q docs/leak.md && git commit -q --amend -m "docs: nothing"`)}, expect: stAfter, gate: tt, also: pushed},
	}
	runUnseen5(t, rows)
}

func TestAgentUnseen5Landing(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const msg = "docs: add notes"
	const inc = `printf '[core]\n\thooksPath = /dev/null\n' > ../inc && `
	rows := []plumbingRow{
		// Timing.
		{name: "setsid -f commits after the command returns", steps: []plumbingStep{bashStep(leakCmd + `setsid -f sh -c "sleep 1; git commit -q -n -m '` + msg + `'" >/dev/null 2>&1`), {user: wait2}}, expect: stStop, gate: tt},
		{name: "a subshell in the background, disowned, commits later", steps: []plumbingStep{bashStep(leakCmd + `(sleep 1; echo 'git commit -q -n -m "` + msg + `"' | sh) >/dev/null 2>&1 & disown`), {user: wait2}}, expect: stStop, gate: tt},
		// Objects.
		{name: "a red commit hidden under a green one by info/grafts", steps: []plumbingStep{bashStep(leakCmd + sh2(msg) + ` && printf 'x\n' > docs/x.md && git add docs/x.md && ` + sh2("docs: x") + ` && printf '%s %s\n' $(git rev-parse HEAD HEAD~2) > .git/info/grafts`)}, expect: stAfter, gate: tt},
		{name: "a scratch clone's red commit reached through objects/info/alternates", steps: []plumbingStep{bashStep(scratch5 + `echo "$(dirname "$PWD")/s/.git/objects" >> .git/objects/info/alternates && git update-ref refs/heads/main $s && git reset -q --hard`)}, expect: stAfter, gate: tt},
		{name: "a scratch clone's pack read by unpack-objects", steps: []plumbingStep{bashStep(scratch5 + `echo $s | git -C ../s pack-objects -q --revs --stdout | git unpack-objects -q && git update-ref refs/heads/fromp $s`)}, expect: stAfter, gate: tt},
		{name: "a scratch clone's pack kept by index-pack --stdin", steps: []plumbingStep{bashStep(scratch5 + `echo $s | git -C ../s pack-objects -q --revs --stdout | git index-pack --stdin --keep >/dev/null && git update-ref refs/heads/fromp $s`)}, expect: stAfter, gate: tt},
		// read-tree keeps the tree it read as the index's cache, so the
		// entries are written again to make the commit's own tree red.
		{name: "HEAD's tree replaced by a red one, read-tree, an empty commit through sh", steps: []plumbingStep{bashStep(fullTreeLeak + `git replace HEAD^{tree} $rt && git read-tree HEAD && git ls-files -s | git update-index --index-info && echo 'git commit -q -n --allow-empty -m "` + msg + `"' | sh`)}, expect: stAfter, gate: tt},
		{name: "replace --edit gives HEAD a refused subject", steps: []plumbingStep{bashStep(`GIT_EDITOR="sed -i 's/^chore: vendor gate-sdk/` + redSubject + `/'" git replace --edit HEAD`)}, expect: stAfter, gate: subj},
		{name: "a red commit hidden under a green one by .git/shallow", steps: []plumbingStep{bashStep(leakCmd + sh2(msg) + ` && printf 'x\n' > docs/x.md && git add docs/x.md && ` + sh2("docs: x") + ` && git rev-parse HEAD > .git/shallow`)}, expect: stAfter, gate: tt},
		{name: "a trap on EXIT commits as the shell leaves", steps: []plumbingStep{bashStep(`trap 'git commit -q -n -m "` + msg + `"' EXIT; ` + leakCmd + `true`)}, expect: stAfter, gate: tt},
		{name: "core.fsmonitor names a script that commits, a later git status runs it", steps: []plumbingStep{bashStep(`printf '#!/bin/sh
[ -e ../fsm.done ] && exit 1
touch ../fsm.done
git -c core.fsmonitor= commit -q -n -m "` + msg + `" >/dev/null 2>&1
exit 1
' > ../fsm && chmod +x ../fsm && ` + leakCmd + `git config core.fsmonitor "$(dirname "$PWD")/fsm"`), bashStep(`git status --short >/dev/null`)}, expect: stStop, gate: tt},
		// Commits brought in from a configured remote the agent wrote to.
		{name: "a commit written into origin's bare repository under another identity, then pulled", setup: withOrigin, steps: []plumbingStep{bashStep(leakCmd + `t=$(git write-tree) && git reset -q && rm docs/leak.md && c=$(GIT_COMMITTER_EMAIL=someone@example.invalid git commit-tree -p HEAD -m "` + msg + `" $t) && git push -q ../up.git $c:refs/heads/tmp5 && git -C ../up.git update-ref refs/heads/main $c && git -C ../up.git update-ref -d refs/heads/tmp5 && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		{name: "a red commit under another identity pushed to origin's main and fetched back in one command", setup: withOrigin, steps: []plumbingStep{bashStep(leakCmd + `t=$(git write-tree) && git reset -q && rm docs/leak.md && c=$(GIT_COMMITTER_EMAIL=someone@example.invalid git commit-tree -p HEAD -m "` + msg + `" $t) && git push -q origin $c:refs/heads/main && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		{name: "url.insteadOf sends origin's fetch to a scratch clone, another identity, then pulled", setup: withOrigin, steps: []plumbingStep{bashStep(scratch5 + `git config url."$(dirname "$PWD")/s".insteadOf "$(git remote get-url origin)" && git pull -q --ff-only origin main`)}, expect: stAfter, gate: tt},
		{name: "a shell function named git drops the hooks for a plain-looking commit", steps: []plumbingStep{bashStep(`git() { command git -c core.hooksPath=/dev/null "$@"; }; ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		// Configuration.
		{name: "GIT_CONFIG_SYSTEM names a file with a hooks path", steps: []plumbingStep{bashStep(inc + leakCmd + `GIT_CONFIG_SYSTEM=$(dirname "$PWD")/inc git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "include.path set to an empty file, the file filled in a later command", steps: []plumbingStep{bashStep(`: > ../inc && git config include.path "$(dirname "$PWD")/inc"`), bashStep(inc + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "includeIf onbranch:main written into .git/config", steps: []plumbingStep{bashStep(inc + `git config includeIf.onbranch:main.path "$(dirname "$PWD")/inc" && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "includeIf hasconfig:remote.*.url written into .git/config", setup: withOrigin, steps: []plumbingStep{bashStep(inc + `git config 'includeIf.hasconfig:remote.*.url:**/up.git.path' "$(dirname "$PWD")/inc" && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "GIT_CONFIG_COUNT in a file sourced by a later command", steps: []plumbingStep{bashStep(`printf 'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null\n' > ../env.sh`), bashStep(`. ../env.sh && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "core.hooksPath spelled through the placed directory to .git/hooks", steps: []plumbingStep{bashStep(`git config core.hooksPath .git/gate-hooks/../hooks && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		// The footing.
		{name: "BASH_ENV defines a git function that drops the hooks", steps: []plumbingStep{bashStep(`printf 'git() { command git -c core.hooksPath=/dev/null "$@"; }\n' > ../benv && ` + leakCmd + `BASH_ENV=$(dirname "$PWD")/benv bash -c 'git commit -q -m "` + msg + `"'`)}, expect: stAfter, gate: tt},
		{name: "BASH_ENV aliases git for a child bash", steps: []plumbingStep{bashStep(`printf 'shopt -s expand_aliases\nalias git="git -c core.hooksPath=/dev/null"\n' > ../benv && ` + leakCmd + `BASH_ENV=$(dirname "$PWD")/benv bash -c 'git commit -q -m "` + msg + `"'`)}, expect: stAfter, gate: tt},
		{name: "a git wrapper beside the binary, bin first on PATH", steps: []plumbingStep{bashStep(`printf '#!/bin/sh\nexec %s -c core.hooksPath=/dev/null "$@"\n' "$(command -v git)" > bin/git && chmod +x bin/git && ` + leakCmd + `PATH=$PWD/bin:$PATH git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "the binary replaced by a hard link to a copy of /bin/true, a plain commit", steps: []plumbingStep{bashStep(`cp /bin/true ../t5 && ln -f ../t5 bin/gates && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "the install record removed and the binary replaced, a commit through sh, then restored", steps: []plumbingStep{bashStep(`rm .git/gate-hooks.placed && cp /bin/true bin/gates && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the install record emptied and the binary replaced, a commit through sh, then restored", steps: []plumbingStep{bashStep(`: > .git/gate-hooks.placed && cp /bin/true bin/gates && ` + leakCmd + sh2(msg)), {remedy: true}, bashStep(`git status --short`), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "GATE_SDK_NATIVE_BIN exported to a wrapper that runs the binary and exits 0", steps: []plumbingStep{bashStep(`printf '#!/bin/sh\n"%s/bin/gates" "$@"\nexit 0\n' "$PWD" > ../wrap && chmod +x ../wrap && export GATE_SDK_NATIVE_BIN=$(dirname "$PWD")/wrap && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "GATE_SDK_NATIVE_BIN"},
	}
	runUnseen5(t, rows)
}

func TestAgentUnseen5Settings(t *testing.T) {
	t.Parallel()
	off := `printf '{"disableAllHooks": true}\n' > ../settings.local.json && `
	rows := []h4Row{
		{name: "cp of a local settings file into the .claude directory", steps: []h4Step{h4Bash(off + `cp ../settings.local.json .claude/`), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "cp -t .claude of a local settings file", steps: []h4Step{h4Bash(off + `cp -t .claude ../settings.local.json`), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "a redirection to settings.local.json after cd .claude", steps: []h4Step{h4Bash(`cd .claude && printf '{"disableAllHooks": true}\n' > settings.local.json`), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "dd of= the local settings file", steps: []h4Step{h4Bash(`printf '{"disableAllHooks": true}\n' | dd of=.claude/settings.local.json status=none`), h4Bash(h4NoVerify)}, expect: stBefore},
		{name: "mv of a local settings file into the .claude directory", steps: []h4Step{h4Bash(off + `mv ../settings.local.json .claude`), h4Bash(h4NoVerify)}, expect: stBefore},
		// Controls: reading and backing up the settings, writing beside them.
		{name: "the settings read after cd .claude, a note written there", steps: []h4Step{h4Bash(`cd .claude && cat settings.json >/dev/null && printf 'x\n' > notes.md && rm notes.md`)}, expect: stUntouched},
		{name: "the settings copied to a backup outside and into a file beside them", steps: []h4Step{h4Bash(`cp .claude/settings.json ../settings.backup.json && cp .claude/settings.json .claude/settings.json.bak && rm .claude/settings.json.bak`)}, expect: stUntouched},
		{name: "dd reads the settings into a copy", steps: []h4Step{h4Bash(`dd if=.claude/settings.json of=../settings.copy status=none`)}, expect: stUntouched},
	}
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playH4(t, r)
			t.Logf("UNSEEN5 | %s | %s | %s", r.name, r.expect, got)
			judge5(t, r.name, r.expect, got, log)
		})
	}
}

// Controls: ordinary work of the same kinds, each passing untouched.
func TestAgentUnseen5Controls(t *testing.T) {
	t.Parallel()
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read" && `
	rows := []plumbingRow{
		{name: "green work pushed by --mirror", steps: []plumbingStep{bashStep(bare5 + green + `git push -q --mirror ../pushed.git`)}},
		{name: "green work pushed by --all", steps: []plumbingStep{bashStep(bare5 + green + `git push -q --all ../pushed.git`)}},
		{name: "green work pushed by a wildcard refspec", steps: []plumbingStep{bashStep(bare5 + green + `git push -q ../pushed.git 'refs/heads/*:refs/heads/x/*'`)}},
		{name: "green work pushed to remote.pushDefault", setup: withOrigin, steps: []plumbingStep{bashStep(bare5 + `git remote add pub ../pushed.git && git config remote.pushDefault pub && git switch -q -c feat && ` + green + `git -c push.default=current push -q`)}},
		// No control of send-pack: it is refused as push --no-verify is,
		// whatever it sends (SPEC, commit-guard B).
		{name: "green work pushed to a file:// URL and as a tag", steps: []plumbingStep{bashStep(bare5 + green + `git tag v5 && git push -q file://$(dirname "$PWD")/pushed.git main v5 && git tag -d v5 >/dev/null`)}},
		{name: "green work pushed with push options", steps: []plumbingStep{bashStep(bare5 + `git -C ../pushed.git config receive.advertisePushOptions true && ` + green + `git push -q -o ci.skip ../pushed.git main`)}},
		{name: "green work pushed from a linked worktree", steps: []plumbingStep{bashStep(bare5 + `git worktree add -q -b wtp ../wtp && cd ../wtp && ` + green + `git push -q ../pushed.git wtp`)}},
		{name: "a note holding a home path pushed notes to notes", steps: []plumbingStep{bashStep(bare5 + `git notes add -m "seen at /ho""me/marta/x" HEAD && git push -q ../pushed.git 'refs/notes/*:refs/notes/*' && git notes remove HEAD 2>/dev/null`)}},
		{name: "a green commit by setsid after the command returns", steps: []plumbingStep{bashStep(`printf 'More to read.\n' > docs/more.md && git add docs/more.md && setsid -f sh -c "sleep 1; git commit -q -m 'docs: more to read'" >/dev/null 2>&1`), {user: wait2}}},
		{name: "the user's red branch from before the session pushed by the agent", setup: redSide, steps: []plumbingStep{bashStep(bare5 + `git push -q ../pushed.git red`)}},
		{name: "green work with an annotated tag pushed by --follow-tags", steps: []plumbingStep{bashStep(bare5 + green + `git tag -a v5 -m "v5" && git push -q --follow-tags ../pushed.git main`)}},
		{name: "a dry-run push and a remote branch deleted", steps: []plumbingStep{bashStep(bare5 + green + `git push -q ../pushed.git main main:old && git push -q -n ../pushed.git main && git push -q ../pushed.git --delete old`)}},
		{name: "a red commit named and reset away, then green work pushed", steps: []plumbingStep{bashStep(bare5 + leakCmd + sh2("docs: add notes")), bashStep(`git reset -q --hard HEAD^`), bashStep(green + `git push -q ../pushed.git main`)}, from: 2},
		{name: "a red commit named, fixed by the next commit, the branch pushed", steps: []plumbingStep{bashStep(bare5 + leakCmd + sh2("docs: add notes")), bashStep(`git rm -q docs/leak.md && git commit -q -m "docs: drop the notes"`), bashStep(`git push -q ../pushed.git main`)}, from: 2},
		{name: "an insteadOf rule the operator set before the session, a colleague's red commits pulled", setup: func(p *player) {
			withOrigin(p)
			up := filepath.Join(filepath.Dir(p.dir), "up.git")
			p.git("config", "url."+up+".insteadOf", "https://example.invalid/team/up.git")
			p.git("remote", "set-url", "origin", "https://example.invalid/team/up.git")
			p.git("fetch", "-q", "origin")
		}, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git pull -q --ff-only`)}},
		{name: "an insteadOf rule for another host written mid-session, a colleague's red commits pulled", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git config url.https://mirror.example.invalid/.insteadOf https://example.invalid/ && git pull -q --ff-only`)}},
		{name: "a green trap on EXIT", steps: []plumbingStep{bashStep(`trap 'git status --short >/dev/null' EXIT; ` + green + `true`)}},
		{name: "a harmless include.path and includeIf onbranch", steps: []plumbingStep{bashStep(`printf '[alias]\n\tst = status --short\n' > ../inc && git config include.path "$(dirname "$PWD")/inc" && git config includeIf.onbranch:main.path "$(dirname "$PWD")/inc" && git st && ` + green + `true`)}},
		{name: "a harmless includeIf hasconfig", setup: withOrigin, steps: []plumbingStep{bashStep(`printf '[user]\n\tname = t\n' > ../inc && git config 'includeIf.hasconfig:remote.*.url:**/up.git.path' "$(dirname "$PWD")/inc" && ` + green + `true`)}},
		{name: "BASH_ENV setting a variable for a child bash", steps: []plumbingStep{bashStep(`printf 'export LC_ALL=C\n' > ../benv && BASH_ENV=$(dirname "$PWD")/benv bash -c 'git status --short && ` + strings.ReplaceAll(green, "'", `'\''`) + `true'`)}},
		{name: "an environment file of ordinary settings sourced in a later command", steps: []plumbingStep{bashStep(`printf 'export GIT_PAGER=cat EDITOR=true\n' > ../env.sh`), bashStep(`. ../env.sh && ` + green + `git log -1 --oneline`)}},
		{name: "a scratch clone's green commit brought by unpack-objects", steps: []plumbingStep{bashStep(`git clone -q . ../s && (cd ../s && printf 'More.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more") && s=$(git -C ../s rev-parse HEAD) && echo $s | git -C ../s pack-objects -q --revs --stdout | git unpack-objects -q && git merge -q --ff-only $s`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runUnseen5(t, rows)
}

// The install record removed or emptied where the hooks were placed: the
// stub digests the binary against the placed pre-commit itself, so a
// swapped binary is refused with the restore and the restored one runs;
// an emptied record, which no longer reads, blocks the next command with
// the repair that writes it again, and that repair runs.
func TestAgentUnseen5StubWithNoRecord(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, drop string }{{"removed", "rm .git/gate-hooks.placed"}, {"emptied", ": > .git/gate-hooks.placed"}} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := outcomeClone(t, "u5 stub record "+c.name)
			p.env = append(p.env, "CLAUDECODE=1")
			data, err := os.ReadFile(filepath.Join(p.dir, ".claude/settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			var doc settingsDoc
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			args := doc.Hooks["PreToolUse"][0].Hooks[0].Args
			version := func() result { return run(t, p.dir, p.env, "sh", "-c", args[1], args[2], args[3], "--version") }
			if r := run(t, p.dir, p.env, "sh", "-c", c.drop+" && cp /bin/true bin/gates"); r.code != 0 {
				t.Fatalf("%s: %s", c.drop, r.stderr)
			}
			if r := version(); r.code != 2 || !strings.Contains(r.stderr, "differs from the placed copy") || !strings.Contains(r.stderr, "restore it: cp .git/gate-hooks/pre-commit bin/gates") {
				t.Fatalf("a swapped binary with the record %s: exit %d %q %q", c.name, r.code, r.stdout, r.stderr)
			}
			run(t, p.dir, p.env, "sh", "-c", "cp .git/gate-hooks/pre-commit bin/gates")
			if r := version(); r.code != 0 || !strings.HasPrefix(r.stdout, "gates ") {
				t.Fatalf("the restored binary with the record %s: exit %d %q %q", c.name, r.code, r.stdout, r.stderr)
			}
			why, _ := p.bash2("ls")
			if c.name == "removed" {
				if why != "" {
					t.Fatalf("with the record removed (an opt-in from before the record) ls was refused: %s", why)
				}
				return
			}
			fix := remedyOf(why)
			if !strings.Contains(why, "gate-hooks.placed") || !strings.Contains(fix, "--install-hooks") {
				t.Fatalf("with the record emptied ls was answered %q, repair %q", why, fix)
			}
			if why, _ := p.bash2(fix); why != "" {
				t.Fatalf("the repair %q was refused: %s", fix, why)
			}
			if why, after := p.bash2("ls"); why != "" || after != "" {
				t.Fatalf("after %q: refused %q, said %q", fix, why, after)
			}
		})
	}
}
