package repo

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// IndexFile answers the bytes the index records for path (spelled relative
// to dir's work-tree top, '/'-separated), and false when the index holds
// no stage-0 entry for it. One `git cat-file --batch` answers it, under
// the environment git handed the caller (a hook's GIT_INDEX_FILE among
// it), so a commit's own index is the one read.
func IndexFile(dir, path string) ([]byte, bool, error) { return Git{}.IndexFile(dir, path) }

// IndexFile is the package-level IndexFile under g's environment.
func (g Git) IndexFile(dir, path string) ([]byte, bool, error) {
	if strings.ContainsAny(path, "\n\r") || path == "" {
		return nil, false, fmt.Errorf("cannot ask the index for %q", path)
	}
	out, err := g.runStdin(dir, "the index's copy of "+path, strings.NewReader(":"+path+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, false, err
	}
	head, rest, ok := bytes.Cut(out, []byte("\n"))
	if !ok {
		return nil, false, fmt.Errorf("git cat-file answered %q for %s", out, path)
	}
	fields := strings.Fields(string(head))
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, false, nil
	}
	if len(fields) != 3 || fields[1] != "blob" {
		return nil, false, fmt.Errorf("git cat-file answered %q for %s", head, path)
	}
	n, err := strconv.Atoi(fields[2])
	if err != nil || n < 0 || n > len(rest) {
		return nil, false, fmt.Errorf("git cat-file answered %q for %s", head, path)
	}
	return rest[:n], true, nil
}
