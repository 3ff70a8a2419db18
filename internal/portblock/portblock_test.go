package portblock

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/registry"
)

func input(members ...Member) Input {
	return Input{
		Members:  members,
		Floor:    []string{"git", "awk", "grep", "sed", "bash", "ls", "cat"},
		Builtins: map[string]bool{"echo": true, "printf": true, "if": true, "then": true, "fi": true, "local": true, "return": true, "[": true, "set": true, "command": true, "exit": true, "for": true, "do": true, "done": true, "in": true},
		LibFuncs: map[string]bool{"gate_kit_roots": true, "fail_closed": true},
		Knob: func(name string) ([]string, bool, error) {
			switch name {
			case "HOUSE_LINT_CMD":
				return []string{"/opt/bin/yamllint", "-s"}, true, nil
			case "HOUSE_EMPTY_CMD":
				return nil, true, nil
			}
			return nil, false, nil
		},
	}
}

func shell(name, src string) Member {
	return Member{Name: name, Kind: registry.Shell, Path: "scripts/" + name + ".sh", Source: []byte(src), Fixture: "pair"}
}

const houseGate = `#!/usr/bin/env bash
# graph: couples=*.yml dir=one valve=none tier=precommit
# jq in a comment is no call
set -uo pipefail
command -v shellcheck >/dev/null || exit 2
helper() { jq . "$1"; }
roots="$(gate_kit_roots)"
for f in $(git ls-files '*.yml'); do
	helper "$f"
	"${HOUSE_LINT_CMD[@]}" "$f"
	"$HOUSE_EMPTY_CMD" "$f"
	echo "jq is a word here" | grep -q jq
	cat <<EOF
xmllint inside a heredoc
EOF
done
printf '%s\n' "$(curl -s example.invalid)"
"$undeclared" run
exec /usr/local/bin/terraform fmt
`

// assertion B, C: command position only, the floor and builtins filtered,
// guards and knob expansions read, a local variable undecidable.
func TestShellRequirements(t *testing.T) {
	v := Requires(input(), shell("check-house", houseGate))
	got := map[string]string{}
	for _, r := range v.Rows {
		got[r.Program] = r.Evidence
	}
	want := map[string]string{
		"shellcheck": "scripts/check-house.sh:5",
		"jq":         "scripts/check-house.sh:6",
		"yamllint":   "scripts/check-house.sh:10 (HOUSE_LINT_CMD)",
		"curl":       "scripts/check-house.sh:17",
		"terraform":  "scripts/check-house.sh:19",
		"?":          "scripts/check-house.sh:18 ($undeclared)",
	}
	for p, e := range want {
		if got[p] != e {
			t.Errorf("program %s: evidence %q, want %q", p, got[p], e)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("unexpected requirement %s (%s)", p, got[p])
		}
	}
	if !v.Undecided || v.C7() != "?" {
		t.Errorf("an unbounded command word must make the member undecidable; c7=%s", v.C7())
	}
	if strings.Join(v.Calls, ",") != "gate_kit_roots,helper" || strings.Join(v.Globs, ",") != "*.yml" {
		t.Errorf("key factors: calls %v globs %v", v.Calls, v.Globs)
	}
}

// assertion A, B: compiled members answer from their row; a descriptor
// the binary lacks, an unresolved and an ambiguous name are undecidable.
func TestCompiledAndUnanswerable(t *testing.T) {
	in := input(
		Member{Name: "check-a", Kind: registry.Descriptor, Path: "k/checks/check-a.gate", Compiled: true, Needs: []string{"git", "shellcheck", "?\tHOUSE_LINT_CMD", "?\tHOUSE_EMPTY_CMD"}},
		Member{Name: "check-b", Kind: registry.Descriptor, Path: "k/checks/check-b.gate"},
		Member{Name: "check-c", Kind: registry.Unresolved},
		Member{Name: "check-d", Kind: registry.Ambiguous, Path: "scripts/check-d.sh"},
		Member{Name: "check-e", Kind: registry.Descriptor, Path: "k/checks/check-e.gate", Compiled: true, Needs: []string{"?\tNOBODY_OWNS"}},
	)
	var out bytes.Buffer
	WriteRequirements(&out, in)
	want := "check-a\tshellcheck\tk/checks/check-a.gate (--needs)\n" +
		"check-a\tyamllint\tk/checks/check-a.gate (--needs, HOUSE_LINT_CMD)\n" +
		"check-b\t?\tk/checks/check-b.gate (no compiled rule of this name in the binary)\n" +
		"check-c\t?\t(resolves to no declaration)\n" +
		"check-d\t?\tscripts/check-d.sh (ambiguous: a .sh and a .gate declare it)\n" +
		"check-e\t?\tk/checks/check-e.gate (--needs, NOBODY_OWNS: no table or declaration owns it)\n" +
		"# 5 members scanned: 3 compiled, 0 shell, 2 other; 4 undecidable\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestLexerRefusalIsUndecidable(t *testing.T) {
	v := Requires(input(), shell("check-broken", "#!/bin/bash\necho 'open\n"))
	if !v.Undecided || len(v.Rows) != 1 || !strings.HasPrefix(v.Rows[0].Evidence, "scripts/check-broken.sh:") {
		t.Fatalf("a file the lexer refuses must be one undecidable row: %+v", v)
	}
}

