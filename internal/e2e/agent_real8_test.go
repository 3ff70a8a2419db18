package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 41's acceptance, an eighth round on real material: two further
// public Go modules (BurntSushi/toml, charmbracelet/bubbletea), each made
// a repository with a history in its own style, adopted with `init
// --hooks --harness claude`, given an origin, and worked in by an agent
// through the harness. Their workflows carry forms no earlier round's
// did: a workflow written as JSON (toml's test.yml, `"on"` a JSON list),
// composite actions taken from a subdirectory of another repository at a
// branch (oss-fuzz's cifuzz), reusable workflows called from another
// repository at a branch with `with:` and `secrets:` (every one of
// bubbletea's CI jobs), and `on:` as a mapping of null values. The
// sessions play what the earlier rounds did not on real trees: the docs
// deployed to gh-pages the way ghp-import does (fast-import, no
// checkout) and again on top with --force, a release line cut from a
// tag older than the adoption in a worktree with a range of main's
// commits picked onto it, bisect run across the adoption, a merge
// reverted with -m 1 and the revert reverted, notes pushed, trailers
// written by interpret-trailers. Each step must pass untouched; the red
// controls must be named right after.

// real8Project is a realProject with the places this round works in.
type real8Project struct {
	realProject
	// build is the package built and vetted; test one test run.
	build, test string
	// wfSed edits the workflows named in wfFiles (their own forms).
	wfSed, wfFiles string
	// tagged is a step pinned by tag, indented for tagWorkflow's steps.
	tagged, tagWorkflow string
}

var real8Projects = []real8Project{
	{realProject: realProject{module: "github.com/BurntSushi/toml", version: "v1.5.0",
		history: []string{"Initial import", "Fix the decoding of arrays of tables", "Add the Marshal function", "Update the README for TOML 1.0",
			"Allow the encoding of time.Duration", "Test on Go 1.24 in CI"},
		subject: "Document the order of MetaData.Undecoded", goFile: "doc.go", mdFile: "README.md",
		workflow: ".github/workflows/cifuzz.yml", colleagueFile: ".github/workflows/test.yml"},
		build: ".", test: "go test -count=1 -run 'TestDecodeReader$' .",
		wfSed:   `s/"go-version": \["1.18.x", "1.24.x"\]/"go-version": ["1.18.x", "1.24.x", "1.25.x"]/; s/fuzz-seconds: 300/fuzz-seconds: 600/`,
		wfFiles: ".github/workflows/test.yml .github/workflows/cifuzz.yml",
		tagged:  "    - uses: actions/setup-node@v4\n", tagWorkflow: ".github/workflows/cifuzz.yml"},
	{realProject: realProject{module: "github.com/charmbracelet/bubbletea", version: "v1.3.10",
		history: []string{"Initial import", "fix: the renderer on resize", "feat: add the WithReportFocus option", "docs: update the tutorials",
			"chore(deps): bump golang.org/x/sys", "ci: sync the golangci config"},
		subject: "docs: describe the order of the message loop", goFile: "logging.go", mdFile: "README.md",
		workflow: ".github/workflows/coverage.yml", colleagueFile: ".github/workflows/build.yml"},
		build: ".", test: "go test -count=1 -run 'TestKeyString$' .",
		wfSed:   `s/^on: \[push, pull_request\]$/on: [push, pull_request, merge_group]/; s|go-version-file: ./examples/go.mod|go-version-file: examples/go.mod|; /^  pull_request:$/a\  workflow_dispatch:` + "\n" + `s/os: \[ubuntu-latest\]/os: [ubuntu-latest, macos-latest]/`,
		wfFiles: ".github/workflows/build.yml .github/workflows/lint.yml .github/workflows/coverage.yml",
		tagged:  "      - uses: actions/setup-node@v4\n", tagWorkflow: ".github/workflows/coverage.yml"},
}

