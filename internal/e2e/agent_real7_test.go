package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 41's acceptance, a seventh round on real material: three further
// public Go modules (spf13/viper, stretchr/testify, gin-gonic/gin), each
// made a repository with a history in its own style, adopted with `init
// --hooks --harness claude`, given an origin, and worked in by an agent
// through the harness with the module's requirements in a local module
// cache. Their workflows carry forms the earlier rounds' did not: a
// matrix of include entries only, `on:` as a flow list, a flow sequence
// spread over lines, a github-script body in a template literal, and
// actions pinned by tag accepted at adoption in a file the agent renames.
// The sessions are none of real4's to real6's: a commit written in the
// editor with -v, a commit of picked hunks fed by a here-string, intent
// to add, a staged file taken back with restore --staged, a workflow
// renamed, a directory moved, a case-only rename, names with spaces and
// accents, a file deleted and made again, go generate, gofmt -w over the
// tree, a generated file untracked behind .gitignore, tags made in a
// loop, a tagged feature merged with --no-ff, a colleague's branch taken
// from its remote-tracking ref, and a read-only session of log, show,
// blame and grep whose hooks must stay fast. Each step must pass
// untouched; the red controls must be named right after.

// real7Project is a realProject with the places this round works in.
type real7Project struct {
	realProject
	// notes is an existing directory the agent's notes go under.
	notes string
	// build is the package built and vetted; test one test run.
	build, test string
	// goBump is the go directive go.mod is moved to.
	goBump string
	// wfEdit is a workflow edited by the sed script wfSed (a form of its
	// own); wfFrom is a workflow renamed to wfTo.
	wfEdit, wfSed, wfFrom, wfTo string
}

var real7Projects = []real7Project{
	{realProject: realProject{module: "github.com/spf13/viper", version: "v1.19.0",
		history: []string{"Initial import", "fix: the env key replacer on nested keys", "feat: add the finder option", "docs: update the remote providers section",
			"build(deps): bump github.com/spf13/cast", "chore: drop the old Go versions"},
		subject: "docs: describe the config search order", goFile: "util.go", mdFile: "README.md",
		workflow: ".github/workflows/ci.yaml", colleagueFile: ".github/workflows/checks.yaml"},
		notes: ".github", build: ".", test: "go test -count=1 -run 'TestAbsPathify$' .", goBump: "1.21",
		wfEdit: ".github/workflows/ci.yaml", wfSed: `/goarch: ppc64/a\          - goos: plan9\n            goarch: amd64`,
		wfFrom: ".github/workflows/feedback_issue.yaml", wfTo: ".github/workflows/issue-feedback.yaml"},
	{realProject: realProject{module: "github.com/stretchr/testify", version: "v1.10.0",
		history: []string{"Initial import", "assert: fix the diff of nested maps", "mock: add the AnythingOfType matcher", "Update the README for 1.10",
			"suite: run the setup before each subtest", "Bump the Go versions in CI"},
		subject: "assert: document the ElementsMatch order", goFile: "doc.go", mdFile: "README.md",
		workflow: ".github/workflows/main.yml", colleagueFile: ".github/workflows/main.yml"},
		notes: ".github", build: "./assert", test: "go test -count=1 -run 'TestObjectsAreEqual$' ./assert", goBump: "1.18",
		wfEdit: ".github/workflows/main.yml", wfSed: `s/^on: \[push, pull_request\]$/on: [push, pull_request, workflow_dispatch]/; /- "1.22"$/a\          - "1.23"`,
		wfFrom: ".github/workflows/release.yml", wfTo: ".github/workflows/release-from-tag.yml"},
	{realProject: realProject{module: "github.com/gin-gonic/gin", version: "v1.12.0",
		history: []string{"Initial import", "fix(context): keep the query cache on copy", "feat(render): add the TOML renderer", "docs: update the middleware examples",
			"chore(deps): bump golang.org/x/net", "ci: test on Go 1.26"},
		subject: "docs: describe the binding of query arrays", goFile: "doc.go", mdFile: "README.md",
		workflow: ".github/workflows/gin.yml", colleagueFile: ".github/workflows/codeql.yml"},
		notes: "docs", build: ".", test: "go test -count=1 -run 'TestPathClean$' .", goBump: "1.26",
		wfEdit: ".github/workflows/gin.yml", wfSed: `/"-tags go_json",/a\            "-tags nomsgpack go_json",`,
		wfFrom: ".github/workflows/trivy-scan.yml", wfTo: ".github/workflows/security-scan.yml"},
}

