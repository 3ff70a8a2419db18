package workflow

import (
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// EnvNames answers the names the runner puts in the environment of the
// body's step from the workflow: the keys of the step's env:, the job's
// and the workflow's (an action's step has its own env: alone), in that
// order, each once. A name set there is assigned when the body starts.
func (r *Run) EnvNames() []string {
	var entries []*Entry
	if r.Step != nil {
		entries = append(entries, r.Step.Env)
	}
	if r.Job != nil && !r.Job.Action {
		entries = append(entries, r.Job.Env)
		if r.Job.file != nil {
			entries = append(entries, r.Job.file.Env)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range entries {
		for _, k := range EnvKeys(e) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// githubEnvWrite matches a line of a run: body that appends NAME=value to
// the job's environment file: an echo or printf whose first word starts
// with a shell name and =, sent to $GITHUB_ENV.
var githubEnvWrite = regexp.MustCompile(`^\s*(?:echo|printf)\s+(?:-[a-zA-Z]+\s+)*["']?([A-Za-z_][A-Za-z0-9_]*)=.*>>\s*["']?\$\{?GITHUB_ENV\}?`)

// GitHubEnvNames answers the names the steps of r's job before r's step
// write to $GITHUB_ENV (echo "NAME=value" >> "$GITHUB_ENV"): the runner
// sets them in the environment of every later step of the job, as an env:
// block would. A step of another job, or a later step, sets nothing here.
func (r *Run) GitHubEnvNames() []string {
	if r.Job == nil || r.Step == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range r.Job.Steps {
		if s.Index >= r.Step.Index {
			continue
		}
		if s.Run == nil || s.Run.Value == nil || s.Run.Value.Kind != yaml.ScalarNode {
			continue
		}
		for _, l := range strings.Split(s.Run.Value.Value, "\n") {
			if m := githubEnvWrite.FindStringSubmatch(l); m != nil && !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, m[1])
			}
		}
	}
	return out
}
