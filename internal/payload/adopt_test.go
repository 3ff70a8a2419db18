package payload

// Unit tests of init's planner: which kit gates a repository of a given
// shape considers, what its history decides for the commit-message gates,
// what a probe's outcome makes of a gate, and the lines init prints.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestShapeOfClassifiesTrackedPaths(t *testing.T) {
	tests := []struct {
		name     string
		tracked  []string
		gates    []string
		kits     []string
		shellDir []string
	}{
		{"empty", nil, nil, nil, nil},
		{"descriptor in the gates dir", []string{"scripts/check-a.gate"}, []string{"scripts/check-a.gate"}, nil, nil},
		{"shell gate in the gates dir", []string{"scripts/check-b.sh"}, []string{"scripts/check-b.sh"}, nil, nil},
		{"shell that is no gate", []string{"scripts/build.sh", "scripts/check-c.txt", "scripts/x-check.gate.bak"}, nil, nil, []string{}},
		{"gate-named file elsewhere", []string{"docs/check-d.sh"}, nil, nil, []string{"docs"}},
		{"a kit of its own", []string{"kits/mine/checks/check-c.gate", "kits/mine/checks/check-e.sh"}, nil, []string{"kits/mine"}, nil},
		{"two kits, in order", []string{"b/checks/check-x.gate", "a/checks/check-y.gate"}, nil, []string{"b", "a"}, nil},
		{"the vendored kit", []string{"gate-sdk/checks/check-a.gate", "gate-sdk/sub/checks/check-b.gate"}, nil, nil, nil},
		{"a root that only starts like the kit's", []string{"gate-sdk-extra/checks/check-a.gate"}, nil, []string{"gate-sdk-extra"}, nil},
		{"checks dir at the top", []string{"checks/check-a.gate"}, nil, []string{"."}, nil},
		{"no checks dir", []string{"kits/mine/check-c.gate"}, nil, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := shapeOf(tc.tracked, "scripts", "gate-sdk")
			if !reflect.DeepEqual(s.ownGates, tc.gates) {
				t.Errorf("own gates %q, want %q", s.ownGates, tc.gates)
			}
			if !reflect.DeepEqual(s.kits, tc.kits) {
				t.Errorf("kits %q, want %q", s.kits, tc.kits)
			}
			if tc.shellDir != nil && len(tc.shellDir) != len(s.shellDirs) {
				t.Errorf("shell dirs %q, want %q", s.shellDirs, tc.shellDir)
			}
			for i := range tc.shellDir {
				if s.shellDirs[i] != tc.shellDir[i] {
					t.Errorf("shell dirs %q, want %q", s.shellDirs, tc.shellDir)
				}
			}
		})
	}
}

func TestConsideredByRule(t *testing.T) {
	own := repoShape{ownGates: []string{"scripts/check-a.gate"}}
	shell := repoShape{shellDirs: []string{"tools"}}
	kit := repoShape{kits: []string{"kits/mine"}}
	none := repoShape{}
	tests := []struct {
		gate  string
		shape repoShape
		why   string // "" considered; else a fragment of the reason
	}{
		{"check-gate-output", none, "it judges gates, and scripts/ holds none of this repository's own; to adopt: add one there and run init again"},
		{"check-gate-output", own, ""},
		{"check-gate-output", shell, "it judges gates"},
		{"check-shellcheck", none, "it lints shell, and this repository tracks no *.sh of its own (none outside the vendored kit, test data and vendored code) and no gate in scripts/; to adopt: add either and run init again"},
		{"check-shellcheck", own, ""},
		{"check-shellcheck", shell, ""},
		{"check-kit-registration", none, "this repository publishes no kit (no <dir>/checks/ beside the vendored one); to adopt: publish one and run init again"},
		{"check-kit-registration", own, "publishes no kit"},
		{"check-kit-registration", kit, ""},
		{"check-commit-subject", none, ""},
		{"check-tree-terms", none, ""},
	}
	for _, tc := range tests {
		got := tc.shape.considered(tc.gate, "scripts")
		switch {
		case tc.why == "" && got != "":
			t.Errorf("%s over %+v: left out: %s", tc.gate, tc.shape, got)
		case tc.why != "" && !strings.Contains(got, tc.why):
			t.Errorf("%s over %+v: %q, want it to hold %q", tc.gate, tc.shape, got, tc.why)
		}
	}
}

