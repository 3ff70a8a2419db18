package e2e

// The installer bootstrap's refusals, proved with a stand-in artifact (a
// shell script that records the init it was asked for), so no release
// build is needed: an empty or malformed digest, a wrong one whose message
// names the tarball, and a damaged gzip stream that tar alone would accept.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// standInPayload writes a payload directory whose host artifact is a shell
// script, and the same payload as a .tar.gz; it answers both paths and the
// tarball's digest.
func standInPayload(t *testing.T) (dir, tarball, sum string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "payload")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > installed-with.txt\n"
	digest := sha256.Sum256([]byte(script))
	files := map[string]string{
		"targets.list":                               hostTarget() + "\n",
		"artifact/" + hostTarget() + "/gates":        script,
		"artifact/" + hostTarget() + "/gates.sha256": hex.EncodeToString(digest[:]) + "  gates\n",
		"install.sh":                                 string(mustRead(t, filepath.Join(moduleRoot, "kits", "gate-sdk", "bin", "install.sh"))),
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := int64(0o644)
		if strings.HasSuffix(rel, "/gates") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(body), os.FileMode(mode)); err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: rel, Mode: mode, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	tarball = filepath.Join(base, "payload.tar.gz")
	if err := os.WriteFile(tarball, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(buf.Bytes())
	return dir, tarball, hex.EncodeToString(s[:])
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInstallerRefusesWhatItCannotVerify(t *testing.T) {
	t.Parallel()
	dash := needDash(t)
	dir, tarball, sum := standInPayload(t)
	installer := filepath.Join(dir, "install.sh")

	// The stand-in installs from the verified tarball: the baseline case.
	a := newAdopter(t)
	if r := a.runIn("", dash, installer, "--sha256", sum, tarball, "--hooks"); r.code != 0 {
		t.Fatalf("a verified tarball: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := a.read("installed-with.txt"); got != "init\n--hooks\n" {
		t.Fatalf("the stand-in ran as %q, want init --hooks", got)
	}

	// A damaged gzip trailer: the stream decodes whole, so tar reads every
	// member, but gzip's CRC check fails. The old pipe read only tar's status.
	data := mustRead(t, tarball)
	damaged := append([]byte(nil), data...)
	damaged[len(damaged)-6] ^= 0xff // inside the CRC-32 of the trailer
	bad := filepath.Join(t.TempDir(), "damaged.tar.gz")
	if err := os.WriteFile(bad, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	badSum := sha256.Sum256(damaged)

	cases := []struct {
		name string
		args []string
		want string
	}{
		{"an empty digest (an unset variable)", []string{"--sha256", "", tarball}, "empty digest"},
		{"a digest that is not hex", []string{"--sha256", "not-a-digest", tarball}, "not a hex sha256"},
		{"a short digest", []string{"--sha256", "abc123", tarball}, "not 64"},
		{"a wrong digest", []string{"--sha256", strings.Repeat("0", 64), tarball}, "the payload " + tarball + " has sha256 " + sum},
		{"a damaged gzip stream without a digest", []string{bad}, "gzip refused it"},
		{"a damaged gzip stream whose digest is the damaged one", []string{"--sha256", hex.EncodeToString(badSum[:]), bad}, "gzip refused it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAdopter(t)
			before := a.status()
			r := a.runIn("", dash, append([]string{installer}, c.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, want 2 with %q\n%s%s", r.code, c.want, r.stdout, r.stderr)
			}
			if strings.Contains(r.stderr, "parameter not set") {
				t.Fatalf("the refusal was lost to the shell:\n%s", r.stderr)
			}
			if after := a.status(); after != before {
				t.Fatalf("a refused install placed:\n%s", after)
			}
		})
	}
}
