package e2e

import (
	"path/filepath"
	"testing"
)

// Issue 41's acceptance, an eighth set of spellings by someone who did
// not write the hook, none of them in the earlier tables: a squash merge
// committed by an alias persisted in the configuration, messages piped to
// -F - (of commit and of commit-tree), refs moved in a for loop, by
// update-ref --no-deref of HEAD and by branch -f of a branch not checked
// out, a reset to a commit built from mktree, cherry-pick -n committed
// through xargs -I, read-tree -m -u, git show redirected, replace
// --graft, commits run by awk, make, env -i, script, timeout, ionice,
// stdbuf, nice and nohup, exec in a subshell, find -exec, until, case,
// coproc, process substitution, a here-string and source of /dev/stdin,
// an abbreviated --no-verify and bundled short options, a hooks path
// hidden in eval, CRLF messages, Windows home paths in a file and in a
// hand-written trailer, a sibling worktree reached by --git-dir and
// --work-tree, merge --no-verify, stash create kept on a branch; and a
// commit under another identity this clone pushed to a remote the
// session began with and fetched back (commit-audit G). Controls of the
// same kinds pass untouched.
//
// A home path spelled with a look-alike letter (a Cyrillic о in
// /hоme/marta/) is not a home path to check-tree-terms' rule, which is a
// POSIX ERE over bytes, nor to the team's battery, which runs the same
// rule: it passes untouched here as there, and widening a gate's rule is
// not the hook's business.

// limits8 are the rows whose miss is written as a limit in SPEC.md: the
// row keeps its honest expectation, and the miss is reported, not hidden.
var limits8 = map[string]string{
	"origin fetches a red commit under another identity from the clone, then pulled": limitFetchedFromHere,
}

// limitFetchedFromHere: no hook of this clone runs when another
// repository fetches from it.
const limitFetchedFromHere = "a commit under another identity written here, fetched by origin from this clone (no push, so no pre-push record) and pulled back in the same command is taken for a colleague's: nothing left here tells it from a colleague's small fetch, whose objects land loose during the command too (SPEC, commit-audit G)"

// leak8 is the leak as one quoted shell word.
const leak8 = `'Keep notes in /ho''me/marta/notes.'`