// judgeBy answers a Judge that passes the messages holding "ok" and
// records the environments it was given.
func judgeBy(envs *[][]string) func(string, string, []string) (bool, error) {
	return func(gate, msg string, env []string) (bool, error) {
		*envs = append(*envs, env)
		return strings.Contains(msg, "ok"), nil
	}
}

// messages answers n messages of which pass hold "ok".
func messages(n, pass int) []string {
	var out []string
	for i := 0; i < n; i++ {
		if i < pass {
			out = append(out, fmt.Sprintf("ok %d", i))
		} else {
			out = append(out, fmt.Sprintf("bad %d", i))
		}
	}
	return out
}

func TestHistoryVerdict(t *testing.T) {
	tests := []struct {
		name   string
		gate   string
		h      *history
		judge  bool
		why    string
		envSet bool
	}{
		{"no history read", "check-commit-msg", nil, true, "", false},
		{"no messages yet", "check-commit-msg", &history{}, true, "", false},
		{"no judge", "check-commit-msg", &history{messages: messages(10, 0)}, false, "", false},
		{"all pass", "check-commit-msg", &history{messages: messages(10, 10)}, true, "", false},
		{"exactly the floor", "check-commit-msg", &history{messages: messages(100, 90)}, true, "", false},
		{"one under the floor", "check-commit-msg", &history{messages: messages(100, 89)}, true,
			"89 of the 100 recent commit messages by people would pass; to adopt: echo check-commit-msg >> scripts/gates.list", false},
		{"nine of ten", "check-commit-msg", &history{messages: messages(10, 9)}, true, "", false},
		{"subjects say so", "check-commit-subject", &history{messages: messages(10, 8)}, true,
			"8 of the 10 recent subjects by people would pass; to adopt: echo check-commit-subject >> scripts/gates.list", false},
		{"admitted types judge the subjects", "check-commit-subject",
			&history{messages: messages(10, 10), roster: []string{"feat", "fix"}, extra: []typeUse{{"release", 3}}, admitted: true}, true, "", true},
		{"admitted types are no message gate's", "check-commit-msg",
			&history{messages: messages(10, 10), roster: []string{"feat"}, extra: []typeUse{{"release", 3}}, admitted: true}, true, "", false},
		{"types not admitted", "check-commit-subject",
			&history{messages: messages(10, 10), roster: []string{"feat"}, extra: []typeUse{{"release", 3}}}, true, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var envs [][]string
			w := &InitWorld{}
			if tc.judge {
				w.Judge = judgeBy(&envs)
			}
			p := &Plan{GatesDir: "scripts", history: tc.h}
			why, err := historyVerdict(w, p, tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			if why != tc.why {
				t.Errorf("why = %q, want %q", why, tc.why)
			}
			for _, env := range envs {
				if got := env != nil; got != tc.envSet {
					t.Fatalf("env %q, want set %v", env, tc.envSet)
				}
				if tc.envSet && !reflect.DeepEqual(env, []string{"GATE_SDK_COMMIT_TYPES=feat fix release"}) {
					t.Fatalf("env %q", env)
				}
			}
			if tc.judge && tc.h != nil && len(envs) != len(tc.h.messages) {
				t.Errorf("%d messages judged of %d", len(envs), len(tc.h.messages))
			}
		})
	}
}

