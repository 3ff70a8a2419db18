package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden stdout/code files")

// fakeRunner answers what a case's gates.json scripts.
type fakeRunner struct {
	For       *Result  `json:"for"`
	ForErr    string   `json:"for_error"`
	Msg       *Result  `json:"commit_msg"`
	MsgErr    string   `json:"commit_msg_error"`
	Change    []string `json:"changed"`
	ChangeErr string   `json:"changed_error"`
	Top       string   `json:"top"`

	gotFor []string
	gotMsg []string
}

func (f *fakeRunner) ForPaths(paths []string) (Result, error) {
	f.gotFor = append(f.gotFor, paths...)
	if f.ForErr != "" {
		return Result{}, errors.New(f.ForErr)
	}
	if f.For == nil {
		return Result{Ran: 1}, nil
	}
	return *f.For, nil
}

func (f *fakeRunner) CommitMsg(msg string) (Result, error) {
	f.gotMsg = append(f.gotMsg, msg)
	if f.MsgErr != "" {
		return Result{}, errors.New(f.MsgErr)
	}
	if f.Msg == nil {
		return Result{Ran: 1}, nil
	}
	return *f.Msg, nil
}

func (f *fakeRunner) Changed() ([]string, error) {
	if f.ChangeErr != "" {
		return nil, errors.New(f.ChangeErr)
	}
	return f.Change, nil
}

func (f *fakeRunner) Rel(abs string) (string, bool) {
	top := f.Top
	if top == "" {
		top = "/srv/dev/project"
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// TestGolden runs every case under testdata/golden/<member>/<case>/: the
// payload (payload.json; absent means empty stdin), the scripted gate run
// (gates.json), and the expected stdout bytes (stdout) and status (code).
// stderr.txt, when present, lists lines stderr must contain.
func TestGolden(t *testing.T) {
	members, err := os.ReadDir("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, md := range members {
		m, ok := Lookup(md.Name())
		if !ok {
			t.Errorf("testdata/golden/%s names no member", md.Name())
			continue
		}
		cases, err := os.ReadDir(filepath.Join("testdata/golden", md.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, cd := range cases {
			dir := filepath.Join("testdata/golden", md.Name(), cd.Name())
			t.Run(md.Name()+"/"+cd.Name(), func(t *testing.T) {
				runGolden(t, m, dir)
			})
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d golden cases; the corpus has gone missing", n)
	}
}

func runGolden(t *testing.T, m Member, dir string) {
	stdin, err := os.ReadFile(filepath.Join(dir, "payload.json"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	fr := &fakeRunner{}
	if data, err := os.ReadFile(filepath.Join(dir, "gates.json")); err == nil {
		if err := json.Unmarshal(data, fr); err != nil {
			t.Fatalf("gates.json: %v", err)
		}
	}
	var out, errb bytes.Buffer
	p, perr := ReadPayload(bytes.NewReader(stdin))
	code := m.Run(&Call{Member: m.Name, Payload: p, PayloadErr: perr, Stdout: &out, Stderr: &errb, Gates: fr})
	if *update {
		os.WriteFile(filepath.Join(dir, "stdout"), out.Bytes(), 0o644)
		os.WriteFile(filepath.Join(dir, "code"), []byte(strconv.Itoa(code)+"\n"), 0o644)
		return
	}
	wantOut, err := os.ReadFile(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	wantCode, err := os.ReadFile(filepath.Join(dir, "code"))
	if err != nil {
		t.Fatal(err)
	}
	if strconv.Itoa(code) != strings.TrimSpace(string(wantCode)) {
		t.Errorf("exit %d, want %s\nstderr: %s", code, strings.TrimSpace(string(wantCode)), errb.String())
	}
	if !bytes.Equal(out.Bytes(), wantOut) {
		t.Errorf("stdout:\n%s\nwant:\n%s", out.Bytes(), wantOut)
	}
	if len(out.Bytes()) > 0 {
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Errorf("stdout is not one JSON object: %v", err)
		}
	}
	if want, err := os.ReadFile(filepath.Join(dir, "stderr.txt")); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
			if !strings.Contains(errb.String(), l) {
				t.Errorf("stderr lacks %q:\n%s", l, errb.String())
			}
		}
	}
	if want, err := os.ReadFile(filepath.Join(dir, "ran.txt")); err == nil {
		got := strings.Join(append(fr.gotFor, fr.gotMsg...), "\n")
		if strings.TrimSpace(got) != strings.TrimSpace(string(want)) {
			t.Errorf("the gates were asked about:\n%s\nwant:\n%s", got, want)
		}
	}
}

// FuzzReadPayload: any bytes either read as a payload or refuse; the
// members never panic on what they read, and a refused payload never
// blocks.
func FuzzReadPayload(f *testing.F) {
	for _, s := range []string{"", "{}", "not json", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git commit -n -m x"}}`,
		`{"hook_event_name":"Stop","stop_hook_active":true}`, `{"tool_input":[1,2]}`, `{"tool_input":{"file_path":3}}`, `[]`, `{"a":1}{"b":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadPayload(bytes.NewReader(data))
		if (p == nil) == (err == nil) {
			t.Fatalf("payload %v with error %v", p, err)
		}
		for _, m := range Members() {
			var out, errb bytes.Buffer
			code := m.Run(&Call{Member: m.Name, Payload: p, PayloadErr: err, Stdout: &out, Stderr: &errb, Gates: &fakeRunner{}})
			if err != nil && code != Allow {
				t.Fatalf("%s blocked on an unreadable payload", m.Name)
			}
			if out.Len() > 0 && !json.Valid(out.Bytes()) {
				t.Fatalf("%s wrote an envelope that is not JSON: %s", m.Name, out.Bytes())
			}
		}
	})
}
