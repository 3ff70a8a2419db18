package e2e

import (
	"bytes"
	"context"
	"html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gate-sdk/gates/internal/ciskip"
)

// The coupling-graph page drawn in a real browser with the network off:
// the page this repository emits, loaded from a file by headless Chromium
// in a network namespace of its own (unshare -n) where the test may make
// one, else with every host resolved to nothing and every request sent to
// a dead proxy. The drawing is inline SVG, so nothing the page needs is
// out of reach.

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// emitRepoGraph runs --emit graph over this repository.
func emitRepoGraph(t *testing.T) []byte {
	t.Helper()
	cmd := exec.Command(binPath, "--emit", "graph")
	cmd.Dir = moduleRoot
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("--emit graph: %v\n%s", err, errb.String())
	}
	return out.Bytes()
}

// TestEmitGraphIsByteStable: two emissions over this repository are the
// same bytes, and they are the committed artifact check-graph compares.
func TestEmitGraphIsByteStable(t *testing.T) {
	t.Parallel()
	a, b := emitRepoGraph(t), emitRepoGraph(t)
	if !bytes.Equal(a, b) {
		t.Fatal("two --emit graph runs differ")
	}
	committed, err := os.ReadFile(filepath.Join(moduleRoot, "scripts", "CHECK-GRAPH.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, committed) {
		t.Fatal("scripts/CHECK-GRAPH.html is not the emission; regenerate it with gates --emit graph > scripts/CHECK-GRAPH.html")
	}
}

var (
	// tableGateRe reads the gate names off the member table.
	tableGateRe = regexp.MustCompile(`<tr><td><code>([^<]+)</code>`)
	// drawnGateRe reads a drawn gate node off the DOM: its id and label.
	drawnGateRe = regexp.MustCompile(`<a id="g(\d+)" href="#g\d+" class="cg-node cg-gate[^"]*"><title>[^<]*</title><rect [^>]*>(?:</rect>)?<text [^>]*>([^<]+)</text></a>`)
)

// offline answers the wrapper and the browser flags that cut a browser
// off the network, and says which way it was done.
func offline() (wrap, flags []string, how string) {
	// Whatever else holds, no host resolves and every request goes to a
	// port nothing listens on.
	flags = []string{"--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"}
	if p, err := exec.LookPath("unshare"); err == nil {
		// As root a network namespace is one flag; another user may make
		// one inside a user namespace of its own, where the kernel lets it.
		for _, ns := range [][]string{{"-n"}, {"-r", "-n"}} {
			if exec.Command(p, append(ns, "true")...).Run() == nil {
				return append(append([]string{p}, ns...), "--"), flags, "unshare " + strings.Join(ns, " ") + " (a network namespace with no interface up) and resolver/proxy flags"
			}
		}
	}
	return nil, flags, "resolver and proxy flags only (this user cannot make a network namespace)"
}

func TestGraphPageRendersInChromium(t *testing.T) {
	t.Parallel()
	browser := chromiumPath()
	if browser == "" {
		ciskip.Missing(t, "chromium", "no chromium on PATH (.ci/tools installs Debian's chromium); the coupling-graph page was not drawn")
	}
	page := emitRepoGraph(t)
	want := map[string]bool{}
	for _, m := range tableGateRe.FindAllSubmatch(page, -1) {
		want[html.UnescapeString(string(m[1]))] = true
	}
	if len(want) == 0 {
		t.Fatal("the emitted page's table names no gate")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "CHECK-GRAPH.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	artifacts := filepath.Join(moduleRoot, ".tmp", "browser")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	wrap, flags, how := offline()
	t.Logf("network off by %s", how)
	run := func(extra ...string) []byte {
		t.Helper()
		argv := append(append(append([]string{}, wrap...), browser), flags...)
		argv = append(argv, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir="+t.TempDir(), "--hide-scrollbars")
		argv = append(append(argv, extra...), "file://"+file)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %v: %v\n%s", extra, err, errb.String())
		}
		return out.Bytes()
	}
	dom := run("--dump-dom")
	if err := os.WriteFile(filepath.Join(artifacts, "CHECK-GRAPH.dom.html"), dom, 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(dom, []byte(`<svg xmlns="http://www.w3.org/2000/svg" id="cg-svg"`)) {
		t.Fatalf("no drawing in the loaded page (DOM kept at %s)", artifacts)
	}
	drawn := map[string]bool{}
	for _, m := range drawnGateRe.FindAllSubmatch(dom, -1) {
		drawn[html.UnescapeString(string(m[2]))] = true
	}
	for g := range want {
		if !drawn[g] {
			t.Errorf("gate %s has no drawn node in the loaded page", g)
		}
	}
	if len(drawn) != len(want) {
		t.Fatalf("the drawing has %d gate nodes; the table names %d", len(drawn), len(want))
	}
	// The screenshot holds the painted nodes: the precommit fill covers a
	// good part of the first screen when the SVG is drawn.
	shot := filepath.Join(artifacts, "CHECK-GRAPH.png")
	_ = os.Remove(shot)
	run("--window-size=1400,1400", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	if n := countFill(img, 0xdb, 0xea, 0xfe); n < 2000 {
		t.Fatalf("the screenshot shows %d pixels of the gate fill; the nodes were not painted (kept at %s)", n, shot)
	}
	t.Logf("screenshot kept at %s", shot)
}

// countFill counts the pixels of one colour (within a small tolerance).
func countFill(img image.Image, r, g, b uint8) int {
	near := func(a uint32, w uint8) bool {
		d := int(a>>8) - int(w)
		return d >= -3 && d <= 3
	}
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr, r) && near(pg, g) && near(pb, b) {
				n++
			}
		}
	}
	return n
}
