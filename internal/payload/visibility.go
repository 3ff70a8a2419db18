package payload

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/gate-sdk/gates/internal/walk"
)

// openLicenceMarks are phrases each of which appears in the text of one
// widely used open-source licence (its title or its grant). A repository
// that carries one at its top publishes its source: it is public on
// GitHub, or a mirror whose owner says so in the knob file.
var openLicenceMarks = []string{
	"apache license",
	"permission is hereby granted, free of charge",
	"mit license",
	"redistribution and use in source and binary forms",
	"gnu general public license",
	"gnu lesser general public license",
	"gnu affero general public license",
	"mozilla public license",
	"permission to use, copy, modify, and/or distribute",
	"permission to use, copy, modify, and distribute",
	"this is free and unencumbered software released into the public domain",
	"eclipse public license",
	"boost software license",
	"creative commons",
	"the zlib license",
	"isc license",
}

// licenceName reports whether a top-level file name is a licence file's:
// LICENSE, LICENCE, COPYING or UNLICENSE, any case, with an optional
// suffix (LICENSE.md, LICENSE-MIT, COPYING.txt).
func licenceName(name string) bool {
	up := strings.ToUpper(name)
	for _, stem := range []string{"LICENSE", "LICENCE", "COPYING", "UNLICENSE"} {
		if up == stem || strings.HasPrefix(up, stem+".") || strings.HasPrefix(up, stem+"-") {
			return true
		}
	}
	return false
}

// openLicence answers the first tracked top-level licence file (by name)
// whose text grants an open-source licence, "" when there is none. A file
// that cannot be read proves nothing and is passed over.
func openLicence(top string, tracked []string) string {
	var names []string
	for _, t := range tracked {
		if !strings.Contains(t, "/") && licenceName(t) {
			names = append(names, t)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := walk.ReadConfig(joinTop(top, n))
		if err != nil {
			continue
		}
		text := strings.ToLower(string(bytes.Join(bytes.Fields(data), []byte(" "))))
		for _, m := range openLicenceMarks {
			if strings.Contains(text, m) {
				return n
			}
		}
	}
	return ""
}

// visibilityKnob is what init seeds into the knob file when the tree
// carries an open-source licence: the repository is read as public, so
// a checkout under a permissions: block without contents: (which works
// for anyone's token there) is not a finding.
func visibilityKnob(licence string) string {
	if licence == "" {
		return ""
	}
	return "\n# Who may read this repository on GitHub. init found an open-source licence\n" +
		"# (" + path.Base(licence) + "), so it reads the repository as public: a checkout under a\n" +
		"# permissions: block without contents: works for any token there. Set private\n" +
		"# if only your organisation may read it (a private mirror, say).\n" +
		"GATE_SDK_REPO_VISIBILITY = public\n"
}

// printVisibility says what init concluded about the repository's
// visibility, and how to say otherwise.
func printVisibility(w io.Writer, p *Plan, knobFile string) {
	if p.licence == "" {
		return
	}
	fmt.Fprintf(w, "init: %s grants an open-source licence, so GATE_SDK_REPO_VISIBILITY = public (in %s); set it to private if only your organisation may read this repository\n", p.licence, knobFile)
}
