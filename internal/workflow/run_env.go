package workflow

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
