package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// Issue 41's acceptance, a sixth round on real material: three further
// public Go modules (gorilla/mux, logrus, zap), each made a repository
// with a history in its own style, adopted with `init --hooks --harness
// claude`, given an origin and a project upstream, and worked in by an
// agent through the harness with the module's requirements in a local
// module cache. The sessions are none of real4's or real5's: the go
// directive and a requirement bumped, the CI matrix widened, stacked
// branches moved with --onto and an octopus merge, a bisect whose probe
// is go vet, work done in a depth-1 clone and merged back, the agent's
// own series mailed to itself, a sparse checkout of one package, the
// project's upstream picked from by range, tags pushed with --tags,
// housekeeping, and gh-like scripts that only read. Each step must pass
// untouched; the red controls must be named right after and their
// remedies run.

// real6Project is a realProject with the places this round works in.
type real6Project struct {
	realProject
	// docDir is an existing directory a new page goes to; sparse a
	// directory a sparse checkout keeps.
	docDir, sparse string
	// build is the package the agent builds and vets; test one test it
	// runs.
	build, test string
	// goBump is the go directive the agent moves go.mod to; require a
	// requirement it bumps (module@version, fetched into the cache before
	// the session), or empty.
	goBump, require string
	// matrix is the CI workflow the agent widens and the sed expression
	// that does it.
	matrix, matrixSed string
}

var real6Projects = []real6Project{
	{realProject: realProject{module: "github.com/gorilla/mux", version: "v1.8.1",
		history: []string{"Initial import", "Fix the host matcher for ports", "Add Route.GetMethods", "Update the README examples",
			"Bump the Go versions in CI", "Document the middleware order"},
		subject: "Document the strict slash option in README", goFile: "doc.go", mdFile: "README.md",
		workflow: ".github/workflows/test.yml", colleagueFile: ".github/workflows/verify.yml"},
		docDir: ".github", sparse: ".github", build: ".", test: "go test -count=1 -run 'TestPathPrefix$' .",
		goBump: "1.21", matrix: ".github/workflows/test.yml", matrixSed: `s/'1.20','1.21'\]/'1.20','1.21','1.22']/`},
	{realProject: realProject{module: "github.com/sirupsen/logrus", version: "v1.9.3",
		history: []string{"Initial import", "Fix a race on the entry's buffer", "Add the WithContext helper", "Update the changelog for 1.9",
			"Bump golang.org/x/sys", "Document the JSON formatter's field map"},
		subject: "Document the TextFormatter options in README", goFile: "doc.go", mdFile: "README.md",
		workflow: ".github/workflows/ci.yaml", colleagueFile: ".github/workflows/stale.yaml"},
		docDir: "hooks/writer", sparse: "hooks", build: ".", test: "go test -count=1 -run 'TestEntryWithError$' .",
		goBump: "1.16", matrix: ".github/workflows/ci.yaml", matrixSed: `s/go-version: \[1.17.x\]/go-version: [1.17.x, 1.21.x]/`},
	{realProject: realProject{module: "go.uber.org/zap", version: "v1.27.0",
		history: []string{"Initial import", "Fix the sampler's tick for zero", "zapcore: add the BufferedWriteSyncer", "Update the FAQ on sugared loggers",
			"Bump the Go versions in CI", "Document the Option ordering"},
		subject: "Document the sampling options in README", goFile: "doc.go", mdFile: "README.md",
		workflow: ".github/workflows/fossa.yaml", colleagueFile: ".github/workflows/fossa.yaml"},
		docDir: "zapcore", sparse: "zapcore", build: ".", test: "go test -count=1 -run 'TestNewAtomicLevel$' .",
		goBump: "1.20", require: "go.uber.org/multierr@v1.11.0", matrix: ".github/workflows/go.yml", matrixSed: `s/go: \["1.21.x", "1.22.x"\]/go: ["1.21.x", "1.22.x", "1.23.x"]/`},
}

// real6Fetch downloads mv (module@version) into the module cache, before
// the session, so the agent's offline go get finds it.
func real6Fetch(t *testing.T, cache, mv string) {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", mv)
	cmd.Dir = cache
	cmd.Env = append(os.Environ(), "GOMODCACHE="+cache, "GOFLAGS=-modcacherw", "GO111MODULE=on")
	if out, err := cmd.CombinedOutput(); err != nil {
		ciskip.Missing(t, "module-proxy", "the Go module proxy cannot serve "+mv+" here: "+err.Error()+"\n"+string(out))
	}
}

// real6gh is a gh-like script at ../bin/gh that only reads.
const real6gh = `mkdir -p ../bin && printf '#!/bin/sh\ncase "$1" in\npr) echo "[{\\"number\\":12,\\"title\\":\\"docs\\"}]" ;;\nrun) echo "completed success" ;;\n*) echo "gh: $*" >&2; exit 1 ;;\nesac\n' > ../bin/gh && chmod +x ../bin/gh && `