func TestAgentReal8(t *testing.T) {
	t.Parallel()
	for _, rp8 := range real8Projects {
		rp8 := rp8
		rp := rp8.realProject
		t.Run(realName(rp.module), func(t *testing.T) {
			t.Parallel()
			tree := realTree(t, rp.module, rp.version)
			deps := true
			if _, err := os.Stat(filepath.Join(tree, "go.sum")); err != nil {
				deps = false
			}
			cache := real5ModCache(t, tree, deps)
			p := realClone(t, rp)
			p.session = "real8-" + realName(rp.module)
			p.env = append(p.env, "GOMODCACHE="+cache, "GOSUMDB=off")
			// The harness read its settings at the session's start; a
			// checkout of history from before the adoption takes them off
			// the disk for a while.
			w7loaded(p)
			parent := filepath.Dir(p.dir)
			s := &realSession{player: p, rp: rp}
			defer func() {
				for _, r := range s.rows {
					t.Log(strings.Replace(r, "REAL4 |", "REAL8 |", 1))
				}
			}()
			md, gof, subj := rp.mdFile, rp.goFile, rp.subject
			pkg := goPackage(string(readFile4(t, filepath.Join(s.dir, gof))))
			adopted := strings.TrimSpace(p.git("log", "-1", "--format=%H", "--grep=^Adopt the gates$"))

			// Looking and building.
			s.work("session start: status, last commits, the workflows listed", `git status -sb && git log --oneline -3 >/dev/null && ls .github/workflows`)
			s.read(md)
			s.read(gof)
			s.read(rp.workflow)
			s.work("go build and go vet", `go build `+rp8.build+` && go vet `+rp8.build)
			s.work("one test of the project", rp8.test+` >/dev/null`)

			// Code, committed with trailers written by interpret-trailers.
			goSrc := string(readFile4(t, filepath.Join(s.dir, gof)))
			tail := uniqueTail(goSrc)
			s.row("Edit "+gof, "quiet", s.editCall(gof, tail, tail+"\n// realEight answers eight.\nfunc realEight() int { return 8 }\n"))
			s.row("Write of a test beside it", "quiet", s.writeCall("real8_test.go", "package "+pkg+"\n\nimport \"testing\"\n\nfunc TestRealEight(t *testing.T) {\n\tif realEight() != 8 {\n\t\tt.Fatal(realEight())\n\t}\n}\n"))
			s.work("the test run, committed with -F of a message given trailers by interpret-trailers", `go test -count=1 -run 'TestRealEight$' . >/dev/null && printf '%s\n\nA helper and its test.\n' "`+subj+` (eight)" > ../msg8 && git interpret-trailers --in-place --trailer "Reviewed-by: Zoë Ångström <zoe@example.invalid>" --trailer "Refs: #8" ../msg8 && git add `+gof+` real8_test.go && git commit -q -F ../msg8`)
			s.work("a second commit signed off with a trailer, pushed", `printf '\nEight.\n' >> `+md+` && git commit -q -a -s -m "`+subj+` (README)" --trailer "Acked-by: Ana Lima <ana@example.invalid>" && git push -q origin main`)
			s.stopQuiet("code with trailers")

			// Workflows in their own forms.
			if err := os.WriteFile(filepath.Join(parent, "wf8.sed"), []byte(rp8.wfSed+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s.work("the workflows edited in their own forms by a sed script, committed", `sed -i -f ../wf8.sed `+rp8.wfFiles+` && test "$(git diff --name-only | wc -l)" -ge 2 && git commit -q -am "`+subj+` (CI)"`)
			s.work("push", `git push -q origin main`)
			s.stopQuiet("workflows")

			// The docs deployed to gh-pages as ghp-import does, twice.
			s.work("the site built into an ignored directory, deployed by fast-import, pushed", w9ghpImport+`printf 'site/\n' >> .gitignore && git commit -q -am "`+subj+` (ignore the site)" && mkdir -p site && sed 's/^/<p>/' `+md+` > site/index.html && : > site/.nojekyll && ../ghp-import.sh site "`+subj+` (deploy)" && git push -q origin gh-pages main`)
			s.work("the docs changed, deployed again on top, pushed --force", `printf '\nMore eight.\n' >> `+md+` && git commit -q -am "`+subj+` (more)" && sed 's/^/<p>/' `+md+` > site/index.html && ../ghp-import.sh site "`+subj+` (deploy again)" && git push -q -f origin gh-pages && git push -q origin main`)
			s.stopQuiet("a docs deploy")

			// A release line from before the adoption.
			s.work("a tag on the last commit before the adoption, a worktree of a release line from it", `git tag -a v0.8.0 -m "Release 0.8.0" `+adopted+`~1 && git worktree add -q -b release-0.8 ../rel8 v0.8.0`)
			s.work("main's helper and its README line picked onto the release line as a range", `cd ../rel8 && git cherry-pick -x main~5..main~3 >/dev/null && go build `+rp8.build+` && git log --oneline -3`)
			s.stopQuiet("a release line picked")
			relMd := "../rel8/" + md
			relTail := uniqueTail(string(readFile4(t, filepath.Join(s.dir, relMd))))
			s.row("Edit of the README in the release line's worktree", "quiet", s.editCall(relMd, relTail, relTail+"\nOn the 0.8 line.\n"))
			s.stopQuiet("an edit left in the release line's worktree")
			s.work("the workflows edited on the release line as on main, committed with the edit", `cd ../rel8 && sed -i -f ../wf8.sed `+rp8.wfFiles+` && git commit -q -am "`+subj+` (CI on 0.8)"`)
			s.work("a fix on the release line, tagged, pushed, the worktree removed", `cd ../rel8 && printf '\nFixed on 0.8.\n' >> `+md+` && git commit -q -am "`+subj+` (0.8 fix)" && git tag -a v0.8.1 -m "Release 0.8.1" && git push -q origin release-0.8 v0.8.1 && cd - >/dev/null && git worktree remove ../rel8`)
			s.work("bisect run across the adoption, reset in the same call", `git bisect start HEAD "$(git rev-list --max-parents=0 HEAD)" >/dev/null && git bisect run sh -c 'test ! -f .claude/settings.json' >/dev/null && git bisect log | tail -1 | grep -q 'first bad commit' && git bisect reset >/dev/null 2>&1 && test -f .claude/settings.json`)
			s.stopQuiet("a release line and a bisect")

			// A merge reverted, notes.
			s.work("a feature merged with --no-ff, reverted with -m 1, pushed", `git switch -q -c feature8 && printf 'Feature.\n' > .github/FEATURE8.md && git add .github && git commit -q -m "`+subj+` (feature)" && git switch -q main && git merge -q --no-ff --no-edit feature8 && git revert -m 1 --no-edit HEAD >/dev/null && test ! -f .github/FEATURE8.md && git push -q origin main`)
			s.work("the revert reverted, notes in two refs, pushed", `git revert --no-edit HEAD >/dev/null && test -f .github/FEATURE8.md && git notes add -m "Reverted once." HEAD && git notes --ref=review add -m "Seen." HEAD~1 && git push -q origin main 'refs/notes/*:refs/notes/*'`)
			s.stopQuiet("a merge reverted, notes")

			// Controls: a home path in a doc and a tag-pinned action,
			// named right after their Edits; a leak deployed to gh-pages,
			// named right after, its remedy run.
			line := s.firstLine(md, " ")
			leak := "Build notes live in /ho" + "me/marta/build."
			got := s.editCall(md, line+"\n", line+"\n"+leak+"\n")
			s.row("control: a home path added to "+md, "named check-tree-terms", namedAs(got, "check-tree-terms"))
			s.row("control remedy: the line taken out", "quiet", s.editCall(md, line+"\n"+leak+"\n", line+"\n"))
			wf := string(readFile4(t, filepath.Join(s.dir, rp8.tagWorkflow)))
			steps := uniqueBefore(wf, "\n    steps:\n")
			got = s.editCall(rp8.tagWorkflow, steps, steps+rp8.tagged)
			s.row("control: an action pinned by tag in "+rp8.tagWorkflow, "named check-action-pinning", namedAs(got, "check-action-pinning"))
			s.row("control remedy: the step taken out", "quiet", s.editCall(rp8.tagWorkflow, steps+rp8.tagged, steps))
			words, _, _ := s.bashCall(`printf '<p>Built in /ho` + `me/marta/site.</p>\n' > site/built.html && ../ghp-import.sh site "` + subj + ` (deploy a build)"`)
			s.row("control: a leak deployed to gh-pages by fast-import", "named check-tree-terms", namedAs(words, "check-tree-terms"))
			if remedy := remedyOf(words); remedy == "" {
				s.row("control remedy offered", "a remedy", "none in: "+words)
			} else {
				s.work("control remedy: "+remedy, remedy)
			}
			s.stopQuiet("after the remedies")
		})
	}
}
