package payload

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLicenceName(t *testing.T) {
	for name, want := range map[string]bool{
		"LICENSE": true, "license.md": true, "LICENCE.txt": true, "COPYING": true, "LICENSE-MIT": true,
		"UNLICENSE": true, "LICENSES": false, "README.md": false, "licensed.go": false, "NOTICE": false,
	} {
		if got := licenceName(name); got != want {
			t.Errorf("licenceName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestOpenLicence(t *testing.T) {
	cases := []struct {
		name    string
		files   map[string]string
		tracked []string
		want    string
	}{
		{"apache", map[string]string{"LICENSE": "\n   Apache License\n   Version 2.0, January 2004\n"}, []string{"LICENSE", "main.go"}, "LICENSE"},
		{"mit wrapped", map[string]string{"LICENSE.md": "Permission is hereby granted,\nfree of charge, to any person"}, []string{"LICENSE.md"}, "LICENSE.md"},
		{"bsd", map[string]string{"COPYING": "Redistribution and use in source and binary\n forms, with or without"}, []string{"COPYING"}, "COPYING"},
		{"proprietary", map[string]string{"LICENSE": "Copyright Example Corp. All rights reserved.\n"}, []string{"LICENSE"}, ""},
		{"untracked", map[string]string{"LICENSE": "MIT License\n"}, []string{"main.go"}, ""},
		{"nested only", map[string]string{"vendor/x/LICENSE": "MIT License\n"}, []string{"vendor/x/LICENSE"}, ""},
		{"second file", map[string]string{"LICENSE": "All rights reserved\n", "LICENSE-APACHE": "Apache License\n"}, []string{"LICENSE", "LICENSE-APACHE"}, "LICENSE-APACHE"},
		{"missing on disk", nil, []string{"LICENSE"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			top := t.TempDir()
			for p, text := range c.files {
				full := filepath.Join(top, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := openLicence(top, c.tracked); got != c.want {
				t.Fatalf("openLicence = %q, want %q", got, c.want)
			}
		})
	}
}

func TestVisibilitySeedAndLine(t *testing.T) {
	if visibilityKnob("") != "" {
		t.Fatal("no licence must seed no visibility line")
	}
	if k := visibilityKnob("LICENSE"); !strings.Contains(k, "\nGATE_SDK_REPO_VISIBILITY = public\n") || !strings.Contains(k, "(LICENSE)") {
		t.Fatalf("seed = %q", k)
	}
	var out bytes.Buffer
	printVisibility(&out, &Plan{}, "scripts/gate-sdk-config.knobs")
	if out.Len() != 0 {
		t.Fatalf("no licence printed %q", out.String())
	}
	printVisibility(&out, &Plan{licence: "COPYING"}, "scripts/gate-sdk-config.knobs")
	if want := "init: COPYING grants an open-source licence, so GATE_SDK_REPO_VISIBILITY = public (in scripts/gate-sdk-config.knobs); set it to private if only your organisation may read this repository\n"; out.String() != want {
		t.Fatalf("printed %q, want %q", out.String(), want)
	}
}

// TestContainerAccounts: the accounts a tree's container definitions run
// as are spared as homes; a person's home in prose, a numeric or root
// user and a test input's Dockerfile are not.
func TestContainerAccounts(t *testing.T) {
	top := t.TempDir()
	home := "/" + "home/" // composed, so this file holds no home path itself
	files := map[string]string{
		"Dockerfile":                            "FROM alpine\nRUN adduser -D -h " + home + "app app\nUSER app\nWORKDIR " + home + "builder/src\n",
		"build/Containerfile":                   "FROM x\nUSER 1000\nUSER root\n",
		"helm/chart/templates/statefulset.yaml": "        - mountPath: " + home + "scanner/.cache\n          name: cache\n",
		"docs/guide.md":                         "see " + home + "marta/notes\n",
		"testdata/Dockerfile":                   "USER jboss\n",
		"k8s/pod.yml":                           "  mountPath: \"" + home + "svc\"\n",
	}
	var tracked []string
	for p, text := range files {
		full := filepath.Join(top, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		tracked = append(tracked, p)
	}
	got := map[string]bool{}
	for _, n := range containerAccounts(top, tracked) {
		got[n] = true
	}
	for _, want := range []string{"app", "builder", "scanner", "svc"} {
		if !got[want] {
			t.Errorf("%s not spared; got %v", want, got)
		}
	}
	for _, not := range []string{"marta", "jboss", "root", "1000"} {
		if got[not] {
			t.Errorf("%s spared; got %v", not, got)
		}
	}
	seed := string(projectSpares(filepath.ToSlash(top), tracked))
	if !strings.Contains(seed, "/(home|Users)/(") || !strings.Contains(seed, "app|builder|scanner|svc") {
		t.Fatalf("projectSpares = %q", seed)
	}
}
