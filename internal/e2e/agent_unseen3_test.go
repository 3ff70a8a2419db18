package e2e

import (
	"testing"
	"time"
)

// Issue 41's acceptance, a third set of spellings by someone who did not
// write the hook, none of them in the earlier tables: a refused message
// reaching a commit through an editor, a template, a reused message, a
// trailer or a rebase; content reaching the index by a clean filter, by
// plumbing, past the work tree (skip-worktree, sparse, ignored files,
// odd names); refs moved by hand, by bundles, by notes and stash refs and
// by a worktree outside the clone's directory; objects written with no
// git at all; and the footing (the placed hooks, the binary, its install
// record, the judge's state) taken away in the same command as the
// commit. Each row says how soon it must be caught; a few rows run the
// remedy the words offer and see the judge go green, and a few controls
// of the same kinds must pass untouched.

// edRed is an editor that writes a refused subject over the message.
const edRed = `printf '#!/bin/sh\nprintf "` + redSubject + `\\n" > "$1"\n' > ../ed && chmod +x ../ed && `

// edRed3 is an editor that writes a refused subject on the third line
// (the body of an amend! message), leaving the first alone.
const edRed3 = `printf '#!/bin/sh\nsed -i "3s/.*/` + redSubject + `/" "$1"\n' > ../ed3 && chmod +x ../ed3 && `

// redLoose makes a loose commit with a refused subject and no change, on
// no ref, and keeps its id in $r.
const redLoose = `r=$(git commit-tree -p HEAD -m "` + redSubject + `" HEAD^{tree}) && `

// leakBlob writes the leak as a blob and keeps its id in $bl.
const leakBlob = `bl=$(printf 'Keep notes in /ho''me/marta/notes.\n' | git hash-object -w --stdin) && `

// greenCommit commits a green change through the hooks.
const greenCommit = `printf 'More to read.\n' > docs/more.md && git add docs/more.md && git commit -q -m "docs: more to read" && `

// cleanFilter makes docs/f.md's clean filter write the leak into the
// index while the file in the work tree stays clean, and stages it.
const cleanFilter = `git config filter.x.clean "sed 's|CLEAN|/ho''me/marta|'" && echo 'docs/f.md filter=x' >> .git/info/attributes && printf 'Keep notes in CLEAN/notes.\n' > docs/f.md && git add docs/f.md && `

// aliasCommit is a one-off alias that commits past the hooks.
const aliasCommit = `git -c alias.x='!git commit -q -n -m "docs: add notes"' x`

// pyLoose writes, with Python and no git write, a loose commit of the
// index's tree (written by git) on HEAD, and points main at it by hand.
const pyLoose = `python3 - <<'EOF'
import hashlib, os, subprocess, zlib
tree = subprocess.check_output(["git", "write-tree"]).decode().strip()
head = subprocess.check_output(["git", "rev-parse", "HEAD"]).decode().strip()
body = ("tree %s\nparent %s\nauthor t <t@example.invalid> 1700000000 +0000\ncommitter t <t@example.invalid> 1700000000 +0000\n\ndocs: add notes\n" % (tree, head)).encode()
obj = b"commit %d\0" % len(body) + body
h = hashlib.sha1(obj).hexdigest()
os.makedirs(".git/objects/" + h[:2], exist_ok=True)
open(".git/objects/%s/%s" % (h[:2], h[2:]), "wb").write(zlib.compress(obj))
open(".git/refs/heads/main", "w").write(h + "\n")
EOF`

// pyAll writes, with Python and no git write at all, the leak's blob,
// the docs tree and the root tree that hold it, and a commit on HEAD, and
// points main at it by hand (git only reads).
const pyAll = `python3 - <<'EOF'
import hashlib, os, subprocess, zlib
def put(kind, body):
    obj = b"%s %d\0" % (kind, len(body)) + body
    h = hashlib.sha1(obj).hexdigest()
    os.makedirs(".git/objects/" + h[:2], exist_ok=True)
    p = ".git/objects/%s/%s" % (h[:2], h[2:])
    if not os.path.exists(p):
        open(p, "wb").write(zlib.compress(obj))
    return h
def tree(rev, extra):
    ents = []
    for line in subprocess.check_output(["git", "ls-tree", "-z", rev]).split(b"\0"):
        if not line:
            continue
        meta, name = line.split(b"\t", 1)
        mode, kind, h = meta.split(b" ")
        ents.append((name, mode, h.decode()))
    ents = [e for e in ents if e[0] not in [x[0] for x in extra]] + extra
    ents.sort(key=lambda e: e[0] + (b"/" if e[1] == b"040000" else b""))
    return put(b"tree", b"".join(m.lstrip(b"0") + b" " + n + b"\0" + bytes.fromhex(h) for n, m, h in ents))
blob = put(b"blob", b"Keep notes in /ho" + b"me/marta/notes.\n")
docs = tree("HEAD:docs", [(b"leak.md", b"100644", blob)])
root = tree("HEAD", [(b"docs", b"040000", docs)])
head = subprocess.check_output(["git", "rev-parse", "HEAD"]).decode().strip()
c = put(b"commit", ("tree %s\nparent %s\nauthor t <t@example.invalid> 1700000000 +0000\ncommitter t <t@example.invalid> 1700000000 +0000\n\ndocs: add notes\n" % (root, head)).encode())
open(".git/refs/heads/main", "w").write(c + "\n")
EOF`

