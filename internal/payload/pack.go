package payload

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/mdlink"
	"github.com/gate-sdk/gates/internal/spawn"
	"github.com/gate-sdk/gates/internal/walk"
)

// PackUsage is --pack-installer's usage line.
const PackUsage = "usage: gates --pack-installer <out-dir | out.tar.gz>"

// PackInput is what the packer reads. Every path is absolute.
type PackInput struct {
	Top string
	// Roots are the kit roots to pack, repo-relative, gate-sdk first.
	Roots []string
	// Fixtures is a tracked top-level fixture tree carried into the first
	// root's gate-tests/ ("" when the fixtures live inside the kit root).
	Fixtures string
	// Templates is a tracked top-level template tree carried into the
	// first root's templates/ ("" when they live inside the kit root).
	Templates string
	Targets   string // the roster file, absolute
	Artifacts string // the build legs' output: <os>/<arch>/<binary> + sidecar
	License   string // "" places none
	Withhold  []string
	SpecBase  string
	Stamp     string
	Out       string
	Stdout    io.Writer
}

// Artifact is one target's discovered binary and its digest.
type Artifact struct {
	Target Target
	Dir    string
	Name   string
	Digest string
}

// SelectArtifact discovers the one artifact in dir: exactly one regular
// file not named *.sha256, beside its sidecar, whose digest it verifies.
func SelectArtifact(dir string) (name, digest string, err error) {
	ents, err := walk.ListDir(dir)
	if err != nil {
		return "", "", fmt.Errorf("no artifact directory %s: %v", dir, err)
	}
	var bins []string
	for _, e := range ents {
		if e.Type().IsRegular() && !strings.HasSuffix(e.Name(), SidecarSuffix) {
			bins = append(bins, e.Name())
		}
	}
	if len(bins) != 1 {
		return "", "", fmt.Errorf("%s holds %d artifacts (%s); a target's directory holds exactly one binary beside its .sha256 sidecar", dir, len(bins), strings.Join(bins, " "))
	}
	name = bins[0]
	side := walk.Child(dir, name+SidecarSuffix)
	raw, err := os.ReadFile(side)
	if err != nil {
		return "", "", fmt.Errorf("%s has no sidecar %s: %v", name, side, err)
	}
	want, named, err := ReadSidecar(side, raw)
	if err != nil {
		return "", "", err
	}
	if named != name {
		return "", "", fmt.Errorf("%s names %s, not the artifact %s beside it", side, named, name)
	}
	got, err := FileDigest(walk.Child(dir, name))
	if err != nil {
		return "", "", err
	}
	if got != want {
		return "", "", fmt.Errorf("%s: sha256 %s does not match its sidecar's %s", walk.Child(dir, name), got, want)
	}
	return name, want, nil
}

// Pack assembles the installer payload at in.Out.
func Pack(in PackInput) error {
	tarball := strings.HasSuffix(in.Out, ".tar.gz")
	dest := in.Out
	if tarball {
		tmp, err := os.MkdirTemp(parentOf(in.Out), ".pack-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dest = tmp
	} else if ents, err := walk.ListDir(dest); err == nil && len(ents) > 0 {
		return fmt.Errorf("%s is not empty; the packer writes into an empty or absent directory", dest)
	}
	raw, err := os.ReadFile(in.Targets)
	if err != nil {
		return fmt.Errorf("no target roster: %v", err)
	}
	targets, err := ParseTargets(in.Targets, raw)
	if err != nil {
		return err
	}
	// assertion A: one verified artifact per roster line, or no payload.
	var arts []Artifact
	var missing []string
	for _, t := range targets {
		dir := walk.Child(in.Artifacts, t.String())
		name, digest, err := SelectArtifact(dir)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s (roster line %d): %v", t, t.Line, err))
			continue
		}
		arts = append(arts, Artifact{Target: t, Dir: dir, Name: name, Digest: digest})
	}
	if len(missing) > 0 {
		return fmt.Errorf("the release is incomplete; build every roster target (make release):\n  %s", strings.Join(missing, "\n  "))
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return err
	}
	leaves := mdlink.Leaves(in.Roots)
	for i, root := range in.Roots {
		leaf := path.Base(root)
		if err := packTracked(in.Top, root, walk.Child(dest, leaf), in.Withhold); err != nil {
			return err
		}
		if err := rewriteReadme(walk.Child(dest, leaf), in.SpecBase, leaf, leaves); err != nil {
			return err
		}
		for child, tree := range map[string]string{"gate-tests": in.Fixtures, "templates": in.Templates} {
			if i == 0 && tree != "" {
				if err := packTracked(in.Top, tree, walk.Child(walk.Child(dest, leaf), child), nil); err != nil {
					return err
				}
			}
		}
		if in.License != "" {
			if err := CopyFile(in.License, walk.Child(walk.Child(dest, leaf), "LICENSE"), 0o644); err != nil {
				return fmt.Errorf("cannot place the license: %v", err)
			}
		}
	}
	if in.License != "" {
		if err := CopyFile(in.License, walk.Child(dest, "LICENSE"), 0o644); err != nil {
			return fmt.Errorf("cannot place the license: %v", err)
		}
	}
	// assertion B: modes are set here, absolutely, whatever the transport kept.
	for _, a := range arts {
		to := walk.Child(walk.Child(dest, "artifact"), a.Target.String())
		if err := os.MkdirAll(to, 0o755); err != nil {
			return err
		}
		if err := CopyFile(walk.Child(a.Dir, a.Name), walk.Child(to, a.Name), 0o755); err != nil {
			return err
		}
		if err := CopyFile(walk.Child(a.Dir, a.Name+SidecarSuffix), walk.Child(to, a.Name+SidecarSuffix), 0o644); err != nil {
			return err
		}
	}
	if err := CopyFile(in.Targets, walk.Child(dest, "targets.list"), 0o644); err != nil {
		return err
	}
	sdk := walk.Child(dest, path.Base(in.Roots[0]))
	for _, f := range []string{"install.sh", "install.ps1"} {
		perm := fs.FileMode(0o644)
		if strings.HasSuffix(f, ".sh") {
			perm = 0o755
		}
		if err := CopyFile(walk.Child(walk.Child(sdk, "bin"), f), walk.Child(dest, f), perm); err != nil {
			return fmt.Errorf("the kit carries no bin/%s to place at the payload root: %v", f, err)
		}
	}
	commit, err := gitOut(in.Top, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	stamp := "# The payload stamp: who packed this payload, from which commit.\n" +
		"version = " + in.Stamp + "\ncommit = " + strings.TrimSpace(commit) + "\nspec_base_url = " + in.SpecBase + "\n"
	if err := os.WriteFile(walk.Child(dest, "payload.stamp"), []byte(stamp), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(in.Stdout, "pack-installer: %d kit root(s) and %d artifact(s) packed", len(in.Roots), len(arts))
	if !tarball {
		fmt.Fprintf(in.Stdout, " into %s\n", in.Out)
		return nil
	}
	if err := writeTarball(dest, in.Out); err != nil {
		return err
	}
	d, err := FileDigest(in.Out)
	if err != nil {
		return err
	}
	if err := os.WriteFile(in.Out+SidecarSuffix, []byte(SidecarLine(d, path.Base(in.Out))), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(in.Stdout, " into %s (sha256 %s)\n", in.Out, d)
	return nil
}

// rewriteReadme points the extracted README's SPEC.md links at the
// published base; the tracked README is never touched.
func rewriteReadme(kitDir, base, leaf string, leaves []string) error {
	if base == "" {
		return nil
	}
	p := walk.Child(kitDir, "README.md")
	doc, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	out, err := mdlink.RewriteSpecLinks(doc, base, leaf, leaves)
	if err != nil {
		return fmt.Errorf("%s/README.md: %v", leaf, err)
	}
	return os.WriteFile(p, out, 0o644)
}

func gitOut(dir string, args ...string) (string, error) {
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: args, Dir: dir})
	if err != nil {
		return "", err
	}
	out, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), rep)
	}
	return string(out), nil
}

