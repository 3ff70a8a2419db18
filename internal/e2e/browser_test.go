package e2e

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The coupling-graph page drawn in a real browser: the page this
// repository emits, served over TLS with the mermaid module the page
// imports answered from the npm package .ci/tools installs, the CDN host
// mapped to the local server, so the page's bytes stay as committed.

// mermaidDist is where .ci/tools installs the pinned mermaid package.
func mermaidDist() string {
	if d := os.Getenv("GATES_MERMAID_DIST"); d != "" {
		return d
	}
	return filepath.Join(moduleRoot, ".tmp", "npm-mermaid", "node_modules", "mermaid", "dist")
}

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
	gateNodeRe  = regexp.MustCompile(`(?m)^    g(\d+)\(?\[`)
	drawnNodeRe = regexp.MustCompile(`class="node[^"]*" id="[^"]*-flowchart-g(\d+)-\d+"`)
)

func TestGraphPageRendersInChromium(t *testing.T) {
	browser := chromiumPath()
	if browser == "" {
		t.Skip("SKIP: no chromium on PATH (.ci/tools installs Debian's chromium); the coupling-graph page was not drawn")
	}
	dist := mermaidDist()
	if _, err := os.Stat(filepath.Join(dist, "mermaid.esm.min.mjs")); err != nil {
		t.Skipf("SKIP: the mermaid package is not installed at %s (.ci/tools installs it); the page was not drawn", dist)
	}
	page := emitRepoGraph(t)
	gates := len(gateNodeRe.FindAll(page, -1))
	if gates == 0 {
		t.Fatal("the emitted page declares no gate node")
	}
	const pagePath = "/__gates-test__/CHECK-GRAPH.html"
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == pagePath {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(page)
			return
		}
		if rest, ok := strings.CutPrefix(r.URL.Path, "/npm/mermaid@11/dist/"); ok && !strings.Contains(rest, "..") {
			w.Header().Set("Content-Type", "text/javascript")
			http.ServeFile(w, r, filepath.Join(dist, filepath.FromSlash(rest)))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	port := srv.Listener.Addr().String()[strings.LastIndexByte(srv.Listener.Addr().String(), ':')+1:]
	url := "https://cdn.jsdelivr.net" + pagePath
	artifacts := filepath.Join(moduleRoot, ".tmp", "browser")
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(extra ...string) []byte {
		t.Helper()
		args := []string{
			"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + t.TempDir(), "--ignore-certificate-errors",
			"--host-resolver-rules=MAP cdn.jsdelivr.net 127.0.0.1:" + port,
			"--virtual-time-budget=30000", "--hide-scrollbars",
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, browser, append(append(args, extra...), url)...)
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
	if !bytes.Contains(dom, []byte(`data-cg="drawn"`)) {
		t.Fatalf("the page did not report a drawn graph (DOM kept at %s)", artifacts)
	}
	for _, bad := range []string{"Syntax error", `class="error-icon"`, `class="error-text"`} {
		if bytes.Contains(dom, []byte(bad)) {
			t.Fatalf("the drawn page carries mermaid error text %q", bad)
		}
	}
	if !bytes.Contains(dom, []byte("<svg")) {
		t.Fatal("no SVG in the drawn page")
	}
	drawn := map[string]bool{}
	for _, m := range drawnNodeRe.FindAllSubmatch(dom, -1) {
		drawn[string(m[1])] = true
	}
	if len(drawn) != gates {
		t.Fatalf("the SVG draws %d gate nodes; the page declares %d", len(drawn), gates)
	}
	for _, shot := range []struct{ name, flag string }{{"CHECK-GRAPH.png", ""}, {"CHECK-GRAPH-dark.png", "--force-dark-mode"}} {
		path := filepath.Join(artifacts, shot.name)
		flags := []string{"--window-size=1400,2000", "--screenshot=" + path}
		if shot.flag != "" {
			flags = append(flags, shot.flag)
		}
		run(flags...)
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Fatalf("no screenshot at %s: %v", path, err)
		}
		t.Logf("screenshot kept at %s", path)
	}
}