// assertion E, F, G: the partition, its exclusions and its trailer.
func TestGroups(t *testing.T) {
	held := shell("check-held", "#!/bin/bash\n# port-until: port-held\njq .\n")
	held.Manifest = &registry.Manifest{PortUntil: &registry.Directive{Text: "port-held"}}
	perm := shell("check-perm", "#!/bin/bash\n# no-port: ruled\njq .\n")
	perm.Manifest = &registry.Manifest{NoPort: &registry.Directive{Text: "ruled"}}
	a := shell("check-a", "gate_kit_roots\nls *.md\n")
	a.Manifest = &registry.Manifest{Graph: &registry.Graph{Tier: "precommit"}}
	a.Couples = []string{"*.md"}
	b := shell("check-b", "fail_closed x\ngate_kit_roots\nls *.md\n")
	c := shell("check-c", "gate_kit_roots\nls *.md\ncurl x\n")
	empty1 := shell("check-empty1", "jq .\n")
	empty2 := shell("check-empty2", "jq .\n")
	in := input(a, b, c, held, perm, empty1, empty2, Member{Name: "check-done", Kind: registry.Descriptor, Compiled: true})
	var out bytes.Buffer
	WriteGroups(&out, in)
	want := "group 1: 2 members\tcalls=gate_kit_roots\tglobs=*.md\n" +
		"check-a\tlines=2\tc2=pair\tc3=precommit\tc7=clean\tcouples=*.md\n" +
		"check-c\tlines=3\tc2=pair\tc3=?\tc7=curl\tcouples=-\n" +
		"group 2: 1 members\tcalls=fail_closed,gate_kit_roots\tglobs=*.md\n" +
		"check-b\tlines=3\tc2=pair\tc3=?\tc7=clean\tcouples=-\n" +
		"?\tcheck-empty1\tlines=1\tscripts/check-empty1.sh\n" +
		"?\tcheck-empty2\tlines=1\tscripts/check-empty2.sh\n" +
		"# 8 members scanned, 2 groups, 2 undecidable, 1 ported, 1 permanently shell, 1 held; still owed 6, takeable at this cut 5\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// assertion H: the tree arm's rows and trailer; every fault reads owed.
func TestTree(t *testing.T) {
	files := []TreeFile{
		{Path: "a.sh", Source: []byte("#!/bin/sh\n# no-port: the bootstrap runs before any binary\necho\n")},
		{Path: "b.sh", Source: []byte("#!/bin/sh\n# port-until: port-b later\n")},
		{Path: "c.sh", Source: []byte("echo\n# no-port: below the header is no declaration\n")},
		{Path: "d.sh", Source: []byte("# no-port: one\n# port-until: two\n")},
		{Path: "e.sh", Source: []byte("# no-port:\n")},
		{Path: "f.sh", Source: []byte("# port-until: NotASlug\n")},
		{Path: "g.sh", Source: []byte("# no-port: one\n# no-port: two\n")},
	}
	var out bytes.Buffer
	WriteTree(&out, files)
	want := "a.sh\tno-port\tlines=3\nb.sh\tport-until:port-b\tlines=2\nc.sh\towed\tlines=2\nd.sh\towed\tlines=2\ne.sh\towed\tlines=1\nf.sh\towed\tlines=1\ng.sh\towed\tlines=2\n" +
		"# 7 files scanned, 1 no-port, 1 held, 5 owed\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
	pruned := func(s string) bool { return s == "gate-tests" }
	for p, in := range map[string]bool{"a.sh": true, "x/a.test.sh": false, "gate-tests/x/a.sh": false, "a.bash": false, "k/gate-tests.sh": true} {
		if InTreeCorpus(p, pruned) != in {
			t.Errorf("InTreeCorpus(%q) != %v", p, in)
		}
	}
}

func FuzzRequires(f *testing.F) {
	f.Add(houseGate)
	f.Add("f() { x; }\n$(y) | z && w\n")
	f.Fuzz(func(t *testing.T, src string) {
		v := Requires(input(), shell("check-f", src))
		q := false
		for _, r := range v.Rows {
			if r.Program == "" || r.Member != "check-f" || r.Evidence == "" {
				t.Fatalf("bad row %+v", r)
			}
			q = q || r.Program == Undecided
		}
		if q != v.Undecided {
			t.Fatalf("a ? row and the undecidable flag disagree: %+v", v)
		}
	})
}
