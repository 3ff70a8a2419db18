package payload

import (
	"reflect"
	"testing"
)

func TestIsBotAuthor(t *testing.T) {
	cases := []struct {
		name, email string
		bot         bool
	}{
		{"dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com", true},
		{"github-actions[bot]", "41898282+github-actions[bot]@users.noreply.github.com", true},
		{"renovate", "bot@renovateapp.com", true},
		{"Renovate Bot", "29139614+renovate-bot@users.noreply.github.com", true},
		{"GitHub Actions", "github-actions@github.com", true},
		{"Ada Lovelace", "ada@example.org", false},
		{"Bob", "12345+bob@users.noreply.github.com", false},
		{"Robot Roberts", "rob@example.org", false},
	}
	for _, c := range cases {
		if got := IsBotAuthor(c.name, c.email); got != c.bot {
			t.Errorf("IsBotAuthor(%q, %q) = %v, want %v", c.name, c.email, got, c.bot)
		}
	}
}

func TestHistoryTypes(t *testing.T) {
	roster := []string{"feat", "fix", "docs"}
	msgs := []string{
		"release: v1.2.3\n", "release(cli): v1.3.0", "release!: v2.0.0\n\nbody",
		"wip: once", "Release: v1", "chore:no blank", "chore: twice", "chore: again",
		"feat: known", "feat: known", "# comment\n\nbump: x", "bump: y", "2x: digits first", "2x: again",
	}
	got := historyTypes(msgs, roster)
	want := []typeUse{{"release", 3}, {"bump", 2}, {"chore", 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("historyTypes = %v, want %v", got, want)
	}
}

func TestShellDirs(t *testing.T) {
	tracked := []string{"install.sh", "tools/a.sh", "tools/b.sh", "scripts/check-x.sh", "gate-sdk/bin/run.sh",
		"internal/x/testdata/bad.sh", "vendor/y/z.sh", "docs/readme.md", "my dir/x.sh", "ci/run.sh"}
	got := shellDirs(tracked, "scripts", "gate-sdk")
	if want := []string{".", "ci", "tools"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("shellDirs = %v, want %v", got, want)
	}
}

func TestInitWroteReason(t *testing.T) {
	cases := map[string]bool{
		"zero-config: it judges gates, and scripts/ holds none of this repository's own; to adopt: add one there and run init again": true,
		"on-surface: cannot run on this tree yet: check-x: no page":                                                                  true,
		"zero-config: 3 of the 40 recent subjects by people would pass; to adopt: echo check-commit-subject >> scripts/gates.list":   true,
		"zero-config: 3 of 40 recent subjects would pass; to adopt: echo check-commit-subject >> scripts/gates.list":                 true,
		"we publish no kit":               false,
		"on-surface: we do not want it":   false,
		"it judges gates, without a tier": false,
	}
	for reason, want := range cases {
		if got := initWroteReason(reason); got != want {
			t.Errorf("initWroteReason(%q) = %v, want %v", reason, got, want)
		}
	}
	if reasonKind("zero-config: 3 of the 4 recent subjects") != reasonKind("zero-config: 10 of the 100 recent subjects") {
		t.Error("two history figures read as two reasons")
	}
	if reasonKind("zero-config: it judges gates, and") == reasonKind("zero-config: cannot run on this tree yet: x") {
		t.Error("two reasons read as one")
	}
}