func TestAgentReal6(t *testing.T) {
	t.Parallel()
	for _, rp6 := range real6Projects {
		rp6 := rp6
		rp := rp6.realProject
		t.Run(realName(rp.module), func(t *testing.T) {
			t.Parallel()
			tree := realTree(t, rp.module, rp.version)
			deps := true
			if _, err := os.Stat(filepath.Join(tree, "go.sum")); err != nil {
				deps = false
			}
			cache := real5ModCache(t, tree, deps)
			if rp6.require != "" {
				real6Fetch(t, cache, rp6.require)
			}
			p := realClone(t, rp)
			p.session = "real6-" + realName(rp.module)
			w7loaded(p) // the hooks the session started with, through the sparse checkout
			p.env = append(p.env, "GOMODCACHE="+cache, "GOSUMDB=off")
			parent := filepath.Dir(p.dir)
			p.git("clone", "-q", "--bare", p.dir, filepath.Join(parent, "project.git"))
			p.git("remote", "add", "upstream", "../project.git")
			p.git("fetch", "-q", "upstream")
			s := &real5Session{realSession: &realSession{player: p, rp: rp}}
			defer func() {
				for _, r := range s.rows {
					t.Log(strings.Replace(r, "REAL4 |", "REAL6 |", 1))
				}
			}()
			md, gof, doc, subj := rp.mdFile, rp.goFile, rp6.docDir, rp.subject

			// Looking, building, the module moved on.
			s.work("session start: status, branches, remotes", `git status -sb && git branch -vv >/dev/null && git remote -v >/dev/null && git describe --always`)
			s.read(md)
			s.read(gof)
			s.work("go build and go vet", `go build `+rp6.build+` && go vet `+rp6.build)
			s.work("one test of the project", rp6.test+` >/dev/null`)
			s.work("the go directive bumped, built, committed", `go mod edit -go=`+rp6.goBump+` && go build `+rp6.build+` && git commit -q -am "`+subj+` (go `+rp6.goBump+`)"`)
			if rp6.require != "" {
				s.work("a requirement bumped by go get offline, built, committed", `go get `+rp6.require+` >/dev/null 2>&1 && go build `+rp6.build+` && git add go.mod go.sum && git commit -q -m "`+subj+` (bump `+strings.Split(rp6.require, "@")[0]+`)"`)
			}
			if err := os.WriteFile(filepath.Join(parent, "matrix.sed"), []byte(rp6.matrixSed+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s.work("the CI matrix widened by a sed script, committed", `sed -i -f ../matrix.sed `+rp6.matrix+` && ! git diff --quiet && git commit -q -am "`+subj+` (CI matrix)"`)
			s.stopQuiet("the module moved on")

			// Code and docs on a stack of branches.
			goSrc := string(readFile4(t, filepath.Join(s.dir, gof)))
			tail := uniqueTail(goSrc)
			s.work("a branch for the code", `git switch -q -c code`)
			s.row("Edit "+gof, "quiet", s.editCall(gof, tail, tail+"\n// realSix answers six.\nfunc realSix() int { return 6 }\n"))
			s.row("Write of a test beside it", "quiet", s.writeCall("real6_test.go", "package "+goPackage(goSrc)+"\n\nimport \"testing\"\n\nfunc TestRealSix(t *testing.T) {\n\tif realSix() != 6 {\n\t\tt.Fatal(realSix())\n\t}\n}\n"))
			s.work("the test run, committed with a message from a file", `go test -count=1 -run 'TestRealSix$' . >/dev/null && git add -A && printf '%s\n\nA test shows it.\n' "`+subj+` (six)" > ../msg && git commit -q -F ../msg`)
			s.work("a docs branch stacked on it", `git switch -q -c docs && printf '\n## Six\n\nrealSix answers six.\n' >> `+md+` && git commit -q -am "`+subj+` (docs)"`)
			s.row("Write of a new page in "+doc, "quiet", s.writeCall(doc+"/SIX.md", "# Six\n\nSee the [README](../"+strings.Repeat("../", strings.Count(doc, "/"))+md+").\n"))
			s.work("the page committed", `git add `+doc+`/SIX.md && git commit -q -m "`+subj+` (page)"`)
			s.work("main moves on", `git switch -q main && printf 'Main moved.\n' > `+doc+`/MAIN.md && git add `+doc+` && git commit -q -m "`+subj+` (main)"`)
			s.work("the stack moved with rebase --update-refs", `git switch -q docs && git rebase -q --update-refs main && git merge-base --is-ancestor main code`)
			s.work("the docs branch alone moved with --onto, merged --no-ff", `git rebase -q --onto main code docs && git switch -q main && git merge -q --no-ff --no-edit docs`)
			s.work("the code branch merged, both deleted", `git merge -q --no-edit code && git branch -q -D code docs`)
			s.work("two small branches taken in by an octopus merge", `git switch -q -c left main && printf 'Left.\n' > `+doc+`/LEFT.md && git add `+doc+` && git commit -q -m "`+subj+` (left)" && git switch -q -c right main && printf 'Right.\n' > `+doc+`/RIGHT.md && git add `+doc+` && git commit -q -m "`+subj+` (right)" && git switch -q main && git merge -q --no-edit left right && git branch -q -d left right`)
			s.work("push", `git push -q origin main`)
			s.stopQuiet("a stack of branches")

			// The fork and the colleagues.
			real5Push(p, "project.git", "project", doc+"/UPSTREAM.md", "The project's page.\n", true)
			real5Push(p, "project.git", "project", doc+"/UPSTREAM.md", "A second line.\n", true)
			s.work("a range picked from the project upstream with -x", `git fetch -q upstream && git cherry-pick -x upstream/main~2..upstream/main >/dev/null && git push -q origin main`)
			realColleague(p, rp.colleagueFile, "# a colleague's note\n")
			s.work("pull --rebase --autostash over an unfinished edit", `printf '\nUnfinished.\n' >> `+md+` && git pull -q --rebase --autostash && ! git diff --quiet && git commit -q -am "`+subj+` (finished)" && git push -q origin main`)
			s.work("a depth-1 clone of origin, a page there pushed as a branch", `git clone -q --depth 1 "file://$(cd ../up.git && pwd)" ../shallow6 && cd ../shallow6 && printf 'Shallow.\n' > `+doc+`/SHALLOW.md && git add `+doc+` && git commit -q -m "`+subj+` (shallow)" && git push -q origin HEAD:shallow && cd .. && rm -rf shallow6`)
			s.work("the branch from the shallow clone merged into main", `git fetch -q && git merge -q --no-ff --no-edit origin/shallow && git push -q origin main :shallow`)
			s.work("the agent's own series mailed to itself and applied with am", `git switch -q -c mail && printf 'Mail one.\n' > `+doc+`/MAIL1.md && git add `+doc+` && git commit -q -m "`+subj+` (mail one)" && printf 'Mail two.\n' > `+doc+`/MAIL2.md && git add `+doc+` && git commit -q -m "`+subj+` (mail two)" && git format-patch -q -o ../mail main && git switch -q main && git am -q ../mail/*.patch && git branch -q -D mail && rm -rf ../mail`)
			s.stopQuiet("the fork and the colleagues")

			// Looking back, housekeeping, tags.
			s.work("bisect whose probe is go vet", `git bisect start HEAD HEAD~4 >/dev/null && git bisect run go vet `+rp6.build+` >/dev/null 2>&1; git bisect reset >/dev/null 2>&1`)
			s.work("a sparse checkout of one directory, a commit inside it, disabled", `git sparse-checkout set `+rp6.sparse+` && printf 'Sparse.\n' > `+doc+`/SPARSE.md && git add `+doc+`/SPARSE.md && git commit -q -m "`+subj+` (sparse)" && git sparse-checkout disable`)
			s.work("gc --aggressive, fsck, maintenance of loose objects", `git gc -q --aggressive && git fsck --no-progress >/dev/null 2>&1 && git maintenance run --task=loose-objects`)
			s.work("annotated tags pushed with --tags", `git tag -a v9.8.0 -m "Release v9.8.0" HEAD~1 && git tag -a v9.8.1 -m "Release v9.8.1" && git push -q --tags origin && git describe --tags >/dev/null`)
			s.work("gh-like scripts and plumbing that only read", real6gh+`PATH="$PWD/../bin:$PATH" gh pr list && PATH="$PWD/../bin:$PATH" gh run list && git for-each-ref --count=5 >/dev/null && git log --format='%h %an %s' -5 >/dev/null && git cat-file -t HEAD`)
			s.work("stash -u of scratch and an edit, popped, committed", `printf 'scratch\n' > `+doc+`/SCRATCH.txt && printf '\nStashed.\n' >> `+md+` && git stash -q -u && git stash pop -q && rm `+doc+`/SCRATCH.txt && git commit -q -am "`+subj+` (stashed)" && git push -q origin main`)
			s.stopQuiet("looking back and tags")

			// Controls: a home path in a doc and a tag-pinned action, named
			// right after their Edits; a leak committed past the hook in a
			// linked worktree, named, its remedy run.
			s.leakAndTagControls(md, s.firstLine(md, " "), rp.workflow)
			s.work("a linked worktree for a note", `git worktree add -q -b note6 ../note6`)
			words, _, _ := s.bashCall(`cd ../note6 && printf 'Kept in /ho` + `me/marta/notes.\n' > ` + doc + `/NOTE.md && git add ` + doc + ` && echo 'git commit -q -n -m "` + subj + ` (note)"' | sh`)
			s.row("control: a leak committed past the hook in a linked worktree", "named check-tree-terms", namedAs(words, "check-tree-terms"))
			if remedy := remedyOf(words); remedy == "" {
				s.row("control remedy offered", "a remedy", "none in: "+words)
			} else {
				s.work("control remedy: "+remedy, `cd ../note6 && `+remedy)
			}
			s.work("the worktree removed", `git worktree remove --force ../note6 && git branch -q -D note6`)
			s.stopQuiet("after the remedies")
		})
	}
}