func TestHistoryVerdictAnswersAJudgeFailure(t *testing.T) {
	boom := errors.New("boom")
	w := &InitWorld{Judge: func(string, string, []string) (bool, error) { return false, boom }}
	p := &Plan{GatesDir: "scripts", history: &history{messages: messages(3, 3)}}
	if _, err := historyVerdict(w, p, "check-commit-msg"); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the judge's", err)
	}
}

func TestPrintHistory(t *testing.T) {
	tests := []struct {
		name string
		h    *history
		want string
	}{
		{"not read", nil, ""},
		{"nothing in it", &history{}, ""},
		{"one message, one bot", &history{messages: messages(1, 1), bots: 1},
			"init: the commit-message gates were judged on the last 1 message by people (1 commit by bots left out)\n"},
		{"bots only", &history{bots: 3},
			"init: the commit-message gates were judged on the last 0 messages by people (3 commits by bots left out)\n"},
		{"types admitted", &history{messages: messages(2, 2), roster: []string{"feat"}, extra: []typeUse{{"release", 4}, {"bump", 2}}, admitted: true},
			"init: the commit-message gates were judged on the last 2 messages by people (0 commits by bots left out)\n" +
				"init: GATE_SDK_COMMIT_TYPES admits the types this history uses beyond the kit's: release (4 subjects), bump (2 subjects) (set in k.knobs)\n"},
		{"types left to the adopter", &history{messages: messages(2, 2), roster: []string{"feat"}, extra: []typeUse{{"release", 4}}},
			"init: the commit-message gates were judged on the last 2 messages by people (0 commits by bots left out)\n" +
				"init: this history's subjects use types beyond the kit's: release (4 subjects); k.knobs is yours, so init left it: to admit them, set GATE_SDK_COMMIT_TYPES = feat release there\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			printHistory(&b, &Plan{history: tc.h}, "k.knobs")
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}

func TestHistoryAdmitsReadsTheKnobFile(t *testing.T) {
	h := &history{roster: []string{"feat", "fix"}, extra: []typeUse{{"release", 2}}}
	tests := []struct {
		name string
		body *string
		want bool
	}{
		{"no file", nil, false},
		{"the line", ptr("# knobs\nGATE_SDK_COMMIT_TYPES = feat fix release\n"), true},
		{"indented, CR", ptr("  GATE_SDK_COMMIT_TYPES = feat fix release \r\nX = 1\n"), true},
		{"another roster", ptr("GATE_SDK_COMMIT_TYPES = feat fix\n"), false},
		{"commented", ptr("# GATE_SDK_COMMIT_TYPES = feat fix release\n"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			if tc.body != nil {
				if err := os.WriteFile(filepath.Join(top, "k.knobs"), []byte(*tc.body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := h.admits(top, "k.knobs"); got != tc.want {
				t.Errorf("admits = %v, want %v", got, tc.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestReadHistory(t *testing.T) {
	if h, err := readHistory(&InitWorld{}, nil); h != nil || err != nil {
		t.Fatalf("no reader: %v %v", h, err)
	}
	boom := errors.New("boom")
	if _, err := readHistory(&InitWorld{Messages: func(int) ([]HistoryCommit, error) { return nil, boom }}, nil); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	var asked int
	var commits []HistoryCommit
	commits = append(commits, HistoryCommit{Author: "dependabot[bot]", Message: "release: bump"})
	for i := 0; i < historyDepth+5; i++ {
		commits = append(commits, HistoryCommit{Author: "Ada", Email: "ada@example.org", Message: fmt.Sprintf("release: %d", i)})
	}
	commits = append(commits, HistoryCommit{Author: "renovate", Message: "late bot"})
	h, err := readHistory(&InitWorld{Messages: func(n int) ([]HistoryCommit, error) { asked = n; return commits, nil }}, []string{"feat"})
	if err != nil {
		t.Fatal(err)
	}
	if asked != historyScan {
		t.Errorf("asked for %d commits, want %d", asked, historyScan)
	}
	if len(h.messages) != historyDepth || h.messages[0] != "release: 0" || h.messages[historyDepth-1] != fmt.Sprintf("release: %d", historyDepth-1) {
		t.Errorf("%d messages, first %q", len(h.messages), h.messages[0])
	}
	if h.bots != 1 {
		t.Errorf("bots = %d, want 1 (the one past the depth is never reached)", h.bots)
	}
	if !reflect.DeepEqual(h.extra, []typeUse{{"release", historyDepth}}) {
		t.Errorf("extra = %v", h.extra)
	}
	if got := h.types(); !reflect.DeepEqual(got, []string{"feat", "release"}) {
		t.Errorf("types = %q", got)
	}
	if h.roster[0] != "feat" || len(h.roster) != 1 {
		t.Errorf("types() changed the roster: %q", h.roster)
	}
	if got := h.extraNames(); got != "release (100 subjects)" {
		t.Errorf("extraNames = %q", got)
	}
}

func TestHistoryTypesOrderAndFloor(t *testing.T) {
	msgs := []string{"b: 1", "b: 2", "a: 1", "a: 2", "c: 1", "c: 2", "c: 3", "d: once", "fix: known", "fix: known"}
	got := historyTypes(msgs, []string{"fix"})
	want := []typeUse{{"c", 3}, {"a", 2}, {"b", 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("historyTypes = %v, want %v", got, want)
	}
}

func TestMessageSubjectAndType(t *testing.T) {
	for _, tc := range []struct{ msg, subject, typ string }{
		{"", "", ""},
		{"\n\n# c\n  \nfeat: x\r\nbody", "feat: x", "feat"},
		{"#only\n", "", ""},
		{"fix(cli)!: y\t \n", "fix(cli)!: y", "fix"},
		{"a1-b: z", "a1-b: z", "a1-b"},
		{"1a: z", "1a: z", ""},
		{"-a: z", "-a: z", ""},
		{"aZ: z", "aZ: z", ""},
		{"a_b: z", "a_b: z", ""},
		{"a9: z", "a9: z", "a9"},
		{"a0: z", "a0: z", "a0"},
		{"z: z", "z: z", "z"},
		{"no type here", "no type here", ""},
	} {
		s := messageSubject(tc.msg)
		if s != tc.subject {
			t.Errorf("messageSubject(%q) = %q, want %q", tc.msg, s, tc.subject)
		}
		if got := subjectType(s); got != tc.typ {
			t.Errorf("subjectType(%q) = %q, want %q", s, got, tc.typ)
		}
	}
}

func TestShellDirsEdges(t *testing.T) {
	tracked := []string{"gate-sdk/x.sh", "gate-sdk/sub/y.sh", "gate-sdkish/z.sh", "a/fixtures/f.sh", "b/third_party/t.sh",
		"c/node_modules/n.sh", "d\tx/e.sh", "tools/a.sh", "tools/b.sh", "run.shx", "a/b/c.sh"}
	got := shellDirs(tracked, "scripts", "gate-sdk")
	if want := []string{"a/b", "gate-sdkish", "tools"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("shellDirs = %q, want %q", got, want)
	}
}

// probeWorld answers a world whose probe of every gate answers code and
// out (or err).
func probeWorld(code int, out string, err error) *InitWorld {
	return &InitWorld{Probe: func(string) (int, []byte, error) { return code, []byte(out), err }}
}

func TestProbeVerdict(t *testing.T) {
	p := &Plan{GatesDir: "scripts"}
	unread := "a.yml:3: cannot read the file (GitHub loads this file)\n2 unparseable YAML files skipped\n"
	tests := []struct {
		name      string
		code      int
		out       string
		err       error
		accepting bool
		why       string
		red       bool
		files     string
	}{
		{"green", 0, "ID: clean (3 files)\n", nil, false, "", false, ""},
		{"green with files skipped", 0, "ID: clean (2 unparseable YAML files skipped)\n", nil, false, "", false,
			"2 unparseable YAML files skipped (GitHub never loads them; the gate skips them each run)"},
		{"red, accepting", 1, "x.go:1: bad\n" + unread, nil, true, "", true,
			"1 file GitHub loads cannot be read (a.yml): accepted in scripts/gates.baseline until fixed; 2 unparseable YAML files skipped (GitHub never loads them; the gate skips them each run)"},
		{"red, not accepting", 1, "ID: FAIL\nx.go:1: bad\ny.go:2: bad\nhelp: fix it\n", nil, false,
			"reds on the tree as init found it (2 finding lines), and scripts/gates.baseline is yours, not init's; run `gates baseline` to accept them, then register it", false, ""},
		{"cannot run", 2, "\nID: cannot read x \u2014 gone\nmore\n", nil, true, "cannot run on this tree yet: ID: cannot read x - gone", false, ""},
		{"cannot run, not accepting", 2, "broken\n", nil, false, "cannot run on this tree yet: broken", false, ""},
		{"probe failed", 0, "", errors.New("no binary"), true, "could not be probed: no binary", false, ""},
		{"probe failed with a red", 1, unread, errors.New("no binary"), true, "could not be probed: no binary", false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, red := probeVerdict(probeWorld(tc.code, tc.out, tc.err), p, "check-x", tc.accepting)
			if v.Gate != "check-x" || v.Why != tc.why || red != tc.red || v.Files != tc.files {
				t.Errorf("got %+v red %v\nwant why %q red %v files %q", v, red, tc.why, tc.red, tc.files)
			}
		})
	}
}

func TestUnreadFiles(t *testing.T) {
	tests := []struct{ out, want string }{
		{"", ""},
		{"a.yml:3: cannot read it (GitHub loads this file)\nb.yml:1: cannot read it (GitHub loads this file)\na.yml:9: cannot read again (GitHub loads this file)\n",
			"2 files GitHub loads cannot be read (a.yml, b.yml): accepted in B until fixed"},
		{"ID: clean (1 unparseable YAML file skipped, 3 test inputs under testdata/ skipped)\n",
			"1 unparseable YAML file skipped (GitHub never loads them; the gate skips them each run); 3 test inputs under testdata/ skipped (GitHub never loads them; the gate skips them each run)"},
		{"a.yml:3: cannot read it\n", ""},
	}
	for _, tc := range tests {
		if got := unreadFiles([]byte(tc.out), "B"); got != tc.want {
			t.Errorf("unreadFiles(%q)\n= %q\nwant %q", tc.out, got, tc.want)
		}
	}
}

func TestFindingLinesAndFirstLine(t *testing.T) {
	if n := findingLines([]byte("ID: FAIL (2)\na:1: x\n\nb:2: y\nhelp: z\nOTHER: clean (1 file)\n")); n != 2 {
		t.Errorf("findingLines = %d, want 2", n)
	}
	if l := firstLine([]byte("  \n first \u2014 one\nsecond\n")); l != "first - one" {
		t.Errorf("firstLine = %q", l)
	}
}

func TestAdoptVerdict(t *testing.T) {
	own := repoShape{ownGates: []string{"scripts/check-a.gate"}}
	tests := []struct {
		name   string
		gate   string
		shape  repoShape
		h      *history
		judge  func(string, string, []string) (bool, error)
		code   int
		reg    bool
		why    string
		red    bool
		probed bool
	}{
		{"not considered: never probed", "check-gate-output", repoShape{}, nil, nil, 0, false, "it judges gates", false, false},
		{"considered and green", "check-gate-output", own, nil, nil, 0, true, "", false, true},
		{"considered and red, accepted", "check-tree-terms", repoShape{}, nil, nil, 1, true, "", true, true},
		{"cannot run", "check-tree-terms", repoShape{}, nil, nil, 2, false, "cannot run on this tree yet", false, true},
		{"history refuses: never probed", "check-commit-msg", repoShape{}, &history{messages: messages(10, 1)},
			func(_, m string, _ []string) (bool, error) { return strings.Contains(m, "ok"), nil }, 0, false, "1 of the 10 recent commit messages", false, false},
		{"history unreadable", "check-commit-msg", repoShape{}, &history{messages: messages(10, 1)},
			func(string, string, []string) (bool, error) { return false, errors.New("judge died") }, 0, false, "the commit history could not be read: judge died", false, false},
		{"history passes: probed", "check-commit-msg", repoShape{}, &history{messages: messages(10, 10)},
			func(_, m string, _ []string) (bool, error) { return true, nil }, 0, true, "", false, true},
		{"history gate under another rule is not judged on it", "check-tree-terms", repoShape{}, &history{messages: messages(10, 1)},
			func(string, string, []string) (bool, error) { return false, nil }, 0, true, "", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probed := false
			w := &InitWorld{Judge: tc.judge, Probe: func(string) (int, []byte, error) {
				probed = true
				return tc.code, []byte("out\n"), nil
			}}
			p := &Plan{GatesDir: "scripts", shape: tc.shape, history: tc.h}
			v, red := adoptVerdict(w, p, tc.gate, true)
			if v.Registered != tc.reg || red != tc.red || probed != tc.probed || v.Gate != tc.gate {
				t.Errorf("got %+v red %v probed %v; want registered %v red %v probed %v", v, red, probed, tc.reg, tc.red, tc.probed)
			}
			if (tc.why == "") != (v.Why == "") || !strings.Contains(v.Why, tc.why) {
				t.Errorf("why %q, want it to hold %q", v.Why, tc.why)
			}
		})
	}
}

func TestRegistryBody(t *testing.T) {
	codes := map[string]int{"check-green": 0, "check-red": 1, "check-broken": 2, "check-surface": 1}
	w := &InitWorld{Probe: func(g string) (int, []byte, error) { return codes[g], []byte("x:1: f\n"), nil }}
	p := &Plan{GatesDir: "scripts",
		zero:      []gateDecl{{name: "check-green"}, {name: "check-gate-output"}, {name: "check-red"}},
		onSurface: []gateDecl{{name: "check-broken"}, {name: "check-surface"}},
	}
	for _, accepting := range []bool{true, false} {
		t.Run(fmt.Sprintf("accepting=%v", accepting), func(t *testing.T) {
			body, verdicts, red := registryBody(w, p, accepting)
			lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
			var members, left []string
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "# unregistered: "):
					left = append(left, strings.SplitN(strings.TrimPrefix(l, "# unregistered: "), ": ", 2)[0])
				case !strings.HasPrefix(l, "#"):
					members = append(members, l)
				}
			}
			wantMembers := []string{"check-green"}
			wantLeft := []string{"check-gate-output \u2014 zero-config", "check-red \u2014 zero-config", "check-broken \u2014 on-surface", "check-surface \u2014 on-surface"}
			var wantRed []string
			if accepting {
				wantMembers = []string{"check-green", "check-red", "check-surface"}
				wantLeft = []string{"check-gate-output \u2014 zero-config", "check-broken \u2014 on-surface"}
				wantRed = []string{"check-red", "check-surface"}
			}
			if !reflect.DeepEqual(members, wantMembers) {
				t.Errorf("members %q, want %q", members, wantMembers)
			}
			if !reflect.DeepEqual(left, wantLeft) {
				t.Errorf("left out %q, want %q", left, wantLeft)
			}
			if !reflect.DeepEqual(red, wantRed) {
				t.Errorf("red %q, want %q", red, wantRed)
			}
			if len(verdicts) != 5 || verdicts[0].Gate != "check-green" || verdicts[4].Gate != "check-surface" {
				t.Errorf("verdicts %+v", verdicts)
			}
			// The on-surface head sits between the two classes.
			head := strings.Index(string(body), "# On-surface:")
			if head < 0 || strings.Index(string(body), "check-green\n") > head || !strings.Contains(string(body), "accepted in scripts/gates.baseline.\n") {
				t.Errorf("body:\n%s", body)
			}
			if accepting && strings.Index(string(body), "\ncheck-surface\n") < head {
				t.Errorf("an on-surface member before its head:\n%s", body)
			}
		})
	}
}

// A bot's address may carry its name after a leading plus.
func TestIsBotAuthorPlusFirst(t *testing.T) {
	if !IsBotAuthor("Someone", "+dependabot@users.noreply.github.com") {
		t.Error("a bot named after a leading + is not one")
	}
}

// TestKeepDeclaredGates: a check-*.sh in the gates dir is a gate only
// when its header carries a # graph: line (or cannot be read as a plain
// header); a project's own helper of that name is shell, counted for
// check-shellcheck, and the gates that judge gates are not considered for
// it alone.
func TestKeepDeclaredGates(t *testing.T) {
	files := map[string]string{
		"scripts/check-go-mod-version.sh": "#!/usr/bin/env bash\n# Checks the go directive of every go.mod.\nset -euo pipefail\n",
		"scripts/check-mine.sh":           "#!/bin/sh\n# graph: couples=*.md dir=one valve=none tier=precommit\nexit 0\n",
		"scripts/check-broken.sh":         "#!/bin/sh\n# graph: couples=*.md\n# graph: couples=*.go\n",
	}
	read := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	cases := []struct {
		name    string
		tracked []string
		gates   []string
		shell   int
		meta    bool // check-gate-fail-closed considered
		sc      bool // check-shellcheck considered
	}{
		{"a helper only", []string{"scripts/check-go-mod-version.sh", "scripts/genproto.sh"}, []string{}, 2, false, true},
		{"a helper beside a gate", []string{"scripts/check-go-mod-version.sh", "scripts/check-mine.sh"}, []string{"scripts/check-mine.sh"}, 1, true, true},
		{"a header that does not parse is left to the gates", []string{"scripts/check-broken.sh"}, []string{"scripts/check-broken.sh"}, 0, true, true},
		{"a descriptor", []string{"scripts/check-a.gate"}, []string{"scripts/check-a.gate"}, 0, true, true},
		{"tracked but gone from the work tree", []string{"scripts/check-gone.sh"}, []string{"scripts/check-gone.sh"}, 0, true, true},
		{"nothing", nil, []string{}, 0, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := shapeOf(tc.tracked, "scripts", "gate-sdk")
			if err := s.keepDeclaredGates(read); err != nil {
				t.Fatal(err)
			}
			if len(s.ownGates) != len(tc.gates) || (len(tc.gates) > 0 && !reflect.DeepEqual(s.ownGates, tc.gates)) {
				t.Errorf("own gates %q, want %q", s.ownGates, tc.gates)
			}
			if s.gatesDirShell != tc.shell {
				t.Errorf("gates-dir shell %d, want %d", s.gatesDirShell, tc.shell)
			}
			if got := s.considered("check-gate-fail-closed", "scripts") == ""; got != tc.meta {
				t.Errorf("check-gate-fail-closed considered %v, want %v", got, tc.meta)
			}
			if got := s.considered("check-shellcheck", "scripts") == ""; got != tc.sc {
				t.Errorf("check-shellcheck considered %v, want %v", got, tc.sc)
			}
		})
	}
	unreadable := func(string) ([]byte, error) { return nil, fs.ErrPermission }
	s := shapeOf([]string{"scripts/check-x.sh"}, "scripts", "gate-sdk")
	if err := s.keepDeclaredGates(unreadable); err == nil || !strings.Contains(err.Error(), "scripts/check-x.sh") {
		t.Errorf("an unreadable gate answered %v, want a refusal naming it", err)
	}
}