// packTracked extracts root's tracked files at HEAD into dest, leaving
// out each withheld member, after refusing any symbolic link the same
// pathspec would pack.
func packTracked(top, root, dest string, withhold []string) error {
	spec := []string{root}
	for _, m := range withhold {
		m = strings.Trim(m, "/")
		if m == "" {
			continue
		}
		spec = append(spec, ":(exclude)"+root+"/"+m)
		if isDir(joinTop(top, root+"/"+m)) {
			spec = append(spec, ":(exclude)"+root+"/"+m+"/*")
		}
	}
	ls, err := gitOut(top, append([]string{"ls-files", "-s", "-z", "--"}, spec...)...)
	if err != nil {
		return err
	}
	var links []string
	for _, rec := range strings.Split(ls, "\x00") {
		if strings.HasPrefix(rec, "120000 ") {
			_, p, _ := strings.Cut(rec, "\t")
			links = append(links, p)
		}
	}
	if len(links) > 0 {
		return fmt.Errorf("refusing to pack tracked symbolic links, which a Windows checkout cannot carry: %s; replace each with the file it names, or build it at run time in the gate's .test.sh", strings.Join(links, " "))
	}
	c, err := spawn.Run(spawn.Cmd{Program: spawn.Git(), Args: append([]string{"archive", "--format=tar", "HEAD", "--"}, spec...), Dir: top})
	if err != nil {
		return err
	}
	data, ok := c.Stdout()
	if !ok {
		rep, _ := c.FailureReport()
		return fmt.Errorf("git archive %s: %s", root, rep)
	}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading git archive of %s: %v", root, err)
		}
		rel, ok := strings.CutPrefix(h.Name, root+"/")
		if !ok || h.Typeflag != tar.TypeReg {
			continue
		}
		to := walk.Child(dest, rel)
		if err := os.MkdirAll(parentOf(to), 0o755); err != nil {
			return err
		}
		perm := fs.FileMode(0o644)
		if h.Mode&0o111 != 0 {
			perm = 0o755
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, body, perm); err != nil {
			return err
		}
		if err := os.Chmod(to, perm); err != nil {
			return err
		}
	}
}

// writeTarball writes dir's tree as a gzip'd tar at out, entries sorted
// and modes kept, names relative to dir.
func writeTarball(dir, out string) error {
	var files []string
	err := walk.Walk(dir, walk.Options{}, func(rel string, d fs.DirEntry) error {
		if d.Type().IsRegular() {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	// Every writer is closed whatever went wrong before it, the file last,
	// and the first failure is the one answered.
	return errors.Join(tarEntries(tw, dir, files), tw.Close(), gz.Close(), f.Close())
}

// tarEntries writes each of files, relative to dir, as a regular entry
// with its mode.
func tarEntries(tw *tar.Writer, dir string, files []string) error {
	for _, rel := range files {
		p := walk.Child(dir, rel)
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: rel, Mode: int64(fi.Mode().Perm()), Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write(body); err != nil {
			return err
		}
	}
	return nil
}
