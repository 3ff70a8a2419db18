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