// red8 makes a red commit on a branch red8 that main does not reach, with
// no change left in the work tree: a row's first step, named there.
var red8 = bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git branch -q red8 $c`)

// green8 stages a green change.
const green8 = `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `

// loose8 makes a red loose commit on HEAD in $c, with nothing left staged
// or in the work tree.
const loose8 = leakCmd + commitTree + `git reset -q && rm docs/leak.md && `

// n8 is a commit past the hooks with a green subject.
const n8 = `git commit -q -n -m "docs: add notes"`

func runUnseen8(t *testing.T, rows []plumbingRow) {
	for _, r := range rows {
		r := r
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			got, log := playPlumbingRow(t, r)
			t.Logf("UNSEEN8 | %s | %s | %s", r.name, r.expect, got)
			judgeLimited(t, "UNSEEN8", limits8, r.name, r.expect, got, log)
		})
	}
}

func TestAgentUnseen8History(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	rows := []plumbingRow{
		{name: "merge --squash of a named red branch, committed by an alias persisted in .git/config", steps: []plumbingStep{red8, bashStep(`git config alias.save 'commit -q -n' && git merge -q --squash red8 && git save -m "docs: squash the notes"`)}, from: 1, expect: stAfter, gate: tt},
		{name: "commit-tree -F - reads a refused subject from a pipe, update-ref main", steps: []plumbingStep{bashStep(`c=$(printf 'wip stuff\n' | git commit-tree -p HEAD -F - HEAD^{tree}) && git update-ref refs/heads/main $c`)}, expect: stAfter, gate: subj},
		{name: "update-ref in a for loop points two branches at a red loose commit", steps: []plumbingStep{bashStep(loose8 + `for r in main side; do git update-ref refs/heads/$r $c; done && git reset -q --hard`)}, expect: stAfter, gate: tt},
		{name: "reset --hard to a commit-tree of a red tree built by hash-object and mktree", steps: []plumbingStep{bashStep(fullTreeLeak + `c=$(git commit-tree -p HEAD -m "docs: add notes" $rt) && git reset -q --hard $c`)}, expect: stAfter, gate: tt},
		{name: "update-ref --no-deref HEAD to a red loose commit", steps: []plumbingStep{bashStep(loose8 + `git update-ref --no-deref HEAD $c && git reset -q --hard`)}, expect: stAfter, gate: tt},
		{name: "branch -f of the side branch to a red loose commit, then switched to", steps: []plumbingStep{bashStep(loose8 + `git branch -q -f side $c && git switch -q side`)}, expect: stAfter, gate: tt},
		{name: "cherry-pick -n of a named red branch, committed through xargs -I", steps: []plumbingStep{red8, bashStep(`git cherry-pick -n red8 && echo "docs: pick the notes" | xargs -I{} git commit -q -n -m {}`)}, from: 1, expect: stAfter, gate: tt},
		{name: "read-tree -m -u from HEAD to a named red branch, commit -n", steps: []plumbingStep{red8, bashStep(`git read-tree -m -u HEAD red8 && git commit -q -n -m "docs: read the notes in"`)}, from: 1, expect: stAfter, gate: tt},
		{name: "git show of a named red branch's file redirected, then commit-tree and update-ref", steps: []plumbingStep{red8, bashStep(`git show red8:docs/leak.md > docs/leak.md && git add docs/leak.md && git update-ref refs/heads/main $(git commit-tree -p HEAD -m "docs: show the notes" $(git write-tree)) && git reset -q --hard`)}, from: 1, expect: stAfter, gate: tt},
		{name: "replace --graft gives HEAD a red loose parent", steps: []plumbingStep{bashStep(loose8 + `git replace --graft HEAD $c`)}, expect: stAfter, gate: tt},
		{name: "stash create of a leak kept on a branch by update-ref", steps: []plumbingStep{bashStep(`printf '%s\n' ` + leak8 + ` >> docs/guide.md && git update-ref refs/heads/st $(git stash create) && git checkout -q -- docs/guide.md`)}, expect: stAfter, gate: tt},
		{name: "merge --no-verify --no-ff of the side branch with a refused subject", steps: []plumbingStep{bashStep(`git merge -q --no-verify --no-ff -m "wip stuff" side`)}, expect: stAfter, gate: subj},
		{name: "a sibling linked worktree reached by --git-dir and --work-tree, commit -n there, merged", steps: []plumbingStep{bashStep(`git worktree add -q -b sib ../sib && gd=$(git -C ../sib rev-parse --absolute-git-dir) && printf '%s\n' ` + leak8 + ` > ../sib/docs/leak.md && git --git-dir="$gd" --work-tree=../sib add docs/leak.md && git --git-dir="$gd" --work-tree=../sib commit -q -n -m "docs: add notes" && git merge -q --ff-only sib`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: merge --squash of the side branch, committed by an alias persisted in .git/config", steps: []plumbingStep{bashStep(`git config alias.save 'commit -q' && git merge -q --squash side && git save -m "docs: take the side note"`)}, expect: stUntouched},
		{name: "control: commit-tree -F - reads a clean subject from a pipe, update-ref main", steps: []plumbingStep{bashStep(`c=$(printf 'docs: mark the release\n' | git commit-tree -p HEAD -F - HEAD^{tree}) && git update-ref refs/heads/main $c`)}, expect: stUntouched},
		{name: "control: update-ref in a for loop points two branches at a green commit", steps: []plumbingStep{bashStep(`c=$(git commit-tree -p HEAD -m "docs: mark the release" HEAD^{tree}) && for r in main rel; do git update-ref refs/heads/$r $c; done`)}, expect: stUntouched},
		{name: "control: reset --hard to a commit-tree of HEAD's tree rebuilt by mktree", steps: []plumbingStep{bashStep(`t=$(git ls-tree HEAD | git mktree) && c=$(git commit-tree -p HEAD -m "docs: mark the release" $t) && git reset -q --hard $c`)}, expect: stUntouched},
		{name: "control: read-tree -m -u from HEAD to the side branch, a commit through the hooks", steps: []plumbingStep{bashStep(`git read-tree -m -u HEAD side && git commit -q -m "docs: take the side note"`)}, expect: stUntouched},
		{name: "control: replace --graft of HEAD onto the side branch, looked at, deleted", steps: []plumbingStep{bashStep(`git replace --graft HEAD side && git log --oneline -3 >/dev/null && git replace -d HEAD >/dev/null`)}, expect: stUntouched},
		{name: "control: a sibling linked worktree reached by --git-dir and --work-tree, a commit through the hooks, merged", steps: []plumbingStep{bashStep(`git worktree add -q -b sib ../sib && gd=$(git -C ../sib rev-parse --absolute-git-dir) && printf 'More.\n' > ../sib/docs/more.md && git --git-dir="$gd" --work-tree=../sib add docs/more.md && git --git-dir="$gd" --work-tree=../sib commit -q -m "docs: more to read" && git merge -q --ff-only sib`)}, expect: stUntouched},
	}
	runUnseen8(t, rows)
}

func TestAgentUnseen8Runners(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	rows := []plumbingRow{
		{name: "awk's system runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `awk 'BEGIN { system("git commit -q -n -m \"docs: add notes\"") }'`)}, expect: stAfter, gate: tt},
		{name: "a Makefile recipe run by make -f runs commit -n", steps: []plumbingStep{bashStep(`printf 'save:\n\tgit commit -q -n -m "docs: add notes"\n' > ../mk && ` + leakCmd + `make -s -f ../mk save`)}, expect: stAfter, gate: tt},
		{name: "env -i with PATH and HOME runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `env -i PATH="$PATH" HOME="$HOME" git -c user.name=t -c user.email=t@example.invalid commit -q -n -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "env -i with PATH and HOME runs a plain commit", steps: []plumbingStep{bashStep(leakCmd + `env -i PATH="$PATH" HOME="$HOME" git -c user.name=t -c user.email=t@example.invalid commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "script -qc runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `script -qc '` + n8 + `' /dev/null >/dev/null`)}, expect: stAfter, gate: tt},
		{name: "timeout 5 runs commit --no-verify", steps: []plumbingStep{bashStep(leakCmd + `timeout 5 git commit -q --no-verify -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "ionice -c3 runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `ionice -c3 ` + n8)}, expect: stAfter, gate: tt},
		{name: "stdbuf -oL runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `stdbuf -oL ` + n8)}, expect: stAfter, gate: tt},
		{name: "nice -n 5 nohup runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `nice -n 5 nohup ` + n8 + ` >/dev/null 2>&1`)}, expect: stAfter, gate: tt},
		{name: "exec of commit -n in a subshell", steps: []plumbingStep{bashStep(leakCmd + `(exec ` + n8 + `)`)}, expect: stAfter, gate: tt},
		{name: "find -maxdepth 0 -exec runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `find . -maxdepth 0 -exec ` + n8 + ` \;`)}, expect: stAfter, gate: tt},
		{name: "until loop around commit -n", steps: []plumbingStep{bashStep(leakCmd + `until ` + n8 + `; do :; done`)}, expect: stAfter, gate: tt},
		{name: "case arm runs commit -n", steps: []plumbingStep{bashStep(leakCmd + `case "$PWD" in *) ` + n8 + `;; esac`)}, expect: stAfter, gate: tt},
		{name: "coproc runs commit -n, waited", steps: []plumbingStep{bashStep(leakCmd + `coproc ` + n8 + `; wait`)}, expect: stAfter, gate: tt},
		{name: "sh reads commit -n from a process substitution", steps: []plumbingStep{bashStep(leakCmd + `sh <(echo '` + n8 + `')`)}, expect: stAfter, gate: tt},
		{name: "source of /dev/stdin fed commit -n by a here-string", steps: []plumbingStep{bashStep(leakCmd + `source /dev/stdin <<< '` + n8 + `'`)}, expect: stAfter, gate: tt},
		{name: "bash fed commit -n by a here-string", steps: []plumbingStep{bashStep(leakCmd + `bash <<< '` + n8 + `'`)}, expect: stAfter, gate: tt},
		{name: "an abbreviated --no-veri", steps: []plumbingStep{bashStep(leakCmd + `git commit -q --no-veri -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "bundled short options -qnm", steps: []plumbingStep{bashStep(leakCmd + `git commit -qnm "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "eval hides config --file .git/config core.hooksPath, then a plain commit", steps: []plumbingStep{bashStep(`eval "git config --file .git/config core.hooks""Path /dev/null" && ` + leakCmd + `git commit -q -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: awk's system runs a green commit through the hooks", steps: []plumbingStep{bashStep(green8 + `awk 'BEGIN { system("git commit -q -m \"docs: more to read\"") }'`)}, expect: stUntouched},
		{name: "control: a Makefile recipe run by make -f commits green work", steps: []plumbingStep{bashStep(`printf 'save:\n\tgit commit -q -m "docs: more to read"\n' > ../mk && ` + green8 + `make -s -f ../mk save`)}, expect: stUntouched},
		{name: "control: env -i with PATH and HOME, a green commit through the hooks", steps: []plumbingStep{bashStep(green8 + `env -i PATH="$PATH" HOME="$HOME" git -c user.name=t -c user.email=t@example.invalid commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: script -qc runs a green commit", steps: []plumbingStep{bashStep(green8 + `script -qc 'git commit -q -m "docs: more to read"' /dev/null >/dev/null`)}, expect: stUntouched},
		{name: "control: timeout, ionice, stdbuf and nice around a green commit", steps: []plumbingStep{bashStep(green8 + `timeout 60 ionice -c3 stdbuf -oL nice git commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: a green commit fed to bash by a here-string", steps: []plumbingStep{bashStep(green8 + `bash <<< 'git commit -q -m "docs: more to read"'`)}, expect: stUntouched},
		{name: "control: a green commit in an until loop and a case arm", steps: []plumbingStep{bashStep(green8 + `until git commit -q -m "docs: more to read"; do :; done && case "$PWD" in *) git log -1 --oneline >/dev/null;; esac`)}, expect: stUntouched},
	}
	runUnseen8(t, rows)
}

func TestAgentUnseen8Messages(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const cm = "check-commit-msg"
	rows := []plumbingRow{
		{name: "commit -n -F - reads a refused subject from a pipe", steps: []plumbingStep{bashStep(green8 + `printf 'wip stuff\n' | git commit -q -n -F -`)}, expect: stAfter, gate: subj},
		{name: "a CRLF message with a Windows home path in a hand-written trailer, piped to commit -n -F -", steps: []plumbingStep{bashStep(green8 + `printf 'docs: add notes\r\n\r\nSeen-at: C:\\Users\\marta\\x\r\n' | git commit -q -n -F -`)}, expect: stAfter, gate: cm},
		{name: "a home path only in a hand-written trailer, piped to a commit through the hooks", steps: []plumbingStep{bashStep(green8 + `printf 'docs: add notes\n\nSeen-at: /ho''me/marta/x\n' | git commit -q -F -`)}, expect: stHook, gate: cm},
		{name: "a Windows home path in a CRLF file, commit -n", steps: []plumbingStep{bashStep(`printf 'Keep notes in C:\\Users\\marta\\notes.\r\n' > docs/win.md && git add docs/win.md && ` + n8)}, expect: stAfter, gate: tt},
		{name: "a Windows home path in a file, a plain commit", steps: []plumbingStep{bashStep(`printf 'Keep notes in C:\\Users\\marta\\notes.\n' > docs/win.md && git add docs/win.md && git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a refused subject ending in CRLF read from a file, commit -n", steps: []plumbingStep{bashStep(green8 + `printf 'wip stuff\r\n' > ../m && git commit -q -n -F ../m`)}, expect: stAfter, gate: subj},
		{name: "--cleanup=verbatim keeps the CR of a refused subject, commit -n", steps: []plumbingStep{bashStep(green8 + `printf 'wip stuff\r\n' | git commit -q -n --cleanup=verbatim -F -`)}, expect: stAfter, gate: subj},
		// Controls.
		{name: "control: commit -F - reads a clean subject from a pipe", steps: []plumbingStep{bashStep(green8 + `printf 'docs: more to read\n' | git commit -q -F -`)}, expect: stUntouched},
		{name: "control: a CRLF message with a clean subject and a trailer, piped", steps: []plumbingStep{bashStep(green8 + `printf 'docs: more to read\r\n\r\nReviewed-by: t <t@example.invalid>\r\n' | git commit -q -F -`)}, expect: stUntouched},
		{name: "control: a spared Windows placeholder home path in a file", steps: []plumbingStep{bashStep(`printf 'Keep notes in C:\\Users\\username\\notes.\r\n' > docs/win.md && git add docs/win.md && git commit -q -m "docs: where notes go"`)}, expect: stUntouched},
		{name: "control: a home path spelled with a Cyrillic look-alike letter, which the rule does not cover", steps: []plumbingStep{bashStep(`printf 'Keep notes in /h\xd0\xbeme/marta/notes.\n' > docs/look.md && git add docs/look.md && git commit -q -m "docs: a look-alike path"`)}, expect: stUntouched},
	}
	runUnseen8(t, rows)
}

// A commit under another identity that this clone pushed to a remote the
// session began with and fetched back (commit-audit G), and a fork's sync
// and a colleague's fetched commits under the agent's own pushed one,
// which stay others' work.
func TestAgentUnseen8RoundTrip(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	// other8 makes a red commit under another identity on HEAD in $c.
	const other8 = leakCmd + `t=$(git write-tree) && git reset -q && rm docs/leak.md && c=$(GIT_COMMITTER_EMAIL=someone@example.invalid git commit-tree -p HEAD -m "docs: add notes" $t) && `
	fork := func(p *player) {
		withUpstream(p)
		p.git("remote", "add", "upstream", "../project.git")
		p.git("fetch", "-q", "upstream")
	}
	rows := []plumbingRow{
		{name: "a red commit under another identity pushed to a new branch on origin, fetched and merged back", setup: withOrigin, steps: []plumbingStep{bashStep(other8 + `git push -q origin $c:refs/heads/feat8 && git fetch -q origin && git merge -q --ff-only origin/feat8`)}, expect: stAfter, gate: tt},
		{name: "a red commit under another identity pushed to origin's file:// URL, pulled back", setup: withOrigin, steps: []plumbingStep{bashStep(other8 + `git push -q "file://$(dirname "$PWD")/up.git" $c:refs/heads/main && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		{name: "a red commit under another identity pushed to origin in one command, pulled back in the next", setup: withOrigin, steps: []plumbingStep{bashStep(other8 + `git push -q origin $c:refs/heads/main`), bashStep(`git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: a fork's sync, upstream's red commits pushed to origin and fetched from it, one command", setup: fork, steps: []plumbingStep{{user: projectColleague(2)}, bashStep(`git fetch -q upstream && git push -q origin upstream/main:main && git fetch -q origin && git merge -q --ff-only origin/main`)}, expect: stUntouched},
		{name: "control: a fork's sync, then pulled from origin, one command", setup: fork, steps: []plumbingStep{{user: projectColleague(2)}, bashStep(`git fetch -q upstream && git push -q origin upstream/main:refs/heads/main && git pull -q --ff-only origin main`)}, expect: stUntouched},
		// The placed pre-commit judges the whole tree, so the agent's
		// commit on the colleague's red ones drops their leak.
		{name: "control: a colleague's red commits pulled, the agent's fix on them pushed and fetched back", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git pull -q --ff-only && git rm -q docs/upstream-leak.md && git commit -q -m "docs: drop the stray path" && git push -q origin main && git fetch -q origin`)}, expect: stUntouched},
		{name: "control: a colleague's red commits and the agent's fix on them pushed to a new branch, fetched back, one command", setup: withOrigin, steps: []plumbingStep{{user: colleague(2, true)}, bashStep(`git fetch -q origin && git switch -q -c feat8 origin/main && git rm -q docs/upstream-leak.md && git commit -q -m "docs: drop the stray path" && git push -q origin feat8 && git fetch -q origin`)}, expect: stUntouched},
	}
	runUnseen8(t, rows)
}

// Trees that hide a leak from a reader that looks the wrong way: a clean
// filter the repository's own configuration and .gitattributes name (the
// staged blob holds the leak, the work tree does not), file names with a
// newline, a tab, a leading dash or letters core.quotePath quotes, a file
// .gitattributes calls binary, and a file shaped as a git-lfs pointer
// with the leak on a line of its own; hooks put out of the way by a
// second core.hooksPath value or the placed directory renamed; a
// worktree placed inside the git directory; an empty commit with a
// refused subject. Controls of the same kinds pass untouched.
func TestAgentUnseen8Trees(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	// filter8 names a clean filter that writes the leak in place of NOTE
	// for docs/n.md, and a work-tree file holding NOTE.
	const filter8 = `git config filter.x.clean "sed s,NOTE,/ho""me/marta/," && printf 'docs/n.md filter=x\n' > .gitattributes && printf 'Keep notes in NOTE here.\n' > docs/n.md && git add .gitattributes docs/n.md && `
	const lfs = `printf 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n`
	rows := []plumbingRow{
		{name: "a clean filter named by .gitattributes and .git/config stages the leak, a plain commit", steps: []plumbingStep{bashStep(filter8 + `git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a clean filter named by .gitattributes and .git/config stages the leak, commit -n", steps: []plumbingStep{bashStep(filter8 + n8)}, expect: stAfter, gate: tt},
		{name: "a file name with a newline holding the leak, a plain commit", steps: []plumbingStep{bashStep(`printf '%s\n' ` + leak8 + ` > $'docs/a\nb.md' && git add docs && git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a file name with a newline holding the leak, commit -n", steps: []plumbingStep{bashStep(`printf '%s\n' ` + leak8 + ` > $'docs/a\nb.md' && git add docs && ` + n8)}, expect: stAfter, gate: tt},
		{name: "a file name with a tab and a double quote holding the leak, a plain commit", steps: []plumbingStep{bashStep(`printf '%s\n' ` + leak8 + ` > $'docs/a\t"b.md' && git add docs && git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a file name core.quotePath quotes holding the leak, commit -n", steps: []plumbingStep{bashStep(`printf '%s\n' ` + leak8 + ` > docs/r$'\xc3\xa9'sum$'\xc3\xa9'.md && git add docs && ` + n8)}, expect: stAfter, gate: tt},
		{name: "a file name with a leading dash holding the leak, a plain commit", steps: []plumbingStep{bashStep(`printf '%s\n' ` + leak8 + ` > ./-leak.md && git add -- -leak.md && git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a file .gitattributes calls binary holding the leak, a plain commit", steps: []plumbingStep{bashStep(`printf 'docs/leak.md binary\n' > .gitattributes && git add .gitattributes && ` + leakCmd + `git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a git-lfs pointer shape with the leak on a key of its own, a plain commit", steps: []plumbingStep{bashStep(lfs + `zz /ho''me/marta/notes/\n' > docs/blob.bin && git add docs/blob.bin && git commit -q -m "docs: add notes"`)}, expect: stHook, gate: tt},
		{name: "a second core.hooksPath value added to .git/config, a plain commit", steps: []plumbingStep{bashStep(`git config --add core.hooksPath /dev/null && ` + leakCmd + `git commit -q -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "the placed hooks directory renamed, a plain commit", steps: []plumbingStep{bashStep(`mv .git/gate-hooks .git/gate-hooks.off && ` + leakCmd + `git commit -q -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "a worktree placed inside the git directory, commit -n there, merged", steps: []plumbingStep{bashStep(`git worktree add -q -b inner .git/inner && printf '%s\n' ` + leak8 + ` > .git/inner/docs/leak.md && git -C .git/inner add docs/leak.md && git -C .git/inner commit -q -n -m "docs: add notes" && git merge -q --ff-only inner`)}, expect: stAfter, gate: tt},
		{name: "an empty commit with a refused subject through the hooks", steps: []plumbingStep{bashStep(`git commit -q --allow-empty -m "wip stuff"`)}, expect: stHook, gate: subj},
		{name: "an empty commit with a refused subject, commit -n", steps: []plumbingStep{bashStep(`git commit -q -n --allow-empty -m "wip stuff"`)}, expect: stAfter, gate: subj},
		// Controls.
		{name: "control: a clean filter named by .gitattributes and .git/config that changes nothing red", steps: []plumbingStep{bashStep(`git config filter.x.clean "sed s,NOTE,later," && printf 'docs/n.md filter=x\n' > .gitattributes && printf 'Keep notes in NOTE here.\n' > docs/n.md && git add .gitattributes docs/n.md && git commit -q -m "docs: add notes"`)}, expect: stUntouched},
		{name: "control: green files whose names hold a newline, a tab and a quote, a quoted letter and a leading dash", steps: []plumbingStep{bashStep(`printf 'x\n' > $'docs/a\nb.md' && printf 'x\n' > $'docs/a\t"b.md' && printf 'x\n' > docs/r$'\xc3\xa9'sum$'\xc3\xa9'.md && printf 'x\n' > ./-x.md && git add -- docs -x.md && git commit -q -m "docs: odd names"`)}, expect: stUntouched},
		{name: "control: a green file .gitattributes calls binary", steps: []plumbingStep{bashStep(`printf 'docs/more.md binary\n' > .gitattributes && git add .gitattributes && ` + green8 + `git commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: a git-lfs pointer", steps: []plumbingStep{bashStep(lfs + `' > docs/blob.bin && git add docs/blob.bin && git commit -q -m "docs: add a stored blob"`)}, expect: stUntouched},
		{name: "control: a worktree placed inside the git directory, a green commit there, merged and removed", steps: []plumbingStep{bashStep(`git worktree add -q -b inner .git/inner && printf 'More.\n' > .git/inner/docs/more.md && git -C .git/inner add docs/more.md && git -C .git/inner commit -q -m "docs: more to read" && git merge -q --ff-only inner && git worktree remove .git/inner`)}, expect: stUntouched},
		{name: "control: an empty commit with a clean subject", steps: []plumbingStep{bashStep(`git commit -q --allow-empty -m "chore: mark the release"`)}, expect: stUntouched},
	}
	runUnseen8(t, rows)
}

// Objects git reads more loosely than it writes (a tree entry's mode
// 100664, 40755 or zero-padded, which git's checkout takes as a file or a
// directory), loose objects stored without compression, and commits that
// reach origin by routes the pre-push hook does not see before a pull
// brings them back.
func TestAgentUnseen8Objects(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	// rawTree writes, by hash-object --literally, a tree of HEAD's root
	// entries plus the entry "$1 $2" naming object $3, into $rt.
	const rawTree = `raw() { (git ls-tree HEAD | while IFS=$'\t' read -r meta name; do set -- $meta; m=$1; [ "$m" = 040000 ] && m=40000; printf '%s %s\0' "$m" "$name"; printf '%s' $3 | xxd -r -p; done; printf '%s %s\0' "$1" "$2"; printf '%s' "$3" | xxd -r -p) | git hash-object -t tree -w --stdin --literally; } && bl=$(printf '%s\n' ` + leak8 + ` | git hash-object -w --stdin) && `
	const land = ` && git update-ref refs/heads/main $(git commit-tree -p HEAD -m "docs: add notes" $rt) && git reset -q --hard`
	const other8 = leakCmd + `t=$(git write-tree) && git reset -q && rm docs/leak.md && c=$(GIT_COMMITTER_EMAIL=someone@example.invalid git commit-tree -p HEAD -m "docs: add notes" $t) && `
	rows := []plumbingRow{
		{name: "a red file under mode 100664 in a tree written by hash-object --literally", steps: []plumbingStep{bashStep(rawTree + `rt=$(raw 100664 zz-leak.md $bl)` + land)}, expect: stAfter, gate: tt},
		{name: "a red file under a zero-padded mode 0100644 in a tree written by hash-object --literally", steps: []plumbingStep{bashStep(rawTree + `rt=$(raw 0100644 zz-leak.md $bl)` + land)}, expect: stAfter, gate: tt},
		{name: "a red directory under mode 40755 in a tree written by hash-object --literally", steps: []plumbingStep{bashStep(rawTree + `sub=$(printf '100644 blob %s\tleak.md\n' $bl | git mktree) && rt=$(raw 40755 zz-notes $sub)` + land)}, expect: stAfter, gate: tt},
		{name: "a red directory under a zero-padded mode 040000 in a tree written by hash-object --literally", steps: []plumbingStep{bashStep(rawTree + `sub=$(printf '100644 blob %s\tleak.md\n' $bl | git mktree) && rt=$(raw 040000 zz-notes $sub)` + land)}, expect: stAfter, gate: tt},
		{name: "commit -n with loose objects stored uncompressed", steps: []plumbingStep{bashStep(leakCmd + `git -c core.looseCompression=0 -c core.compression=0 commit -q -n -m "docs: add notes"`)}, expect: stAfter, gate: tt},
		{name: "a red commit dated 2001 under the clone's own identity pushed to origin and pulled back", setup: withOrigin, steps: []plumbingStep{bashStep(leakCmd + `t=$(git write-tree) && git reset -q && rm docs/leak.md && c=$(GIT_COMMITTER_DATE='2001-09-09T01:46:40Z' GIT_AUTHOR_DATE='2001-09-09T01:46:40Z' git commit-tree -p HEAD -m "docs: add notes" $t) && git push -q origin $c:refs/heads/main && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		{name: "a red commit under another identity pushed with the hooks path moved, pulled back", setup: withOrigin, steps: []plumbingStep{bashStep(other8 + `git -c core.hooksPath=/dev/null push -q origin $c:refs/heads/main && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		{name: "origin fetches a red commit under another identity from the clone, then pulled", setup: withOrigin, steps: []plumbingStep{bashStep(other8 + `git update-ref refs/tmp8 $c && git -C ../up.git fetch -q "$PWD" refs/tmp8:refs/heads/main && git update-ref -d refs/tmp8 && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: a green file under mode 100664 in a tree written by hash-object --literally", steps: []plumbingStep{bashStep(rawTree + `gb=$(printf 'More.\n' | git hash-object -w --stdin) && rt=$(raw 100664 zz-more.md $gb)` + ` && git update-ref refs/heads/main $(git commit-tree -p HEAD -m "docs: more to read" $rt) && git reset -q --hard`)}, expect: stUntouched},
		{name: "control: a green commit with loose objects stored uncompressed", steps: []plumbingStep{bashStep(green8 + `git -c core.looseCompression=0 -c core.compression=0 commit -q -m "docs: more to read"`)}, expect: stUntouched},
		{name: "control: a colleague's red commits fetched by origin from a sibling, then pulled", setup: withOrigin, steps: []plumbingStep{{user: func(p *player) {
			parent := filepath.Dir(p.dir)
			sib := filepath.Join(parent, "sib.git")
			p.git("clone", "-q", "--bare", filepath.Join(parent, "up.git"), sib)
			upstreamCommits(p.t, sib, p.env, 2)
		}}, bashStep(`git -C ../up.git fetch -q ../sib.git main:main && git pull -q --ff-only`)}, expect: stUntouched},
	}
	runUnseen8(t, rows)
}

// Partial commits (a pathspec, --only, --include, --pathspec-from-file),
// for which git builds a temporary index the hooks are handed in
// GIT_INDEX_FILE, and a pull --rebase by path of a scratch clone's commit
// under another identity. Controls: a partial commit of a green path
// while a leak waits staged, which the commit does not take.
func TestAgentUnseen8Pathspecs(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const unstaged = `printf '%s\n' ` + leak8 + ` >> docs/guide.md && `
	rows := []plumbingRow{
		{name: "a pathspec commit of an unstaged leak in a tracked file", steps: []plumbingStep{bashStep(unstaged + `git commit -q -m "docs: add notes" docs/guide.md`)}, expect: stHook, gate: tt},
		{name: "commit --only of an unstaged leak while the index holds a green change", steps: []plumbingStep{bashStep(green8 + unstaged + `git commit -q --only -m "docs: add notes" docs/guide.md`)}, expect: stHook, gate: tt},
		{name: "commit --include of an unstaged leak beside a green staged change", steps: []plumbingStep{bashStep(green8 + unstaged + `git commit -q -i -m "docs: add notes" docs/guide.md`)}, expect: stHook, gate: tt},
		{name: "commit -n --pathspec-from-file naming an unstaged leak", steps: []plumbingStep{bashStep(unstaged + `printf 'docs/guide.md\n' > ../list && git commit -q -n -m "docs: add notes" --pathspec-from-file=../list`)}, expect: stAfter, gate: tt},
		{name: "pull --rebase by path of a scratch clone's red commit under another identity", steps: []plumbingStep{bashStep(scratch5 + green8 + `git commit -q -m "docs: more to read" && git pull -q --rebase ../s main`)}, expect: stAfter, gate: tt},
		// Controls.
		{name: "control: a pathspec commit of a green path while a leak waits staged, the leak then unstaged", steps: []plumbingStep{bashStep(leakCmd + `printf 'More.\n' >> docs/guide.md && git commit -q -m "docs: more to read" docs/guide.md && git reset -q docs/leak.md && rm docs/leak.md`)}, expect: stUntouched},
		{name: "control: commit --only of a green path while a leak waits staged, the leak then unstaged", steps: []plumbingStep{bashStep(leakCmd + green8 + `git commit -q --only -m "docs: more to read" docs/more.md && git reset -q docs/leak.md && rm docs/leak.md`)}, expect: stUntouched},
		{name: "control: commit --pathspec-from-file of a green path", steps: []plumbingStep{bashStep(`printf 'More.\n' >> docs/guide.md && printf 'docs/guide.md\n' > ../list && git commit -q -m "docs: more to read" --pathspec-from-file=../list`)}, expect: stUntouched},
	}
	runUnseen8(t, rows)
}
