package payload

// Unit tests of init's planner parts: the words init writes into a
// workflow, the ignore lines still missing, the plan a seeder extends.

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestSafeWord(t *testing.T) {
	for _, ok := range []string{"a", "z", "A", "Z", "0", "9", "https://h.example/p.tar.gz?x=1&y=2%20~+", "release-1_0"} {
		if !safeWord(ok) {
			t.Errorf("safeWord(%q) refused", ok)
		}
	}
	for _, bad := range []string{"", "`", "{", "@", "[", " ", "a b", "a\"b", "a;b", "é", "a\nb", "$x"} {
		if safeWord(bad) {
			t.Errorf("safeWord(%q) accepted", bad)
		}
	}
}

func TestMissingAppends(t *testing.T) {
	tests := []struct {
		name string
		cur  string // "" absent
		want []string
	}{
		{"absent", "", []string{"# head", "/a/", "/b"}},
		{"all present", "x\n# head\n/a/\n/b\n", nil},
		{"all present, CRLF", "/a/\r\n/b\r\n", nil},
		{"one missing, header there", "# head\n/a/\n", []string{"/b"}},
		{"one missing, no header", "/b\n", []string{"# head", "/a/"}},
		{"a line that only starts the same", "/a/x\n/bb\n", []string{"# head", "/a/", "/b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			if tc.cur != "" {
				writeFile(t, top, "dir/.gitignore", tc.cur)
			}
			p := &Plan{}
			p.Append("dir/.gitignore", "# head", "/a/", "/b")
			got, err := missingAppends(top, p)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got["dir/.gitignore"], tc.want) || (tc.want == nil && len(got) != 0) {
				t.Errorf("missing %q, want %q", got, tc.want)
			}
		})
	}
	// A header-less block: its first line is a line like any other.
	top := t.TempDir()
	writeFile(t, top, ".gitignore", "/b\n")
	p := &Plan{}
	p.Append(".gitignore", "/a/", "/b")
	if got, err := missingAppends(top, p); err != nil || !reflect.DeepEqual(got[".gitignore"], []string{"/a/"}) {
		t.Errorf("missing %q %v", got, err)
	}
	if err := os.Mkdir(top+"/x", 0o755); err != nil {
		t.Fatal(err)
	}
	p.Append("x", "/c")
	if _, err := missingAppends(top, p); err == nil || !strings.HasPrefix(err.Error(), "init: cannot read x: ") {
		t.Errorf("a directory read as a file: %v", err)
	}
}

func TestPlanAddByClass(t *testing.T) {
	p := &Plan{}
	p.Add("k", []byte("x"), true, false)
	p.Add("s", nil, false, true)
	if p.files[0].class != classKit || !p.files[0].exec || p.files[1].class != classSeed || p.files[1].exec {
		t.Errorf("planned %+v", p.files)
	}
}

func TestProjectSparesModuleNames(t *testing.T) {
	for mod, want := range map[string]string{
		"module example.com/tool/v":       "(tool|v)",
		"module example.com/tool/v12":     "(tool)",
		"module example.com/tool/vx":      "(tool|vx)",
		"  module \"example.com/widget\"": "(tool|widget)",
		"module ../weird path":            "(tool)",
	} {
		top := t.TempDir() + "/tool"
		writeFile(t, top, "go.mod", "// a comment\n"+mod+"\nmodule second/one\n")
		got := string(projectSpares(top, nil))
		if !strings.Contains(got, "/(home|Users)/"+want+"/$\n") {
			t.Errorf("%q: %q, want %s", mod, got, want)
		}
	}
}

func TestBuildPlanKitRoot(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		root string
	}{
		{map[string]string{}, "gate-sdk"},
		{map[string]string{"GATE_SDK_ROOT": ""}, "gate-sdk"},
		{map[string]string{"GATE_SDK_ROOT": "third_party/gs/"}, "third_party/gs"},
	} {
		f := newInitFake(t)
		f.env = tc.env
		p, err := BuildPlan(f.w)
		if err != nil {
			t.Fatal(err)
		}
		if p.KitRoot != tc.root || p.GatesDir != "scripts" || p.Bin != "bin/gates" {
			t.Errorf("%v: plan %q %q %q", tc.env, p.KitRoot, p.GatesDir, p.Bin)
		}
		n := 0
		for _, x := range p.files {
			if x.class == classKit {
				n++
				if !strings.HasPrefix(x.path, tc.root+"/") {
					t.Errorf("%v: kit file at %s", tc.env, x.path)
				}
			}
		}
		if n == 0 {
			t.Errorf("%v: no kit file planned", tc.env)
		}
	}
}

func TestContainerAccountsEveryMatchOfALine(t *testing.T) {
	top := t.TempDir()
	home := "/" + "home/" // composed, so this file holds no home path itself
	writeFile(t, top, "Dockerfile", "ENV HOME="+home+"alpha BUILD_HOME="+home+"beta\n")
	writeFile(t, top, "k8s/pod.yaml", "volumeMounts: [{mountPath: "+home+"gamma/x}, {mountPath: "+home+"delta/y}]\n")
	got := strings.Join(containerAccounts(top, []string{"Dockerfile", "k8s/pod.yaml"}), " ")
	if got != "alpha beta gamma delta" {
		t.Errorf("accounts %q", got)
	}
}
