package marker

import (
	"strings"
	"testing"
)

const b, e = "<!-- gen:begin -->", "<!-- gen:end -->"

func TestWriteBlock(t *testing.T) {
	in := "head\n" + b + "\nold\n" + e + "\ntail"
	out, err := WriteBlock([]byte(in), b, e, "new\nlines")
	if err != nil || string(out) != "head\n"+b+"\nnew\nlines\n"+e+"\ntail" {
		t.Fatalf("%q %v", out, err)
	}
	if _, err := WriteBlock([]byte("no markers\n"), b, e, "x"); err == nil {
		t.Fatal("the generator writer appended where the markers were lost")
	}
	// A marker inside prose is no marker.
	if _, err := WriteBlock([]byte("see "+b+" here\n"), b, e, "x"); err == nil {
		t.Fatal("a marker inside prose was matched")
	}
}

func TestInstallBlockNeverDuplicates(t *testing.T) {
	out, act, err := InstallBlock([]byte("prose"), b, e, "one\n")
	if err != nil || act != Appended || string(out) != "prose\n"+b+"\none\n"+e+"\n" {
		t.Fatalf("%q %v %v", out, act, err)
	}
	again, act, err := InstallBlock(out, b, e, "two\n")
	if err != nil || act != Replaced || strings.Count(string(again), b) != 1 || !strings.Contains(string(again), "two\n") {
		t.Fatalf("%q %v %v", again, act, err)
	}
}

func TestReadAndRemove(t *testing.T) {
	in := []byte("a\r\n" + b + "\r\ninner\r\n" + e + "\r\nz\n")
	got, err := ReadBlock(in, b, e)
	if err != nil || got != "inner\r\n" {
		t.Fatalf("%q %v", got, err)
	}
	if got, err := ReadBlock([]byte("none"), b, e); err != nil || got != "" {
		t.Fatalf("absent pair: %q %v", got, err)
	}
	out, removed, err := RemoveBlock(in, b, e)
	if err != nil || !removed || string(out) != "a\r\nz\n" {
		t.Fatalf("%q %v %v", out, removed, err)
	}
	out2, removed, err := RemoveBlock(out, b, e)
	if err != nil || removed || string(out2) != string(out) {
		t.Fatal("a second removal is not a quiet no-op")
	}
}

func TestMalformedTargetsAgreeAcrossOperations(t *testing.T) {
	for _, in := range []string{
		b + "\nno end\n",
		"no begin\n" + e + "\n",
		e + "\n" + b + "\n",
		b + "\n" + e + "\n" + b + "\n" + e + "\n",
	} {
		_, err1 := WriteBlock([]byte(in), b, e, "x")
		_, _, err2 := InstallBlock([]byte(in), b, e, "x")
		_, err3 := ReadBlock([]byte(in), b, e)
		_, _, err4 := RemoveBlock([]byte(in), b, e)
		if err1 == nil || err2 == nil || err3 == nil || err4 == nil {
			t.Errorf("%q: write %v install %v read %v remove %v", in, err1, err2, err3, err4)
		}
	}
}

func FuzzInstallThenRead(f *testing.F) {
	f.Add("prose\n", "body\n")
	f.Fuzz(func(t *testing.T, text, body string) {
		if strings.Contains(body, b) || strings.Contains(body, e) || strings.ContainsRune(body, '\r') {
			return
		}
		out, _, err := InstallBlock([]byte(text), b, e, body)
		if err != nil {
			return
		}
		got, err := ReadBlock(out, b, e)
		want := body
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if err != nil || got != want {
			t.Fatalf("install then read: %q, want %q (%v)", got, want, err)
		}
	})
}
