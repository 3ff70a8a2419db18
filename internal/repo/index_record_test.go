package repo

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// git ls-files --debug's listing is read whatever a name holds: a name
// ending in a newline, or holding one, ends at its NUL, and the five
// debug lines after it are counted from there.
func TestIndexFlagsNamesWithNewlines(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no newline in a Windows file name")
	}
	dir, env := statRepo(t, map[string]string{"ends\n": "a\n", "mid\nname": "b\n", "plain": "c\n"})
	g := Git{Env: env}
	cli, err := g.IndexFlags(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.Index(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cli) != 3 || !reflect.DeepEqual(got, cli) {
		t.Fatalf("ls-files --debug read as %+v\nthe index %+v", cli, got)
	}
}

// assertion P: a recording reader does not hash an index file whose stat
// stamp and trailer are the ones recorded as verified: the record alone
// vouches for it (here for bytes changed under an unchanged trailer, which
// only the record's word lets through); with no record, or a record of
// another file, or for a reader that records nothing, the file is hashed
// and refused.
func TestIndexRecordSparesTheHash(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the stat fields are read on Linux only")
	}
	fx := newFixture(t)
	g := Git{Env: fx.env, RecordVerified: true}
	p := filepath.Join(fx.top, ".git", "index")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[40] ^= 0xff // the first entry's uid: decodable, but not the hashed bytes
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stamp, _, ok := indexStamp(p)
	if !ok {
		t.Fatal("no stamp")
	}
	record := filepath.Join(fx.top, ".git", verifiedDir, verifiedName)
	rec := p + "\x00" + stamp + "\x00" + hex.EncodeToString(data[len(data)-20:])
	if err := os.MkdirAll(filepath.Dir(record), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(record, []byte(rec+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := g.StagedSnapshot(fx.top)
	if err != nil {
		t.Fatalf("with the file's own record: %v, want it read unhashed", err)
	}
	if s.Len() == 0 {
		t.Fatal("nothing listed")
	}
	if _, err := (Git{Env: fx.env}).StagedSnapshot(fx.top); err == nil {
		t.Fatal("a reader that records nothing trusted the record")
	}
	if err := os.WriteFile(record, []byte("other\x00"+stamp+"\x00x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := g.StagedSnapshot(fx.top); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("with a record of another file: %v, want the checksum refused", err)
	}
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	if _, err := g.StagedSnapshot(fx.top); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("with no record: %v, want the checksum refused", err)
	}
}

// assertion H: a version 4 name that strips 128 bytes or more from the
// previous one (a strip count of two varint bytes: 252 and 605 here)
// reads as git lists it.
func TestIndexV4LongSharedPrefix(t *testing.T) {
	long := strings.Repeat("d", 150) + "/" + strings.Repeat("e", 100)
	huge := strings.Repeat("h", 200) + "/" + strings.Repeat("i", 200) + "/" + strings.Repeat("j", 200)
	files := map[string]string{}
	for _, n := range []string{long + "/a", long + "/b", long + "x", huge[:240] + "/" + strings.Repeat("k", 10), huge + "/z", "short"} {
		files[n] = n[len(n)-1:] + "\n"
	}
	dir, env := statRepo(t, files)
	runGit(t, dir, env, "update-index", "--index-version", "4")
	got := holdIndexEqual(t, dir, env, false)
	if len(got) != len(files) {
		t.Fatalf("%d entries, want %d", len(got), len(files))
	}
}
