package workflow

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file names what a finding is about in a way a routine edit leaves
// alone: the baseline keys accepted findings on it (gate.Finding.Identity).
// A line number, a ref and a message all move under such edits; a job id,
// a step's id or name, and an action's name do not.

// ActionName answers a uses: ref without its version: owner/repo[/path]
// for an action or a reusable workflow, the image without its tag or
// digest for a docker:// ref, the path for a ./ ref.
func ActionName(ref string) string {
	if img, ok := strings.CutPrefix(ref, "docker://"); ok {
		if i := strings.IndexByte(img, '@'); i >= 0 {
			img = img[:i]
		}
		if i := strings.LastIndexByte(img, ':'); i > strings.LastIndexByte(img, '/') {
			img = img[:i]
		}
		return "docker://" + img
	}
	if i := strings.LastIndexByte(ref, '@'); i >= 0 {
		return ref[:i]
	}
	return ref
}

// StepKey answers a step's identity within its job: its id: when it has
// one (GitHub holds ids unique in a job); else its name: and which step of
// that name it is; else what it runs (the action without its version, or
// a run: step) and which such step it is. Adding, removing or reordering
// other steps leaves it as it was, and so does bumping a tag.
func StepKey(j *Job, s *Step) string {
	if id := stepField(s, "id"); id != "" {
		return "id=" + id
	}
	kind := func(o *Step) string {
		if n := stepField(o, "name"); n != "" {
			return "name=" + n
		}
		if o.Uses != nil && o.Uses.Value != nil && o.Uses.Value.Kind == yaml.ScalarNode {
			return "uses=" + ActionName(o.Uses.Value.Value)
		}
		if o.Run != nil {
			return "run"
		}
		return "step"
	}
	mine := kind(s)
	k := 0
	for _, o := range j.Steps {
		if stepField(o, "id") == "" && kind(o) == mine {
			k++
		}
		if o == s {
			break
		}
	}
	return mine + "#" + strconv.Itoa(k)
}

// StepNumber answers a step's 1-based place in its job, for a note.
func StepNumber(s *Step) int { return s.Index + 1 }

// stepField answers a step's scalar key, "" when absent.
func stepField(s *Step, key string) string {
	for _, e := range entries(s.Node) {
		if e.Key == key && e.Value != nil && e.Value.Kind == yaml.ScalarNode {
			return e.Value.Value
		}
	}
	return ""
}

// Site is where a uses: line stands: its job (none for an action's runs:
// steps), and its step (nil for a job-level reusable-workflow call).
type Site struct {
	Job  *Job
	Step *Step
}

// UsesSites answers the job and step of every uses: key a job or an
// action's runs: holds, by the key's line.
func (f *File) UsesSites() map[int]Site {
	out := map[int]Site{}
	jobs := f.Jobs
	if f.Action != nil {
		jobs = append(append([]*Job(nil), jobs...), f.Action)
	}
	for _, j := range jobs {
		if j.Uses != nil {
			out[j.Uses.Line] = Site{Job: j}
		}
		for _, s := range j.Steps {
			if s.Uses != nil {
				out[s.Uses.Line] = Site{Job: j, Step: s}
			}
		}
	}
	return out
}