// real7Editor is an editor script that puts a subject above the template
// git opens (with -v, the diff below the scissors line).
const real7Editor = `#!/bin/sh
printf '%s\n' "$REAL7_SUBJECT" | cat - "$1" > "$1.new" && mv "$1.new" "$1"
`

// fastCall plays a Bash call and answers what the hooks said and how long
// the two hooks took together (the command's own time left out).
func (s *realSession) fastCall(command string) (string, time.Duration) {
	s.t.Helper()
	in := map[string]any{"tool_input": map[string]any{"command": command, "description": "x"}}
	t0 := time.Now()
	reason, refusal, other := words2(s.fire("PreToolUse", "Bash", in))
	spent := time.Since(t0)
	if refusal != "" {
		return "refused before it ran: " + refusal, spent
	}
	out, err := runBash(s.dir, s.env, command)
	if err != nil {
		s.t.Errorf("%q failed: %v\n%s", command, err, out)
	}
	in["tool_response"] = map[string]any{"stdout": out}
	t1 := time.Now()
	r2, f2, o2 := words2(s.fire("PostToolUse", "Bash", in))
	spent += time.Since(t1)
	return verdict(reason+other+r2, f2, o2), spent
}

// runBash runs a command with bash in dir; it answers the combined output.
func runBash(dir string, env []string, command string) (string, error) {
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestAgentReal7(t *testing.T) {
	t.Parallel()
	for _, rp7 := range real7Projects {
		rp7 := rp7
		rp := rp7.realProject
		t.Run(realName(rp.module), func(t *testing.T) {
			t.Parallel()
			tree := realTree(t, rp.module, rp.version)
			deps := true
			if _, err := os.Stat(filepath.Join(tree, "go.sum")); err != nil {
				deps = false
			}
			cache := real5ModCache(t, tree, deps)
			p := realClone(t, rp)
			p.session = "real7-" + realName(rp.module)
			p.env = append(p.env, "GOMODCACHE="+cache, "GOSUMDB=off")
			parent := filepath.Dir(p.dir)
			if err := os.WriteFile(filepath.Join(parent, "editor.sh"), []byte(real7Editor), 0o755); err != nil {
				t.Fatal(err)
			}
			s := &realSession{player: p, rp: rp}
			defer func() {
				for _, r := range s.rows {
					t.Log(strings.Replace(r, "REAL4 |", "REAL7 |", 1))
				}
			}()
			md, gof, subj, notes := rp.mdFile, rp.goFile, rp.subject, rp7.notes
			pkg := goPackage(string(readFile4(t, filepath.Join(s.dir, gof))))

			// Looking and building.
			s.work("session start: status, last commits", `git status -sb && git log --oneline -3 >/dev/null`)
			s.read(md)
			s.read(gof)
			s.work("go build and go vet", `go build `+rp7.build+` && go vet `+rp7.build)
			s.work("one test of the project", rp7.test+` >/dev/null`)

			// Code, committed through the editor with -v and by hunks.
			goSrc := string(readFile4(t, filepath.Join(s.dir, gof)))
			tail := uniqueTail(goSrc)
			s.row("Edit "+gof, "quiet", s.editCall(gof, tail, tail+"\n// realSeven answers seven.\nfunc realSeven() int {return 7}\n"))
			s.row("Write of a test beside it", "quiet", s.writeCall("real7_test.go", "package "+pkg+"\n\nimport \"testing\"\n\nfunc TestRealSeven(t *testing.T) {\n\tif realSeven() != 7 {\n\t\tt.Fatal(realSeven())\n\t}\n}\n"))
			s.work("gofmt -w of the edited file, the test run", `gofmt -w `+gof+` real7_test.go && go test -count=1 -run 'TestRealSeven$' . >/dev/null`)
			s.work("git add -N of the new test, commit -v through an editor", `git add -N real7_test.go && git add `+gof+` && REAL7_SUBJECT="`+subj+` (seven)" GIT_EDITOR=../editor.sh git commit -q -v -a && git log -1 --format=%s | grep -q seven`)
			s.work("two hunks in the README, one committed by commit -p fed a here-string", `printf '\nSeven, first.\n' | cat - `+md+` > ../md.new && mv ../md.new `+md+` && printf '\nSeven, last.\n' >> `+md+` && git commit -q -p -m "`+subj+` (first hunk)" <<< $'y\nn\n' >/dev/null && ! git diff --quiet`)
			s.work("the other hunk staged by mistake with a scratch file, the scratch taken back by restore --staged", `printf 'scratch\n' > scratch7.txt && git add -A && git restore --staged scratch7.txt && rm scratch7.txt && git commit -q -m "`+subj+` (last hunk)"`)
			s.work("gofmt -l -w over the tree, committed if it changed anything", `gofmt -l -w . >/dev/null; git diff --quiet || git commit -q -am "`+subj+` (gofmt)"`)
			s.work("the go directive bumped, built, committed", `go mod edit -go=`+rp7.goBump+` && go build `+rp7.build+` && git commit -q -am "`+subj+` (go `+rp7.goBump+`)"`)
			s.stopQuiet("code through the editor and by hunks")

			// Workflows.
			if err := os.WriteFile(filepath.Join(parent, "wf.sed"), []byte(rp7.wfSed+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s.read(rp7.wfEdit)
			s.work("a workflow edited in its own form by a sed script, committed", `sed -i -f ../wf.sed `+rp7.wfEdit+` && ! git diff --quiet && git commit -q -am "`+subj+` (CI)"`)
			s.work("a workflow renamed with git mv, committed", `git mv `+rp7.wfFrom+` `+rp7.wfTo+` && git commit -q -m "`+subj+` (rename a workflow)"`)
			s.work("push", `git push -q origin main`)
			s.stopQuiet("workflows")

			// Names, moves and generated files.
			nd := notes + "/meeting notes"
			s.row("Write of a page whose path has a space and an accent", "quiet", s.writeCall(nd+"/réunion 7.md", "# Réunion 7\n\nDécisions.\n"))
			s.work("the page committed, quoted", `git add "`+nd+`" && git commit -q -m "`+subj+` (notes)"`)
			s.work("a case-only rename of the page", `git mv "`+nd+`/réunion 7.md" "`+nd+`/Réunion 7.md" && git commit -q -m "`+subj+` (case)"`)
			s.work("git mv of the directory", `git mv "`+nd+`" `+notes+`/minutes && git commit -q -m "`+subj+` (move the notes)" && git ls-files -z `+notes+`/minutes | grep -qz 'union 7'`)
			s.work("a page deleted, committed, then made again and committed", `git rm -q "`+notes+`/minutes/Réunion 7.md" && git commit -q -m "`+subj+` (drop a page)" && mkdir -p `+notes+`/minutes && printf '# Réunion 7\n\nAgain.\n' > "`+notes+`/minutes/Réunion 7.md" && git add `+notes+` && git commit -q -m "`+subj+` (page again)"`)
			s.row("Write of a go:generate directive", "quiet", s.writeCall("real7_gen.go", "package "+pkg+"\n\n//go:generate sh -c \"printf 'package "+pkg+"\\\\n\\\\n// realGenerated is written by go generate.\\\\nconst realGenerated = 7\\\\n' > zz_real7_generated.go\"\n"))
			s.work("go generate run, its output built and committed", `go generate ./real7_gen.go && test -f zz_real7_generated.go && go build . && git add real7_gen.go zz_real7_generated.go && git commit -q -m "`+subj+` (generate)"`)
			s.work("the generated file untracked with rm --cached behind .gitignore", `printf 'zz_*_generated.go\n' >> .gitignore && git rm -q --cached zz_real7_generated.go && git add .gitignore && git commit -q -m "`+subj+` (ignore generated)" && test -f zz_real7_generated.go && git status --short | wc -l | grep -q '^0$'`)
			s.work("push", `git push -q origin main`)
			s.stopQuiet("names, moves and generated files")

			// Branches, tags, a colleague.
			realColleague(p, rp.colleagueFile, "# a colleague's note\n")
			realColleagueBranch5(p, rp.colleagueFile)
			s.work("fetch, a colleague's branch taken with switch -c from its remote-tracking ref", `git fetch -q origin && git switch -q -c review origin/colleague-topic && git log --oneline -1 >/dev/null`)
			s.work("a note committed on the review branch, pushed to it", `printf 'Reviewed.\n' > `+notes+`/REVIEW.md && git add `+notes+`/REVIEW.md && git commit -q -m "`+subj+` (review)" && git push -q origin review:colleague-topic`)
			s.work("back to main, pull of the colleague's main", `git switch -q main && git pull -q --rebase`)
			s.work("a feature branch with an annotated tag on its tip, merged with --no-ff", `git switch -q -c feature7 && printf 'Feature.\n' > `+notes+`/FEATURE.md && git add `+notes+` && git commit -q -m "`+subj+` (feature)" && git tag -a feature7-done -m "The feature is done" && git switch -q main && git merge -q --no-ff --no-edit feature7 && git branch -q -d feature7`)
			s.work("annotated tags made in a loop, pushed with --follow-tags", `for i in 1 2 3; do git tag -a v7.0.$i -m "Release v7.0.$i" HEAD~$((3-i)); done && git push -q --follow-tags origin main && git describe --tags >/dev/null`)
			s.stopQuiet("branches, tags, a colleague")

			// A read-only session: the hooks must stay fast and say nothing.
			var slowest time.Duration
			for _, c := range []string{
				`git log -p -20 >/dev/null && git log --stat --follow -- ` + gof + ` >/dev/null`,
				`git blame -w ` + gof + ` >/dev/null && git blame -L 1,5 ` + md + ` >/dev/null`,
				`git grep -n 'func ' -- '*.go' | wc -l && git grep -c TODO >/dev/null; true`,
				`git show --stat HEAD~2 >/dev/null && git show HEAD:` + md + ` >/dev/null && git shortlog -sn HEAD >/dev/null`,
				`git log --all --graph --oneline -30 >/dev/null && git diff --stat HEAD~5 >/dev/null && git tag -l 'v7*'`,
			} {
				words, spent := s.fastCall(c)
				s.row("read-only: "+strings.Fields(c)[1], "quiet", words)
				if spent > slowest {
					slowest = spent
				}
			}
			fast := "fast"
			if slowest > 3*time.Second {
				fast = "slow: " + slowest.String()
			}
			s.row("read-only: the slowest call's hooks ("+slowest.Round(time.Millisecond).String()+")", "fast", fast)
			s.stopQuiet("a read-only session")

			// Controls: a home path in a doc and a tag-pinned action, named
			// right after their Edits; a leak committed past the hook in a
			// note, named, its remedy run.
			s.leakAndTagControls(md, s.firstLine(md, " "), rp.workflow)
			words, _, _ := s.bashCall(`printf 'Kept in /ho` + `me/marta/notes.\n' > ` + notes + `/NOTE7.md && git add ` + notes + ` && echo 'git commit -q -n -m "` + subj + ` (note)"' | sh`)
			s.row("control: a leak committed past the hook", "named check-tree-terms", namedAs(words, "check-tree-terms"))
			if remedy := remedyOf(words); remedy == "" {
				s.row("control remedy offered", "a remedy", "none in: "+words)
			} else {
				s.work("control remedy: "+remedy, remedy)
				s.work("the note taken out of the tree", `git rm -q -f --ignore-unmatch `+notes+`/NOTE7.md && rm -f `+notes+`/NOTE7.md && git diff --cached --quiet`)
			}
			s.stopQuiet("after the remedies")
		})
	}
}