// shBin is a script that exits 0, for the binary's place.
const shBin = `'#!/bin/sh\nexit 0\n'`

// restoreFix drops a leak the remedy left staged.
var restoreFix = bashStep(`git rm -q -f --cached docs/leak.md 2>/dev/null; rm -f docs/leak.md`)

// redBranchFirst makes, as the row's first step (its words not counted),
// a red branch redb one commit past main through a shell, past the hooks.
var redBranchFirst = bashStep(`git switch -q -c redb && ` + leakCmd + sh2("docs: add notes") + ` && git switch -q main`)

// wait2 lets a background job of the row's last command finish.
func wait2(*player) { time.Sleep(2 * time.Second) }

func TestAgentUnseen3Spellings(t *testing.T) {
	t.Parallel()
	const tt = "check-tree-terms"
	const subj = "check-commit-subject"
	const cmsg = "check-commit-msg"
	const msg = "docs: add notes"
	rows := []plumbingRow{
		// The message route.
		{name: "no -m, GIT_EDITOR writes a refused subject", steps: []plumbingStep{bashStep(edRed + `printf 'x\n' > docs/x.md && git add docs/x.md && GIT_EDITOR=../ed git commit -q`)}, expect: stHook, gate: subj},
		{name: "no -m, -c core.editor a sed inserting a refused subject", steps: []plumbingStep{bashStep(`printf 'x\n' > docs/x.md && git add docs/x.md && git -c core.editor="sed -i '1i ` + redSubject + `'" commit -q`)}, expect: stHook, gate: subj},
		{name: "no -m, core.editor set by git config, commit -n through sh", steps: []plumbingStep{bashStep(edRed + `git config core.editor ../ed && printf 'x\n' > docs/x.md && git add docs/x.md && echo 'git commit -q -n' | sh`)}, expect: stAfter, gate: subj},
		{name: "no -m, EDITOR, commit --no-verify through python", steps: []plumbingStep{bashStep(edRed + `printf 'x\n' > docs/x.md && git add docs/x.md && EDITOR=../ed python3 -c 'import subprocess; subprocess.run(["git","commit","-q","--no-verify"])'`)}, expect: stAfter, gate: subj},
		{name: "-C of a red loose commit, plain", steps: []plumbingStep{bashStep(redLoose + `git commit -q --allow-empty -C $r`)}, expect: stAfter, gate: subj},
		{name: "--reuse-message of a red loose commit through sh, remedy run", steps: []plumbingStep{bashStep(redLoose + `echo "git commit -q -n --allow-empty --reuse-message=$r" | sh`), {remedy: true}}, expect: stAfter, gate: subj},
		{name: "-c of a red loose commit with a no-op editor through sh", steps: []plumbingStep{bashStep(redLoose + `echo "GIT_EDITOR=true git commit -q -n --allow-empty -c $r" | sh`)}, expect: stAfter, gate: subj},
		{name: "--template completed by an editor, plain", steps: []plumbingStep{bashStep(`printf 'wip\n' > ../tpl && GIT_EDITOR="sed -i '1s/\$/ stuff/'" git commit -q --allow-empty --template ../tpl`)}, expect: stHook, gate: subj},
		{name: "--template completed by an editor, through perl", steps: []plumbingStep{bashStep(`printf 'wip\n' > ../tpl && GIT_EDITOR="sed -i '1s/\$/ stuff/'" perl -e 'system("git","commit","-q","-n","--allow-empty","--template","../tpl")'`)}, expect: stAfter, gate: subj},
		{name: "-F - from a heredoc, plain", steps: []plumbingStep{bashStep("git commit -q --allow-empty -F - <<'EOF'\n" + redSubject + "\nEOF")}, expect: stHook, gate: subj},
		{name: "-F - from a heredoc inside bash -s", steps: []plumbingStep{bashStep("bash -s <<'EOF'\ngit commit -q -n --allow-empty -F - <<'X'\n" + redSubject + "\nX\nEOF")}, expect: stAfter, gate: subj},
		{name: "--trailer carrying a leak, plain", steps: []plumbingStep{bashStep(`git commit -q --allow-empty -m "docs: tidy" --trailer "Notes: /ho""me/marta/x"`)}, expect: stHook, gate: cmsg},
		{name: "--trailer carrying a leak through sh", steps: []plumbingStep{bashStep(`echo 'git commit -q -n --allow-empty -m "docs: tidy" --trailer "Notes: /ho''me/marta/x"' | sh`)}, expect: stAfter, gate: cmsg},
		{name: "rebase -i reword by the sequence editor and an editor", steps: []plumbingStep{bashStep(edRed + greenCommit + `GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/reword/" GIT_EDITOR=../ed git rebase -q -i HEAD~1`)}, expect: stAfter, gate: subj},
		{name: "rebase -i squash with an editor writing a refused subject", steps: []plumbingStep{bashStep(edRed + greenCommit + `printf 'Even more.\n' >> docs/more.md && git commit -q -am "docs: even more" && GIT_SEQUENCE_EDITOR="sed -i 2s/^pick/squash/" GIT_EDITOR=../ed git rebase -q -i HEAD~2`)}, expect: stAfter, gate: subj},
		{name: "--fixup=reword: with a refused body, then autosquash", steps: []plumbingStep{bashStep(edRed3 + greenCommit + `GIT_EDITOR=../ed3 git commit -q --fixup=reword:HEAD && GIT_SEQUENCE_EDITOR=true GIT_EDITOR=true git rebase -q -i --autosquash HEAD~2`)}, expect: stAfter, gate: subj},
		{name: "amend -m of a pushed commit, plain", setup: withOrigin, steps: []plumbingStep{bashStep(greenCommit + `git push -q origin main`), bashStep(`git commit -q --amend -m "` + redSubject + `"`)}, from: 1, expect: stHook, gate: subj},
		{name: "amend -m of a pushed commit and a force push, through sh", setup: withOrigin, steps: []plumbingStep{bashStep(greenCommit + `git push -q origin main`), bashStep(`echo 'git commit -q -n --amend -m "` + redSubject + `" && git push -q -f --no-verify origin main' | sh`)}, from: 1, expect: stAfter, gate: subj, also: []string{"up.git"}},
		{name: "merge --no-ff -m a refused subject, plain", steps: []plumbingStep{bashStep(`git merge -q --no-ff -m "` + redSubject + `" side`)}, expect: stHook, gate: subj},
		{name: "merge --no-ff -m a refused subject, --no-verify through sh", steps: []plumbingStep{bashStep(`echo 'git merge -q --no-ff --no-verify -m "` + redSubject + `" side' | sh`)}, expect: stAfter, gate: subj},
		{name: "merge --edit with an editor writing a refused subject", steps: []plumbingStep{bashStep(edRed + `GIT_EDITOR=../ed git merge -q --no-ff --edit side`)}, expect: stHook, gate: subj},
		{name: "cherry-pick -e with an editor writing a refused subject", setup: greenSide, steps: []plumbingStep{bashStep(edRed + `GIT_EDITOR=../ed git cherry-pick -e green`)}, expect: stAfter, gate: subj},
		{name: "revert --edit with an editor writing a refused subject", steps: []plumbingStep{bashStep(edRed + greenCommit + `GIT_EDITOR=../ed git revert --edit HEAD >/dev/null`)}, expect: stAfter, gate: subj},
		// Content the index takes.
		{name: "a clean filter writes the leak into the index, plain", steps: []plumbingStep{bashStep(cleanFilter + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a clean filter writes the leak into the index, through sh, remedy run", steps: []plumbingStep{bashStep(cleanFilter + sh2(msg)), {remedy: true}, bashStep(`git rm -q -f --cached docs/f.md; rm -f docs/f.md`)}, expect: stAfter, gate: tt},
		{name: "a clean filter on the add's -c only, plain", steps: []plumbingStep{bashStep(`echo 'docs/f.md filter=x' >> .git/info/attributes && printf 'Keep notes in CLEAN/notes.\n' > docs/f.md && git -c filter.x.clean="sed 's|CLEAN|/ho''me/marta|'" add docs/f.md && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "update-index --index-info of a written blob, plain", steps: []plumbingStep{bashStep(leakBlob + `printf '100644 %s\tdocs/leak.md\n' $bl | git update-index --index-info && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "update-index --index-info of a written blob, through sh", steps: []plumbingStep{bashStep(leakBlob + `printf '100644 %s\tdocs/leak.md\n' $bl | git update-index --index-info && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "a staged leak on a skip-worktree file, plain", steps: []plumbingStep{bashStep(leakBlob + `git update-index --cacheinfo 100644,$bl,docs/guide.md && git update-index --skip-worktree docs/guide.md && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a staged leak on an assume-unchanged file, plain", steps: []plumbingStep{bashStep(leakBlob + `git update-index --cacheinfo 100644,$bl,docs/guide.md && git update-index --assume-unchanged docs/guide.md && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a staged leak on a skip-worktree file, commit -a through sh", steps: []plumbingStep{bashStep(leakBlob + `git update-index --cacheinfo 100644,$bl,docs/guide.md && git update-index --skip-worktree docs/guide.md && echo 'git commit -q -a -n -m "` + msg + `"' | sh`)}, expect: stAfter, gate: tt},
		{name: "add -f of an ignored file, plain", steps: []plumbingStep{bashStep(`echo '*.log' >> .git/info/exclude && printf 'Keep notes in /ho''me/marta/notes.\n' > docs/notes.log && git add -f docs/notes.log && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "add -f of an ignored file, through sh", steps: []plumbingStep{bashStep(`echo '*.log' >> .git/info/exclude && printf 'Keep notes in /ho''me/marta/notes.\n' > docs/notes.log && git add -f docs/notes.log && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "core.autocrlf and a CRLF leak, plain", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\r\n' > docs/leak.md && git -c core.autocrlf=true add docs/leak.md && git -c core.autocrlf=true commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a CRLF leak under autocrlf=input, through sh", steps: []plumbingStep{bashStep(`git config core.autocrlf input && printf 'Keep notes in /ho''me/marta/notes.\r\n' > docs/leak.md && git add docs/leak.md && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "a symlink whose target spells the leak, plain", steps: []plumbingStep{bashStep(`ln -s /ho''me/marta/notes docs/notes && git add docs/notes && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a leak under a non-UTF-8 name, plain", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > $'docs/n\xff\xfe.md' && git add docs && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "file name is not UTF-8"},
		{name: "a leak under a non-UTF-8 name, through sh, remedy run", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > $'docs/n\xff\xfe.md' && git add docs && ` + sh2(msg)), {remedy: true}, bashStep(`git rm -q -f --cached $'docs/n\xff\xfe.md'; rm -f $'docs/n\xff\xfe.md'`)}, expect: stAfter, gate: "file name is not UTF-8"},
		{name: "a leak under a decomposed unicode name, through sh", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > $'docs/cafe\xcc\x81.md' && git add docs && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "a leak under a name with a tab and a newline, through sh", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > $'docs/a\tb\nc.md' && git add docs && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "sparse-checkout, a leak added outside the cone, plain", steps: []plumbingStep{bashStep(`git sparse-checkout set docs && mkdir -p other && printf 'Keep notes in /ho''me/marta/notes.\n' > other/leak.md && git add --sparse other/leak.md && git commit -q -m "` + msg + `"; git sparse-checkout disable`)}, expect: stHook, gate: tt},
		{name: "sparse-checkout, a leak staged outside the cone by update-index, through sh", steps: []plumbingStep{bashStep(`git sparse-checkout set docs && ` + leakBlob + `git update-index --add --cacheinfo 100644,$bl,other/leak.md && ` + sh2(msg) + `; git sparse-checkout disable`)}, expect: stAfter, gate: tt},
		{name: "read-tree of a red tree, plain", steps: []plumbingStep{bashStep(fullTreeLeak + `git read-tree $rt && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "read-tree of a red tree, through sh", steps: []plumbingStep{bashStep(fullTreeLeak + `git read-tree $rt && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "read-tree then checkout-index then commit -a, plain", steps: []plumbingStep{bashStep(fullTreeLeak + `git read-tree $rt && git checkout-index -a -f && git commit -q -a -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "apply --cached, plain", steps: []plumbingStep{{write: "../p.patch", body: sprintfPatch(msg, "Keep notes in /ho"+"me/marta/notes.")}, bashStep(`git apply --cached ../p.patch && git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "add -N then commit -a -n through sh", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/leak.md && git add -N docs/leak.md && echo 'git commit -q -a -n -m "` + msg + `"' | sh`)}, expect: stAfter, gate: tt},
		// Refs moved by hand or by other commands.
		{name: "packed-refs edited by sed to repoint main", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git pack-refs --all && sed -i "s|^[0-9a-f]* refs/heads/main\$|$c refs/heads/main|" .git/packed-refs`)}, expect: stAfter, gate: tt},
		{name: "the checked-out branch's ref file overwritten by echo, remedy run", steps: []plumbingStep{bashStep(leakCmd + commitTree + `echo $c > .git/refs/heads/main`), {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the ref file written from a here-string", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && cat > .git/refs/heads/kept <<<"$c"`)}, expect: stAfter, gate: tt},
		{name: "symbolic-ref HEAD to a new branch, a root commit through sh", steps: []plumbingStep{bashStep(`git symbolic-ref HEAD refs/heads/newroot && ` + leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "symbolic-ref HEAD to a tag, a commit lands on the tag", steps: []plumbingStep{bashStep(`git tag t0 && git symbolic-ref HEAD refs/tags/t0 && ` + leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "symbolic-ref HEAD to a notes ref, a commit lands there", steps: []plumbingStep{bashStep(`git update-ref refs/notes/work HEAD && git symbolic-ref HEAD refs/notes/work && ` + leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "symbolic-ref HEAD to refs/stash, a commit lands there", steps: []plumbingStep{bashStep(`git update-ref refs/stash HEAD && git symbolic-ref HEAD refs/stash && ` + leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "branch -c of the agent's red branch", steps: []plumbingStep{redBranchFirst, bashStep(`git branch -c redb copy && git branch -q -D redb`)}, from: 1, expect: stStop, gate: tt},
		{name: "branch -M of the agent's red branch over main", steps: []plumbingStep{redBranchFirst, bashStep(`git switch -q side && git branch -M redb main && git switch -q -f main`)}, from: 1, expect: stStop, gate: tt},
		{name: "push . of the agent's red branch to main", steps: []plumbingStep{redBranchFirst, bashStep(`git -c receive.denyCurrentBranch=updateInstead push -q . redb:main && git branch -q -D redb`)}, from: 1, expect: stStop, gate: tt},
		{name: "a bundle of a red loose commit fetched back into a branch", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git update-ref refs/heads/tmp $c && git bundle create -q ../b.bundle tmp && git update-ref -d refs/heads/tmp && git fetch -q ../b.bundle tmp:refs/heads/fromb`)}, expect: stAfter, gate: tt},
		{name: "a scratch clone's red commit under another identity, brought by a bundle", steps: []plumbingStep{bashStep(`git clone -q . ../s && cd ../s && ` + leakCmd + `GIT_COMMITTER_EMAIL=someone@example.invalid git commit -q -n -m "` + msg + `" && git bundle create -q ../b.bundle main && cd - >/dev/null && git fetch -q ../b.bundle main:refs/heads/fromb`)}, expect: stAfter, gate: tt},
		{name: "bundle unbundle, then update-ref by hand", steps: []plumbingStep{bashStep(leakCmd + commitTree + `git reset -q && rm docs/leak.md && git update-ref refs/heads/tmp $c && git bundle create -q ../b.bundle tmp && git update-ref -d refs/heads/tmp && git reflog expire --expire=now --all && git gc -q --prune=now && id=$(git bundle unbundle ../b.bundle | cut -d' ' -f1) && git update-ref refs/heads/back $id`)}, expect: stAfter, gate: tt},
		{name: "a worktree under /tmp, a plain commit there", steps: []plumbingStep{bashStep(`d=$(mktemp -d) && git worktree add -q -b wtb $d/w && cd $d/w && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: tt},
		{name: "a worktree under /tmp, a commit there through sh", steps: []plumbingStep{bashStep(`d=$(mktemp -d) && git worktree add -q -b wtb $d/w && cd $d/w && ` + leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "a detached worktree under /tmp, a commit there pushed by path, the worktree removed", steps: []plumbingStep{bashStep(`P=$(dirname "$PWD") && git init -q --bare $P/pushed.git && d=$(mktemp -d) && git worktree add -q --detach $d/w && cd $d/w && ` + leakCmd + sh2(msg) + ` && git push -q --no-verify $P/pushed.git HEAD:refs/heads/main && cd $P/repo && git worktree remove --force $d/w`)}, expect: stAfter, gate: tt, also: []string{"pushed.git"}},
		{name: "a red commit on a notes ref, pushed as a branch, remedy run", steps: []plumbingStep{bashStep(`git init -q --bare ../pushed.git && ` + leakCmd + commitTree + `git reset -q && rm docs/leak.md && git update-ref refs/notes/x $c && echo 'git push -q --no-verify ../pushed.git refs/notes/x:refs/heads/main' | sh`), {remedy: true}}, expect: stAfter, gate: tt, also: []string{"pushed.git"}},
		{name: "a stash holding a leak, pushed as a branch, plain", steps: []plumbingStep{bashStep(`git init -q --bare ../pushed.git && printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git stash -q && git push -q ../pushed.git 'stash@{0}':refs/heads/x`)}, expect: stAfter, gate: tt, also: []string{"pushed.git"}},
		// Configuration and aliases through other programs.
		{name: "a bypass alias appended to .git/config by tee -a", steps: []plumbingStep{bashStep(`printf '[alias]\n\tci = commit -n\n' | tee -a .git/config >/dev/null && ` + leakCmd + `git ci -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "-c alias through make", steps: []plumbingStep{{write: "Makefile", body: "x:\n\t@" + aliasCommit + "\n"}, bashStep(leakCmd + `make -s x`)}, expect: stAfter, gate: tt},
		{name: "-c alias through npm run", steps: []plumbingStep{{write: "package.json", body: `{"name":"x","version":"1.0.0","scripts":{"c":"git -c alias.x='!git commit -q -n -m \"docs: add notes\"' x"}}` + "\n"}, bashStep(leakCmd + `npm run -s c`)}, expect: stAfter, gate: tt},
		{name: "-c alias through python subprocess", steps: []plumbingStep{bashStep(leakCmd + `python3 -c 'import subprocess; subprocess.run(["git","-c","alias.x=!git commit -q -n -m \"docs: add notes\"","x"])'`)}, expect: stAfter, gate: tt},
		{name: "-c alias through perl system", steps: []plumbingStep{bashStep(leakCmd + `perl -e 'system("git", "-c", "alias.x=!git commit -q -n -m \"docs: add notes\"", "x")'`)}, expect: stAfter, gate: tt},
		{name: "-c alias through base64 -d | sh", steps: []plumbingStep{hidden(leakCmd + aliasCommit)}, expect: stAfter, gate: tt},
		{name: "-c alias through script -qc", steps: []plumbingStep{bashStep(leakCmd + `script -qc "git -c alias.x='!git commit -q -n -m \"docs: add notes\"' x" /dev/null >/dev/null`)}, expect: stAfter, gate: tt},
		{name: "-c alias under nohup in the background, waited", steps: []plumbingStep{bashStep(leakCmd + `nohup sh -c "git -c alias.x='!git commit -q -n -m \"docs: add notes\"' x" >/dev/null 2>&1 & wait`)}, expect: stAfter, gate: tt},
		{name: "-c alias under nohup in the background, not waited", steps: []plumbingStep{bashStep(leakCmd + `nohup sh -c "sleep 1; git -c alias.x='!git commit -q -n -m \"docs: add notes\"' x" >/dev/null 2>&1 &`), {user: wait2}}, expect: stStop, gate: tt},
		// Identity, configuration and PATH from elsewhere.
		{name: "a bypass alias in an XDG config home", steps: []plumbingStep{bashStep(`mkdir -p ../xdg/git && printf '[alias]\n\tci = commit -n\n' > ../xdg/git/config && ` + leakCmd + `env -u GIT_CONFIG_GLOBAL XDG_CONFIG_HOME=$PWD/../xdg git ci -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "a bypass alias in a HOME of its own", steps: []plumbingStep{bashStep(`mkdir -p ../h && printf '[alias]\n\tci = commit -n\n[user]\n\tname = t\n\temail = t@example.invalid\n' > ../h/.gitconfig && ` + leakCmd + `env -u GIT_CONFIG_GLOBAL -u XDG_CONFIG_HOME HOME=$PWD/../h git ci -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "a git wrapper first on PATH adding --no-verify", steps: []plumbingStep{bashStep(`mkdir -p ../pbin && printf '#!/bin/sh\nexec %s "$@" --no-verify\n' "$(command -v git)" > ../pbin/git && chmod +x ../pbin/git && ` + leakCmd + `PATH=$PWD/../pbin:$PATH git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "-c core.hooksPath to the sample hooks by absolute path", steps: []plumbingStep{bashStep(leakCmd + `git -c core.hooksPath=$PWD/.git/hooks commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "the hooks dir copied, core.hooksPath moved to the copy, its pre-commit emptied", steps: []plumbingStep{bashStep(`cp -r .git/gate-hooks .git/gh2 && : > .git/gh2/pre-commit && git config core.hooksPath .git/gh2 && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		// Messages the cleanup reads another way.
		{name: "an empty message through sh", steps: []plumbingStep{bashStep(`echo 'git commit -q -n --allow-empty --allow-empty-message -m ""' | sh`)}, expect: stAfter, gate: subj},
		{name: "a refused subject after blank lines, verbatim, plain", steps: []plumbingStep{bashStep(`git commit -q --allow-empty --cleanup=verbatim -m "$(printf '\n\n` + redSubject + `')"`)}, expect: stAfter, gate: subj},
		{name: "a refused subject after blank lines, verbatim, through sh", steps: []plumbingStep{bashStep(`printf '\n\n` + redSubject + `\n' > ../m && echo 'git commit -q -n --allow-empty --cleanup=verbatim -F ../m' | sh`)}, expect: stAfter, gate: subj},
		{name: "a refused subject below a green HEAD, the reword remedy run", steps: []plumbingStep{bashStep("bash -s <<'EOF'\ngit commit -q -n --allow-empty -F - <<'X'\n" + redSubject + "\nX\nEOF"), bashStep(greenCommit + `true`), {stop: true}, {remedy: true}}, expect: stAfter, gate: subj},
		// Commits pushed into this clone, or fetched straight onto a branch.
		{name: "a scratch clone pushes a red commit into the checked-out branch", steps: []plumbingStep{bashStep(`git config receive.denyCurrentBranch updateInstead && git clone -q . ../s && cd ../s && ` + leakCmd + `git commit -q -n -m "` + msg + `" && git push -q --no-verify ../repo HEAD:main`)}, expect: stAfter, gate: tt},
		{name: "a scratch clone pushes, another identity, into origin's tracking ref, then a fast-forward", setup: withOrigin, steps: []plumbingStep{bashStep(`git clone -q . ../s && cd ../s && ` + leakCmd + `GIT_COMMITTER_EMAIL=someone@example.invalid git commit -q -n -m "` + msg + `" && git push -q --no-verify ../repo HEAD:refs/remotes/origin/main && cd ../repo && git merge -q --ff-only origin/main`)}, expect: stAfter, gate: tt},
		{name: "fetch --update-head-ok straight onto the checked-out branch, another identity", steps: []plumbingStep{bashStep(`git clone -q . ../s && cd ../s && ` + leakCmd + `GIT_COMMITTER_EMAIL=someone@example.invalid git commit -q -n -m "` + msg + `" && cd ../repo && git fetch -q --update-head-ok ../s main:main`)}, expect: stAfter, gate: tt},
		{name: "a scratch clone of origin commits, pushes to origin, the clone pulls", setup: withOrigin, steps: []plumbingStep{bashStep(`git clone -q ../up.git ../s && cd ../s && ` + leakCmd + `git commit -q -n -m "` + msg + `" && git push -q --no-verify origin main && cd ../repo && git pull -q --ff-only`)}, expect: stAfter, gate: tt},
		{name: "61 commits past the hooks in one command, the red one first", steps: []plumbingStep{hidden(leakCmd + `git commit -q -n -m "` + msg + `" && for i in $(seq 60); do printf 'x%s\n' $i > docs/f$i.md && git add docs/f$i.md && git commit -q -n -m "docs: page $i" || exit 1; done`)}, expect: stStop, gate: tt},
		{name: "a leak inside a file holding NUL bytes, through sh", steps: []plumbingStep{bashStep(`printf 'x\000y\nKeep notes in /ho''me/marta/notes.\n' > docs/blob.bin && git add docs/blob.bin && ` + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "a worktree inside the clone's own tree, a commit there through sh", steps: []plumbingStep{bashStep(`echo '.wt/' >> .git/info/exclude && git worktree add -q -b inner .wt && cd .wt && ` + leakCmd + sh2(msg))}, expect: stAfter, gate: tt},
		{name: "from inside .git with --work-tree=.., through sh", steps: []plumbingStep{bashStep(leakCmd + `cd .git && echo 'git --work-tree=.. commit -q -n -m "` + msg + `"' | sh`)}, expect: stAfter, gate: tt},
		{name: "a red loose commit as someone else, long ago, fetched from . into origin's tracking ref, then a fast-forward", setup: withOrigin, steps: []plumbingStep{bashStep(leakCmd + `c=$(GIT_COMMITTER_EMAIL=someone@example.invalid GIT_COMMITTER_DATE=2001-01-01T00:00:00Z git commit-tree -p HEAD -m "` + msg + `" $(git write-tree)) && git reset -q && rm docs/leak.md && git fetch -q . +$c:refs/remotes/origin/main && git merge -q --ff-only origin/main`)}, expect: stAfter, gate: tt},
		// Objects written with no git.
		{name: "python zlib writes a loose commit and the ref file", steps: []plumbingStep{bashStep(leakCmd + pyLoose)}, expect: stAfter, gate: tt},
		{name: "python zlib writes blob, trees, commit and the ref file", steps: []plumbingStep{bashStep(pyAll)}, expect: stAfter, gate: tt},
		// The footing pulled away in the commit's own command.
		{name: "the placed pre-commit truncated by truncate -s0, plain", steps: []plumbingStep{bashStep(`truncate -s0 .git/gate-hooks/pre-commit && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "the placed pre-commit overwritten by tee, plain", steps: []plumbingStep{bashStep(`printf ` + shBin + ` | tee .git/gate-hooks/pre-commit >/dev/null && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "the placed pre-commit given a shell head by sed -i, plain", steps: []plumbingStep{bashStep(`sed -i '1i #!/bin/sh\nexit 0' .git/gate-hooks/pre-commit && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "the placed pre-commit's head overwritten by dd, plain", steps: []plumbingStep{bashStep(`printf ` + shBin + ` | dd of=.git/gate-hooks/pre-commit conv=notrunc status=none && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "core.hooksPath by GIT_CONFIG_KEY_0 on the commit only", steps: []plumbingStep{bashStep(leakCmd + `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "core.hooksPath by an [include] path appended to .git/config", steps: []plumbingStep{bashStep(`printf '[core]\n\thooksPath = /dev/null\n' > ../inc && printf '[include]\n\tpath = %s/../inc\n' "$PWD" >> .git/config && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "core.hooksPath by an [includeIf gitdir:] appended to .git/config", steps: []plumbingStep{bashStep(`printf '[core]\n\thooksPath = /dev/null\n' > ../inc && printf '[includeIf "gitdir:%s/"]\n\tpath = %s/../inc\n' "$PWD" "$PWD" >> .git/config && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stAfter, gate: tt},
		{name: "the binary overwritten through tee, plain", steps: []plumbingStep{bashStep(`printf ` + shBin + ` | tee bin/gates >/dev/null && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "the binary's head overwritten by dd, plain", steps: []plumbingStep{bashStep(`printf ` + shBin + ` | dd of=bin/gates conv=notrunc status=none && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "the binary given a shell head by sed -i, plain", steps: []plumbingStep{bashStep(`sed -i '1i #!/bin/sh\nexit 0' bin/gates && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "the binary truncated by truncate -s0, plain", steps: []plumbingStep{bashStep(`truncate -s0 bin/gates && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "the binary overwritten by cat /bin/true, plain", steps: []plumbingStep{bashStep(`cat /bin/true > bin/gates && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "bin/gates"},
		{name: "the binary truncated, a commit through sh, then restored", steps: []plumbingStep{bashStep(`truncate -s0 bin/gates && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the binary made not executable, a commit through sh, then restored", steps: []plumbingStep{bashStep(`chmod -x bin/gates && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the bin directory removed, a commit through sh, then restored", steps: []plumbingStep{bashStep(`rm -rf bin && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the binary moved aside, a commit through sh, then restored", steps: []plumbingStep{bashStep(`mv bin/gates ../gates.old && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the binary replaced by a directory, a commit through sh, then restored", steps: []plumbingStep{bashStep(`rm bin/gates && mkdir bin/gates && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the binary replaced and its install record touched, a commit through sh, then restored", steps: []plumbingStep{bashStep(`cp /bin/true bin/gates && touch .git/gate-hooks.placed && ` + leakCmd + sh2(msg)), {remedy: true}, {remedy: true}, restoreFix}, expect: stAfter, gate: tt},
		{name: "the state dir made unreadable in the commit's command", steps: []plumbingStep{bashStep(leakCmd + sh2(msg) + ` && chmod 000 .git/gates-agent`)}, expect: stAfter, gate: tt},
		{name: "GATE_SDK_NATIVE_BIN in the tracked knobs, plain", steps: []plumbingStep{bashStep(`printf 'GATE_SDK_NATIVE_BIN = /bin/true\n' >> scripts/gate-sdk-config.knobs && git add scripts && ` + leakCmd + `git commit -q -m "` + msg + `"`)}, expect: stHook, gate: "GATE_SDK_NATIVE_BIN"},
	}
	runPlumbingRows(t, rows)
}

// Controls: ordinary work of the same kinds as the spellings above, each
// passing untouched.
func TestAgentUnseen3Controls(t *testing.T) {
	t.Parallel()
	green := `printf 'More to read.\n' > docs/more.md && git add docs/more.md && `
	rows := []plumbingRow{
		{name: "a clean filter that strips trailing blanks, a green commit", steps: []plumbingStep{bashStep(`git config filter.t.clean "sed 's/ *\$//'" && echo 'docs/*.md filter=t' >> .git/info/attributes && printf 'Tidy.   \n' > docs/t.md && git add docs/t.md && git commit -q -m "docs: a tidy page"`)}},
		{name: "a green commit through an editor", steps: []plumbingStep{bashStep(`printf '#!/bin/sh\nprintf "docs: more to read\\n" > "$1"\n' > ../edg && chmod +x ../edg && ` + green + `GIT_EDITOR=../edg git commit -q`)}},
		{name: "a green commit with a trailer", steps: []plumbingStep{bashStep(green + `git commit -q -m "docs: more to read" --trailer "Reviewed-by: A Person <a@example.invalid>"`)}},
		{name: "an annotated tag with a refused-looking message, pushed", steps: []plumbingStep{bashStep(`git init -q --bare ../pub.git && git tag -a v2 -m "` + redSubject + `" && git push -q ../pub.git v2`)}},
		{name: "a bundle of main made and verified", steps: []plumbingStep{bashStep(`git bundle create -q ../all.bundle main && git bundle verify -q ../all.bundle`)}},
		{name: "a worktree under /tmp with a green commit, removed", steps: []plumbingStep{bashStep(`d=$(mktemp -d) && git worktree add -q -b wtg $d/w && cd $d/w && ` + green + `git commit -q -m "docs: more to read" && cd - >/dev/null && git worktree remove $d/w`)}},
		{name: "update-index --chmod=+x of a green script", steps: []plumbingStep{bashStep(`printf '#!/bin/sh\necho hi\n' > run.sh && git add run.sh && git update-index --chmod=+x run.sh && git commit -q -m "build: a run script"`)}},
		{name: "a green commit reworded to another green subject by rebase -i", steps: []plumbingStep{bashStep(`printf '#!/bin/sh\nprintf "docs: more to read, reworded\\n" > "$1"\n' > ../edg && chmod +x ../edg && ` + green + `git commit -q -m "docs: more to read" && GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/reword/" GIT_EDITOR=../edg git rebase -q -i HEAD~1`)}},
		{name: "a leak stashed, the stash shown but not pushed", steps: []plumbingStep{bashStep(`printf 'Keep notes in /ho''me/marta/notes.\n' > docs/guide.md && git stash -q && git stash show -p >/dev/null && git stash drop -q`)}},
	}
	for i := range rows {
		rows[i].expect = stUntouched
	}
	runPlumbingRows(t, rows)
}
