package knob

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

const (
	tracked = "scripts/gate-sdk-config.knobs"
	overlay = "scripts/gate-sdk-config.local.knobs"
)

type resolveCase struct {
	name   string
	files  map[string]string
	env    env
	knob   string
	want   string // wire form
	origin Origin // 0: not checked
	refuse string // non-empty: resolution must fail, with this in a finding
	at     string // with refuse: the finding leads with this file:line
}

func runResolveCases(t *testing.T, cases []resolveCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tree(t, tc.files)
			e := tc.env
			if e == nil {
				e = env{}
			}
			s := load(t, dir, e)
			v, err := s.Resolve(tc.knob)
			if tc.refuse != "" {
				if err == nil {
					t.Fatalf("%s resolved to %q; want a refusal containing %q", tc.knob, v.Wire(), tc.refuse)
				}
				for _, f := range findingsOf(err) {
					if strings.Contains(f.Msg, tc.refuse) && strings.HasPrefix(f.Error(), tc.at) {
						return
					}
				}
				t.Fatalf("no finding leads with %q and says %q:\n%v", tc.at, tc.refuse, err)
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.knob, err)
			}
			if got := v.Wire(); got != tc.want {
				t.Fatalf("%s = %q, want %q", tc.knob, got, tc.want)
			}
			if tc.origin != 0 && v.Origin != tc.origin {
				t.Fatalf("%s origin %s, want %s", tc.knob, v.Origin, tc.origin)
			}
		})
	}
}

// The acceptance examples of the knob-file rules, one case each.
func TestAcceptance(t *testing.T) {
	runResolveCases(t, []resolveCase{
		// Parsing.
		{name: "hash and equals in a value are data", files: map[string]string{tracked: "GATE_SDK_SPEC_BASE_URL = a # b = c\n"},
			knob: "GATE_SDK_SPEC_BASE_URL", want: "a # b = c", origin: OriginFile},
		{name: "dollar is literal", files: map[string]string{tracked: "GATE_SDK_GH_HOST = $HOME\n"},
			knob: "GATE_SDK_GH_HOST", want: "$HOME"},
		{name: "trailing blanks trimmed", files: map[string]string{tracked: "GATE_SDK_GH_HOST =   ghe.example   \n"},
			knob: "GATE_SDK_GH_HOST", want: "ghe.example"},
		{name: "tab in a value refused with file:line", files: map[string]string{tracked: "# c\nGATE_SDK_GH_HOST = a\tb\n"},
			knob: "GATE_SDK_GH_HOST", refuse: "contains a tab", at: tracked + ":2: "},
		{name: "keyed pairs sort by key", files: map[string]string{tracked: "GATE_SDK_PAYLOAD_RECIPES[b] = 2\nGATE_SDK_PAYLOAD_RECIPES[a] = 1\n"},
			knob: "GATE_SDK_PAYLOAD_RECIPES", want: "a=1\tb=2"},
		// Shape.
		{name: "element line for a scalar", files: map[string]string{tracked: "GATE_SDK_COMMIT_TYPES[] = feat\n"},
			knob: "GATE_SDK_COMMIT_TYPES", refuse: "is a scalar knob", at: tracked + ":1: "},
		{name: "scalar line for an indexed knob", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS = x\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "is an indexed knob", at: tracked + ":1: "},
		// Duplicates.
		{name: "scalar twice", files: map[string]string{tracked: "GATE_SDK_GH_HOST = a\nGATE_SDK_GH_HOST = b\n"},
			knob: "GATE_SDK_GH_HOST", refuse: "set twice in this file (first at line 1)", at: tracked + ":2: "},
		{name: "empty form beside an element", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS =\nGATE_SDK_JOB_REF_PATTERNS[] = a\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "cannot also have element", at: tracked + ":2: "},
		// References.
		{name: "reference spliced in place", files: map[string]string{tracked: "GATE_SDK_CRATE_TARGET_LINT_CMD[] = x\nGATE_SDK_CRATE_TARGET_LINT_CMD[] = y\n" +
			"GATE_SDK_JOB_REF_PATTERNS[] = 1\nGATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_CRATE_TARGET_LINT_CMD\nGATE_SDK_JOB_REF_PATTERNS[] = 3\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", want: "1\tx\ty\t3", origin: OriginFile},
		{name: "self reference", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_JOB_REF_PATTERNS\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "cannot splice itself", at: tracked + ":1: "},
		{name: "nested reference refuses the first resolution, whatever is read", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_CRATE_TARGET_LINT_CMD\n" +
			"GATE_SDK_CRATE_TARGET_LINT_CMD[] <- GATE_SDK_PROGRAM_FLOOR\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "own value splices a reference", at: tracked + ":1: "},
		{name: "reference to a scalar", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_TMP_DIR\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "only an indexed knob's elements", at: tracked + ":1: "},
		// Precedence.
		{name: "exported empty scalar wins over the files", files: map[string]string{tracked: "GATE_SDK_GH_HOST = ghe.example\n"},
			env: env{"GATE_SDK_GH_HOST": ""}, knob: "GATE_SDK_GH_HOST", want: "", origin: OriginEnv},
		{name: "exported indexed name ignored", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] = file\n"},
			env: env{"GATE_SDK_JOB_REF_PATTERNS": "env"}, knob: "GATE_SDK_JOB_REF_PATTERNS", want: "file", origin: OriginFile},
		{name: "overlay beats tracked", files: map[string]string{tracked: "GATE_SDK_GH_HOST = t\n", overlay: "GATE_SDK_GH_HOST = o\n"},
			knob: "GATE_SDK_GH_HOST", want: "o", origin: OriginOverlay},
		{name: "named tracked file missing", env: env{"GATE_SDK_KNOB_FILE": "/nope"},
			knob: "GATE_SDK_GH_HOST", refuse: "GATE_SDK_KNOB_FILE names this file, which does not exist", at: "/nope: "},
		{name: "named overlay missing", env: env{"GATE_SDK_LOCAL_KNOB_FILE": "/nope"},
			knob: "GATE_SDK_GH_HOST", refuse: "GATE_SDK_LOCAL_KNOB_FILE names this file", at: "/nope: "},
		{name: "relocated tracked file keeps the overlay in the gates dir",
			files: map[string]string{"cfg/mine.knobs": "GATE_SDK_GH_HOST = t\nGATE_SDK_TMP_DIR = tt\n", overlay: "GATE_SDK_GH_HOST = o\n"},
			env:   env{"GATE_SDK_KNOB_FILE": "cfg/mine.knobs"}, knob: "GATE_SDK_GH_HOST", want: "o", origin: OriginOverlay},
		{name: "relocated tracked file is read", files: map[string]string{"cfg/mine.knobs": "GATE_SDK_TMP_DIR = tt\n", overlay: "GATE_SDK_GH_HOST = o\n"},
			env: env{"GATE_SDK_KNOB_FILE": "cfg/mine.knobs"}, knob: "GATE_SDK_TMP_DIR", want: "tt", origin: OriginFile},
		{name: "tracked file beside a relocated one is not read", files: map[string]string{tracked: "GATE_SDK_TMP_DIR = stale\n", "cfg/mine.knobs": "\n"},
			env: env{"GATE_SDK_KNOB_FILE": "cfg/mine.knobs"}, knob: "GATE_SDK_TMP_DIR", want: ".tmp", origin: OriginDefault},
		// Refusals.
		{name: "env-only name in a file", files: map[string]string{tracked: "GATE_SDK_JOBS = 4\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "GATE_SDK_JOBS is environment-only", at: tracked + ":1: "},
		{name: "retired name exported", env: env{"GATE_SDK_GRAPH_THEME": "x"},
			knob: "GATE_SDK_TMP_DIR", refuse: "use GATE_SDK_GRAPH_THEME_DIR", at: "environment: "},
		{name: "legacy shell config present", files: map[string]string{"scripts/gate-sdk-config.sh": "X=1\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "legacy shell config", at: "scripts/gate-sdk-config.sh: "},
		{name: "empty CONFIG_FILE is inert", files: map[string]string{"pin.sh": ""},
			env: env{"GATE_SDK_CONFIG_FILE": "pin.sh"}, knob: "GATE_SDK_TMP_DIR", want: ".tmp"},
		{name: "non-empty CONFIG_FILE refused", files: map[string]string{"pin.sh": "GATE_SDK_TMP_DIR=x\n"},
			env: env{"GATE_SDK_CONFIG_FILE": "pin.sh"}, knob: "GATE_SDK_TMP_DIR", refuse: "names a non-empty file", at: "pin.sh: "},
		// Families.
		{name: "family member as an element", files: map[string]string{"scripts/evidence-config.knobs": "EVIDENCE_KIT_RUN_demo[] = x\n"},
			knob: "EVIDENCE_KIT_SUITES", refuse: "whose members are scalars", at: "scripts/evidence-config.knobs:1: "},
		{name: "open kit admits an undeclared scalar", files: map[string]string{"scripts/drift-config.knobs": "DRIFT_KIT_FOO = x\n"},
			knob: "DRIFT_KIT_FOO", want: "x", origin: OriginFile},
		{name: "open kit still refuses its locator", files: map[string]string{"scripts/drift-config.knobs": "DRIFT_KIT_KNOB_FILE = x\n"},
			knob: "DRIFT_KIT_KPI_DIRS", refuse: "environment-only locator", at: "scripts/drift-config.knobs:1: "},
	})
}

func TestFileRules(t *testing.T) {
	runResolveCases(t, []resolveCase{
		{name: "empty form empties an indexed knob", files: map[string]string{tracked: "GATE_SDK_PROGRAM_FLOOR =\n"},
			knob: "GATE_SDK_PROGRAM_FLOOR", want: "", origin: OriginFile},
		{name: "indexed in file order, replacing the default whole", files: map[string]string{tracked: "GATE_SDK_PROGRAM_FLOOR[] = zsh\nGATE_SDK_PROGRAM_FLOOR[] = awk\n"},
			knob: "GATE_SDK_PROGRAM_FLOOR", want: "zsh\tawk"},
		{name: "overlay replaces an indexed knob whole", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] = t1\nGATE_SDK_JOB_REF_PATTERNS[] = t2\n",
			overlay: "GATE_SDK_JOB_REF_PATTERNS[] = o1\n"}, knob: "GATE_SDK_JOB_REF_PATTERNS", want: "o1", origin: OriginOverlay},
		{name: "reference to a default", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_RELEASE_SECTION_ALIASES\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", want: "gates: Tightened gates\tknobs: Renamed knobs"},
		{name: "reference reads the other knob's overlay", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_CRATE_TARGET_LINT_CMD\nGATE_SDK_CRATE_TARGET_LINT_CMD[] = t\n",
			overlay: "GATE_SDK_CRATE_TARGET_LINT_CMD[] = o\n"}, knob: "GATE_SDK_JOB_REF_PATTERNS", want: "o"},
		{name: "reference to an empty knob adds nothing", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] = a\nGATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_CRATE_TARGET_LINT_CMD\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", want: "a"},
		{name: "reference crosses kits (default)", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- CANON_KIT_TEMPORAL_EXEMPT_SECTIONS\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", want: "Out of scope\tHistory"},
		{name: "reference crosses kits (the other kit's file)", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- CANON_KIT_MEASURED_CLAIMS_CMD\n",
			"scripts/canon-config.knobs": "CANON_KIT_MEASURED_CLAIMS_CMD[] = bash\nCANON_KIT_MEASURED_CLAIMS_CMD[] = scripts/oracle.sh\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", want: "bash\tscripts/oracle.sh"},
		{name: "reference into a refused kit", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- CANON_KIT_MEASURED_CLAIMS_CMD\n",
			"scripts/canon-config.knobs": "CANON_KIT_NOPE = 1\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "CANON_KIT_NOPE is not a knob canon-kit declares", at: "scripts/canon-config.knobs:1: "},
		{name: "reference to an undeclared name", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- FOO_BAR\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "FOO_BAR is not a statically owned knob", at: tracked + ":1: "},
		{name: "reference to a keyed knob", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_PAYLOAD_RECIPES\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "only an indexed knob's elements", at: tracked + ":1: "},
		{name: "reference from a scalar", files: map[string]string{tracked: "GATE_SDK_TMP_DIR[] <- GATE_SDK_PROGRAM_FLOOR\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "is not a declared indexed knob", at: tracked + ":1: "},
		{name: "reference from an undeclared name", files: map[string]string{tracked: "GATE_SDK_NOPE[] <- GATE_SDK_PROGRAM_FLOOR\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "not a knob gate-sdk declares", at: tracked + ":1: "},
		{name: "keyed pair twice", files: map[string]string{tracked: "GATE_SDK_PAYLOAD_RECIPES[a] = x\nGATE_SDK_PAYLOAD_RECIPES[a] = y\n"},
			knob: "GATE_SDK_PAYLOAD_RECIPES", refuse: "given twice in this file (first at line 1)", at: tracked + ":2: "},
		{name: "empty form after pairs", files: map[string]string{tracked: "GATE_SDK_PAYLOAD_RECIPES[a] = x\nGATE_SDK_PAYLOAD_RECIPES =\n"},
			knob: "GATE_SDK_PAYLOAD_RECIPES", refuse: "cannot stand beside", at: tracked + ":2: "},
		{name: "empty form after a reference", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] <- GATE_SDK_PROGRAM_FLOOR\nGATE_SDK_JOB_REF_PATTERNS =\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "cannot stand beside", at: tracked + ":2: "},
		{name: "repeated elements are legal", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] = a\nGATE_SDK_JOB_REF_PATTERNS[] = a\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", want: "a\ta"},
		{name: "a pair line for an indexed knob", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[k] = a\n"},
			knob: "GATE_SDK_JOB_REF_PATTERNS", refuse: "is an indexed knob", at: tracked + ":1: "},
		{name: "non-empty scalar line for a keyed knob", files: map[string]string{tracked: "GATE_SDK_PAYLOAD_RECIPES = a\n"},
			knob: "GATE_SDK_PAYLOAD_RECIPES", refuse: "is a keyed knob", at: tracked + ":1: "},
		{name: "undeclared name", files: map[string]string{tracked: "GATE_SDK_NOPE = 1\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "not a knob gate-sdk declares", at: tracked + ":1: "},
		{name: "another kit's knob", files: map[string]string{tracked: "CANON_KIT_SCAN_KIT_ROOTS = on\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "belongs to canon-kit", at: tracked + ":1: "},
		{name: "gate-local knob", files: map[string]string{tracked: "GATE_LOCAL_X = 1\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "gate-local knob", at: tracked + ":1: "},
		{name: "unowned name", files: map[string]string{tracked: "FOO = 1\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "is not a gate-sdk knob", at: tracked + ":1: "},
		{name: "locator name in a file", files: map[string]string{overlay: "GATE_SDK_KNOB_FILE = x\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "environment-only locator", at: overlay + ":1: "},
		{name: "gates dir in a file", files: map[string]string{tracked: "GATE_SDK_GATES_DIR = x\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "GATE_SDK_GATES_DIR is environment-only", at: tracked + ":1: "},
		{name: "CONFIG_FILE in a file", files: map[string]string{tracked: "GATE_SDK_CONFIG_FILE = x\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "retired shell-config locator", at: tracked + ":1: "},
		{name: "retired name in a file", files: map[string]string{tracked: "GATE_SDK_GRAPH_THEME = x\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "GATE_SDK_GRAPH_THEME is retired; use GATE_SDK_GRAPH_THEME_DIR", at: tracked + ":1: "},
		{name: "retired cargo target dir in a file", files: map[string]string{tracked: "GATE_SDK_CARGO_TARGET_DIR = .tmp\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "retired with no replacement", at: tracked + ":1: "},
		{name: "retired name read directly", knob: "GATE_SDK_GRAPH_THEME", refuse: "use GATE_SDK_GRAPH_THEME_DIR"},
		{name: "exported empty retired name is inert", env: env{"GATE_SDK_GRAPH_THEME": ""}, knob: "GATE_SDK_TMP_DIR", want: ".tmp"},
		{name: "legacy local shell config", files: map[string]string{"scripts/gate-sdk-config.local.sh": ""},
			knob: "GATE_SDK_TMP_DIR", refuse: "legacy shell config", at: "scripts/gate-sdk-config.local.sh: "},
		{name: "legacy config follows the gates dir", files: map[string]string{"cfg/gate-sdk-config.sh": ""},
			env: env{"GATE_SDK_GATES_DIR": "cfg"}, knob: "GATE_SDK_TMP_DIR", refuse: "legacy shell config", at: "cfg/gate-sdk-config.sh: "},
		{name: "missing CONFIG_FILE is inert", env: env{"GATE_SDK_CONFIG_FILE": "nope.sh"}, knob: "GATE_SDK_TMP_DIR", want: ".tmp"},
		{name: "default knob file that is a directory", files: map[string]string{tracked + "/x": ""},
			knob: "GATE_SDK_TMP_DIR", refuse: "cannot read knob file", at: tracked + ": "},
		{name: "absent files leave defaults", knob: "GATE_SDK_TMP_DIR", want: ".tmp", origin: OriginDefault},
		{name: "env beats overlay", files: map[string]string{overlay: "GATE_SDK_GH_HOST = o\n"}, env: env{"GATE_SDK_GH_HOST": "e"},
			knob: "GATE_SDK_GH_HOST", want: "e", origin: OriginEnv},
		{name: "gates dir relocates both files", files: map[string]string{"cfg/gate-sdk-config.knobs": "GATE_SDK_GH_HOST = t\n", tracked: "GATE_SDK_GH_HOST = stale\n"},
			env: env{"GATE_SDK_GATES_DIR": "cfg"}, knob: "GATE_SDK_GH_HOST", want: "t"},
		{name: "named overlay is read", files: map[string]string{"elsewhere/o.knobs": "GATE_SDK_GH_HOST = o\n", overlay: "GATE_SDK_GH_HOST = stale\n"},
			env: env{"GATE_SDK_LOCAL_KNOB_FILE": "elsewhere/o.knobs"}, knob: "GATE_SDK_GH_HOST", want: "o", origin: OriginOverlay},
		{name: "empty locator means the default path", files: map[string]string{tracked: "GATE_SDK_GH_HOST = t\n"},
			env: env{"GATE_SDK_KNOB_FILE": "", "GATE_SDK_LOCAL_KNOB_FILE": ""}, knob: "GATE_SDK_GH_HOST", want: "t"},
		{name: "kit files are per kit", files: map[string]string{"scripts/canon-config.knobs": "CANON_KIT_SCAN_KIT_ROOTS = on\n", tracked: "GATE_SDK_GH_HOST = t\n"},
			knob: "CANON_KIT_SCAN_KIT_ROOTS", want: "on", origin: OriginFile},
		{name: "a kit's own locator", files: map[string]string{"c.knobs": "CANON_KIT_SCAN_KIT_ROOTS = on\n", "scripts/canon-config.knobs": "CANON_KIT_SCAN_KIT_ROOTS = off\n"},
			env: env{"CANON_KIT_KNOB_FILE": "c.knobs"}, knob: "CANON_KIT_SCAN_KIT_ROOTS", want: "on"},
		{name: "a broken kit does not refuse another kit's read", files: map[string]string{"scripts/canon-config.knobs": "garbage\n", tracked: "GATE_SDK_GH_HOST = t\n"},
			knob: "GATE_SDK_GH_HOST", want: "t"},
		{name: "the broken kit refuses its own read", files: map[string]string{"scripts/canon-config.knobs": "garbage\n"},
			knob: "CANON_KIT_SCAN_KIT_ROOTS", refuse: "malformed line", at: "scripts/canon-config.knobs:1: "},
		{name: "keyed default sorted", knob: "CANON_KIT_LESSON_SINKS", want: "agent=CLAUDE.md\tqueue=TASK-QUEUE.md"},
		{name: "keyed value keeps =", files: map[string]string{"scripts/canon-config.knobs": "CANON_KIT_LESSON_SINKS[x] = a=b\n"},
			knob: "CANON_KIT_LESSON_SINKS", want: "x=a=b"},
		// Families and open kits.
		{name: "family member from a file", files: map[string]string{"scripts/evidence-config.knobs": "EVIDENCE_KIT_RUN_demo = bash gate-sdk/bin/run-gates.sh --run-demo\n"},
			knob: "EVIDENCE_KIT_RUN_demo", want: "bash gate-sdk/bin/run-gates.sh --run-demo", origin: OriginFile},
		{name: "exported family member beats the file", files: map[string]string{"scripts/evidence-config.knobs": "EVIDENCE_KIT_RUN_demo = f\n"},
			env: env{"EVIDENCE_KIT_RUN_demo": "e"}, knob: "EVIDENCE_KIT_RUN_demo", want: "e", origin: OriginEnv},
		{name: "a row the prefix spells is no member", files: map[string]string{"scripts/evidence-config.knobs": "EVIDENCE_KIT_RUN_ID = 7\n"},
			knob: "EVIDENCE_KIT_RUN_ID", want: "7", origin: OriginFile},
		{name: "family prefix alone", files: map[string]string{"scripts/evidence-config.knobs": "EVIDENCE_KIT_RUN_ = x\n"},
			knob: "EVIDENCE_KIT_SUITES", refuse: "without a member suffix", at: "scripts/evidence-config.knobs:1: "},
		{name: "undeclared name outside the family", files: map[string]string{"scripts/evidence-config.knobs": "EVIDENCE_KIT_OTHER = x\n"},
			knob: "EVIDENCE_KIT_SUITES", refuse: "not a knob evidence-kit declares", at: "scripts/evidence-config.knobs:1: "},
		{name: "open kit refuses an undeclared element", files: map[string]string{"scripts/drift-config.knobs": "DRIFT_KIT_FOO[] = x\n"},
			knob: "DRIFT_KIT_KPI_DIRS", refuse: "as a scalar only", at: "scripts/drift-config.knobs:1: "},
		{name: "open kit refuses its legacy locator", files: map[string]string{"scripts/drift-config.knobs": "DRIFT_KIT_CONFIG_FILE = x\n"},
			knob: "DRIFT_KIT_KPI_DIRS", refuse: "retired shell-config locator", at: "scripts/drift-config.knobs:1: "},
		{name: "open kit refuses its env-only name", files: map[string]string{"scripts/drift-config.knobs": "DRIFT_KIT_ITERATION_START = 1\n"},
			knob: "DRIFT_KIT_KPI_DIRS", refuse: "environment-only", at: "scripts/drift-config.knobs:1: "},
		{name: "open kit's declared row keeps its shape", files: map[string]string{"scripts/drift-config.knobs": "DRIFT_KIT_KPI_DIRS[] = x\n"},
			knob: "DRIFT_KIT_KPI_DIRS", refuse: "is a scalar knob", at: "scripts/drift-config.knobs:1: "},
		// Validators.
		{name: "enum refuses a stray value", files: map[string]string{tracked: "\nGATE_SDK_UPDATE_CHECK = hourly\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "must be one of off, daily, weekly", at: tracked + ":2: "},
		{name: "enum refuses an exported stray value", env: env{"GATE_SDK_UPDATE_CHECK": "hourly"},
			knob: "GATE_SDK_UPDATE_CHECK", refuse: "must be one of", at: "environment: "},
		{name: "enum admits a listed value", files: map[string]string{tracked: "GATE_SDK_UPDATE_CHECK = off\n"},
			knob: "GATE_SDK_UPDATE_CHECK", want: "off"},
		{name: "uint refuses a unit", files: map[string]string{tracked: "GATE_SDK_UPDATE_TIMEOUT = 5s\n"},
			knob: "GATE_SDK_UPDATE_TIMEOUT", refuse: "whole number", at: tracked + ":1: "},
		{name: "recipe names are slugs", files: map[string]string{tracked: "GATE_SDK_PAYLOAD_RECIPES[Docs] = docs\n"},
			knob: "GATE_SDK_PAYLOAD_RECIPES", refuse: "keys must be", at: tracked + ":1: "},
		{name: "release roster: unknown role", files: map[string]string{tracked: "GATE_SDK_RELEASE_SECTIONS[] = brief: In brief\nGATE_SDK_RELEASE_SECTIONS[] = misc: Misc\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "unknown role \"misc\"", at: tracked + ":2: "},
		{name: "release roster: role twice", files: map[string]string{tracked: "GATE_SDK_RELEASE_SECTIONS[] = brief: In brief\nGATE_SDK_RELEASE_SECTIONS[] = brief: Summary\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "role brief is given twice", at: tracked + ":2: "},
		{name: "release roster: empty heading", files: map[string]string{tracked: "GATE_SDK_RELEASE_SECTIONS[] = brief:\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "empty heading", at: tracked + ":1: "},
		{name: "release roster: no role", files: map[string]string{tracked: "GATE_SDK_RELEASE_SECTIONS[] = In brief\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "is not <role>: <heading>", at: tracked + ":1: "},
		{name: "release aliases: alias equals a roster heading", files: map[string]string{tracked: "GATE_SDK_RELEASE_SECTION_ALIASES[] = gates: Platforms\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "also a roster heading", at: tracked + ":1: "},
		{name: "release aliases: a heading shared by roles", files: map[string]string{tracked: "GATE_SDK_RELEASE_SECTION_ALIASES[] = gates: Old\nGATE_SDK_RELEASE_SECTION_ALIASES[] = knobs: Old\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "given to two roles, gates and knobs", at: tracked + ":2: "},
		{name: "release aliases: spliced elements are located at the reference", files: map[string]string{tracked: "GATE_SDK_JOB_REF_PATTERNS[] = misc: x\n" +
			"GATE_SDK_RELEASE_SECTION_ALIASES[] <- GATE_SDK_JOB_REF_PATTERNS\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "unknown role", at: tracked + ":2: "},
		{name: "release roster from the overlay is checked", files: map[string]string{overlay: "GATE_SDK_RELEASE_SECTIONS =\nGATE_SDK_RELEASE_SECTION_ALIASES[] = bogus: x\n"},
			knob: "GATE_SDK_TMP_DIR", refuse: "unknown role", at: overlay + ":2: "},
	})
}

func TestAllFindingsCollected(t *testing.T) {
	dir := tree(t, map[string]string{
		tracked:                      "GATE_SDK_NOPE = 1\nGATE_SDK_JOBS = 2\nbad line\nGATE_SDK_GH_HOST = a\tb\n",
		overlay:                      "GATE_SDK_GRAPH_THEME = x\n",
		"scripts/gate-sdk-config.sh": "",
	})
	s := load(t, dir, env{"GATE_SDK_GRAPH_THEME": "y"})
	_, err := s.Scalar("GATE_SDK_TMP_DIR")
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("want a ConfigError, got %v", err)
	}
	want := []string{
		"scripts/gate-sdk-config.sh: legacy shell config",
		"environment: exported GATE_SDK_GRAPH_THEME is retired",
		tracked + ":3: malformed line",
		tracked + ":4: value of GATE_SDK_GH_HOST contains a tab",
		tracked + ":1: GATE_SDK_NOPE is not a knob",
		tracked + ":2: GATE_SDK_JOBS is environment-only",
		overlay + ":1: GATE_SDK_GRAPH_THEME is retired",
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "gate-sdk: knob configuration refused (7 findings)\n") {
		t.Fatalf("lead line: %q", strings.SplitN(msg, "\n", 2)[0])
	}
	for _, w := range want {
		if !strings.Contains(msg, "\n"+w) {
			t.Errorf("missing finding line starting %q in:\n%s", w, msg)
		}
	}
	// The refusal repeats on every read, of any knob of the kit.
	if _, err2 := s.List("GATE_SDK_PROGRAM_FLOOR"); err2 == nil || err2.Error() != msg {
		t.Fatalf("second read: %v", err2)
	}
}

func TestEmptyTakesDefault(t *testing.T) {
	tables := testTables(t, allTestKits()...)
	flagged := 0
	for _, tb := range tables {
		for _, r := range tb.Rows {
			if r.Shape != Scalar {
				continue
			}
			s := load(t, tree(t, nil), env{})
			def, err := s.Scalar(r.Name)
			if err != nil {
				t.Fatal(err)
			}
			for _, layerCase := range []struct {
				name  string
				files map[string]string
				env   env
			}{
				{"exported", nil, env{r.Name: ""}},
				{"file", map[string]string{"scripts/" + tb.TrackedFile(): r.Name + " =\n"}, env{}},
				{"overlay", map[string]string{"scripts/" + tb.OverlayFile(): r.Name + " =\n"}, env{}},
			} {
				s := load(t, tree(t, layerCase.files), layerCase.env)
				got, err := s.Scalar(r.Name)
				want := ""
				if r.EmptyTakesDefault {
					want = def
				}
				if r.EmptyTakesDefault && def == "" {
					t.Errorf("%s is flagged empty_takes_default with an empty default", r.Name)
				}
				if err != nil {
					// An unflagged row whose rule refuses empty must be flagged.
					t.Errorf("%s empty in the %s layer: %v", r.Name, layerCase.name, err)
					continue
				}
				if got != want {
					t.Errorf("%s empty in the %s layer reads %q, want %q", r.Name, layerCase.name, got, want)
				}
			}
			if r.EmptyTakesDefault {
				flagged++
			}
		}
	}
	if flagged == 0 {
		t.Fatal("no row is flagged empty_takes_default")
	}
	// The explicit counter-examples stay unflagged.
	gs := tables[0]
	for _, n := range []string{"GATE_SDK_PAYLOAD_WITHHOLD", "GATE_SDK_PAYLOAD_LICENSE", "GATE_SDK_GH_HOST", "GATE_SDK_FOREIGN_PWSH_IMAGE", "GATE_SDK_FOREIGN_DASH_IMAGE"} {
		if gs.Row(n).EmptyTakesDefault {
			t.Errorf("%s: an explicit empty value means something, so it must not take the default", n)
		}
	}
	if !gs.Row("GATE_SDK_UPGRADE_TO").EmptyTakesDefault {
		t.Error("GATE_SDK_UPGRADE_TO takes HEAD for an empty value")
	}
}

// Every default is valid under its kit's validators: a zero-config tree
// resolves every knob of every kit without a finding.
func TestDefaultsPassValidators(t *testing.T) {
	for _, gatesDir := range []string{"", "cfg", "."} {
		e := env{}
		if gatesDir != "" {
			e["GATE_SDK_GATES_DIR"] = gatesDir
		}
		s := load(t, tree(t, nil), e)
		for _, tb := range s.Tables() {
			for _, r := range tb.Rows {
				v, err := s.Resolve(r.Name)
				if err != nil {
					t.Fatalf("gates dir %q: %s: %v", gatesDir, r.Name, err)
				}
				if v.Origin != OriginDefault {
					t.Errorf("%s origin %s in a zero-config tree", r.Name, v.Origin)
				}
				if r.Shape == Scalar {
					if msg := checkScalar(r, v.Scalar); msg != "" {
						t.Errorf("%s default: %s", r.Name, msg)
					}
				}
			}
			// Validator rules run for a non-empty input too: the default rosters pass.
			for _, c := range tb.Checks {
				colls := map[string]*Value{}
				for _, r := range tb.Rows {
					if r.Shape != Scalar {
						colls[r.Name] = &Value{Name: r.Name, Shape: r.Shape, Origin: OriginDefault, Elems: r.Elems, Pairs: r.Pairs}
					}
				}
				if fs := runKitCheck(c, colls); len(fs) > 0 {
					t.Errorf("%s defaults fail %s: %v", tb.Name, c.Rule, fs[0])
				}
			}
		}
	}
}

// Each derived row asks exactly the names it declares.
func TestDerivationReadsAreDeclared(t *testing.T) {
	n := 0
	for _, tb := range testTables(t, allTestKits()...) {
		for _, r := range tb.Rows {
			if !r.Derived() {
				continue
			}
			n++
			var asked []string
			if _, err := r.DeriveWith(func(name string) (string, error) {
				asked = append(asked, name)
				return "x", nil
			}); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			var uniq []string
			for _, a := range asked {
				if !seen[a] {
					seen[a] = true
					uniq = append(uniq, a)
				}
			}
			want := map[string]bool{}
			for _, w := range r.Reads {
				want[w] = true
			}
			if len(uniq) != len(want) {
				t.Errorf("%s asked %v, declares %v", r.Name, uniq, r.Reads)
			}
			for _, a := range uniq {
				if !want[a] {
					t.Errorf("%s asked %s, which it does not declare (%v)", r.Name, a, r.Reads)
				}
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d derived rows; the table should have more", n)
	}
}

func TestDerivations(t *testing.T) {
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	runResolveCases(t, []resolveCase{
		{name: "tests dir under the default gates dir", knob: "GATE_SDK_TESTS_DIR", want: "scripts/gate-tests", origin: OriginDefault},
		{name: "tests dir follows the gates dir", env: env{"GATE_SDK_GATES_DIR": "cfg/gates"}, knob: "GATE_SDK_TESTS_DIR", want: "cfg/gates/gate-tests"},
		{name: "an exported empty gates dir reads as the default", env: env{"GATE_SDK_GATES_DIR": ""}, knob: "GATE_SDK_TESTS_DIR", want: "scripts/gate-tests"},
		{name: "gates dir . joins without ./", env: env{"GATE_SDK_GATES_DIR": "."}, knob: "GATE_SDK_GRAPH_THEME_DIR", want: "graph-theme/"},
		{name: "gates dir with a trailing slash", env: env{"GATE_SDK_GATES_DIR": "g/"}, knob: "GATE_SDK_CORE_FILES_FILE", want: "g/core-files.list"},
		{name: "word list derivation", knob: "GATE_SDK_EXEC_GLOBS", want: "*/checks/*.sh */kpis/*.sh */bin/*.sh scripts/check-*.sh scripts/kpi-*.sh"},
		{name: "binary default", knob: "GATE_SDK_NATIVE_BIN", want: "bin/gates" + exe},
		{name: "module src at the top", knob: "GATE_SDK_NATIVE_SRC", want: "internal"},
		{name: "module src follows the crate knob", files: map[string]string{tracked: "GATE_SDK_NATIVE_CRATE = tools/mod/\n"},
			knob: "GATE_SDK_NATIVE_SRC", want: "tools/mod/internal"},
		{name: "crate knob strips a trailing slash", env: env{"GATE_SDK_NATIVE_CRATE": "tools/mod//"}, knob: "GATE_SDK_NATIVE_CRATE", want: "tools/mod", origin: OriginEnv},
		{name: "targets file follows the exported crate", env: env{"GATE_SDK_NATIVE_CRATE": "native"}, knob: "GATE_SDK_NATIVE_TARGETS_FILE", want: "native/targets.list"},
		{name: "a set derived knob is kept exactly", files: map[string]string{tracked: "GATE_SDK_NATIVE_BIN = scripts/gates\n"}, knob: "GATE_SDK_NATIVE_BIN", want: "scripts/gates"},
		{name: "cross-kit derivation reads the sibling's file value", files: map[string]string{tracked: "GATE_SDK_WORKFLOW_DIR = wf\n"},
			knob: "CANON_KIT_LOG", want: "wf/canon.log"},
		{name: "cross-kit derivation refuses when the sibling's kit is refused", files: map[string]string{tracked: "junk\n"},
			knob: "CANON_KIT_LOG", refuse: "malformed line", at: tracked + ":1: "},
		{name: "locator read directly", env: env{"GATE_SDK_ROOT": "tools/gate-sdk"}, knob: "GATE_SDK_ROOT", want: "tools/gate-sdk", origin: OriginEnv},
		{name: "locator default", knob: "GATE_SDK_GATES_DIR", want: "scripts", origin: OriginDefault},
		{name: "env-only unset", knob: "GATE_SDK_JOBS", want: "", origin: OriginDefault},
		{name: "env-only set", env: env{"GATE_SDK_JOBS": "3"}, knob: "GATE_SDK_JOBS", want: "3", origin: OriginEnv},
		{name: "env-only read never touches the files", files: map[string]string{tracked: "junk\n"}, env: env{"GATE_SDK_VERBOSE": "1"}, knob: "GATE_SDK_VERBOSE", want: "1"},
		{name: "kit locator read", env: env{"GATE_SDK_KNOB_FILE": "x"}, knob: "GATE_SDK_KNOB_FILE", want: "x", origin: OriginEnv},
		{name: "unowned name", knob: "FOO_BAR", refuse: "FOO_BAR is not a statically owned knob"},
		{name: "undeclared name", knob: "GATE_SDK_NOPE", refuse: "GATE_SDK_NOPE is not a knob gate-sdk declares"},
		{name: "undeclared name in a refused kit is refused by name", files: map[string]string{tracked: "junk\n"},
			knob: "GATE_SDK_NOPE", refuse: "GATE_SDK_NOPE is not a knob gate-sdk declares"},
	})
}

func TestAccessors(t *testing.T) {
	dir := tree(t, map[string]string{
		tracked: "GATE_SDK_PRUNE_DIRS =  a  b\nGATE_SDK_PAYLOAD_RECIPES[z] = d/z\nGATE_SDK_PAYLOAD_RECIPES[a] = d/a\n",
	})
	e := env{"GATE_SDK_PRUNE_EXTRA_DIRS": " x\ty  z "}
	s := load(t, dir, e)
	words, err := s.Words("GATE_SDK_PRUNE_DIRS")
	if err != nil || fmt.Sprint(words) != "[a b]" {
		t.Fatalf("Words = %v, %v", words, err)
	}
	if words, _ := s.Words("GATE_SDK_PRUNE_EXTRA_DIRS"); fmt.Sprint(words) != "[x y z]" {
		t.Fatalf("Words from env = %v", words)
	}
	pairs, err := s.Keyed("GATE_SDK_PAYLOAD_RECIPES")
	if err != nil || fmt.Sprint(pairs) != "[{a d/a} {z d/z}]" {
		t.Fatalf("Keyed = %v, %v", pairs, err)
	}
	list, err := s.List("GATE_SDK_JOB_REF_PATTERNS")
	if err != nil || list == nil || len(list) != 0 {
		t.Fatalf("empty List = %#v, %v", list, err)
	}
	floor, _ := s.List("GATE_SDK_PROGRAM_FLOOR")
	floor[0] = "mutated"
	if v, _ := s.Resolve("GATE_SDK_PROGRAM_FLOOR"); v.Elems[0] == "mutated" {
		t.Fatal("a caller's edit reached the settled value")
	}
	v, _ := s.Resolve("GATE_SDK_PROGRAM_FLOOR")
	v.Elems[0] = "mutated"
	if again, _ := s.List("GATE_SDK_PROGRAM_FLOOR"); again[0] == "mutated" {
		t.Fatal("an edit through Resolve reached the settled value")
	}
	if _, err := s.Scalar("GATE_SDK_PROGRAM_FLOOR"); err == nil || !strings.Contains(err.Error(), "is indexed, not scalar") {
		t.Fatalf("Scalar on indexed: %v", err)
	}
	if _, err := s.List("GATE_SDK_TMP_DIR"); err == nil {
		t.Fatal("List on a scalar must refuse")
	}
	if _, err := s.Keyed("GATE_SDK_PROGRAM_FLOOR"); err == nil {
		t.Fatal("Keyed on an indexed knob must refuse")
	}
	if o, _ := s.Origin("GATE_SDK_PRUNE_DIRS"); o != OriginFile {
		t.Fatalf("origin %s", o)
	}
	if w, _ := s.Wire("GATE_SDK_PAYLOAD_RECIPES"); w != "a=d/a\tz=d/z" {
		t.Fatalf("wire %q", w)
	}
	for name, want := range map[string]bool{
		"GATE_SDK_TMP_DIR": true, "GATE_SDK_GATES_DIR": true, "GATE_SDK_JOBS": true, "GATE_SDK_KNOB_FILE": true,
		"CANON_KIT_LOCAL_KNOB_FILE": true, "GATE_SDK_GRAPH_THEME": false, "GATE_SDK_NOPE": false, "FOO": false,
		"EVIDENCE_KIT_RUN_demo": false,
	} {
		if got := s.Declared(name); got != want {
			t.Errorf("Declared(%s) = %v", name, got)
		}
	}
}

// The environment is read at every call; the files once per Set.
func TestReadOnceEnvEveryCall(t *testing.T) {
	dir := tree(t, map[string]string{tracked: "GATE_SDK_GH_HOST = first\n"})
	e := env{}
	s := load(t, dir, e)
	if v, _ := s.Scalar("GATE_SDK_GH_HOST"); v != "first" {
		t.Fatalf("got %q", v)
	}
	tree2 := map[string]string{tracked: "GATE_SDK_GH_HOST = second\n"}
	for rel, c := range tree2 {
		writeFile(t, dir+"/"+rel, c)
	}
	if v, _ := s.Scalar("GATE_SDK_GH_HOST"); v != "first" {
		t.Fatalf("file re-read: %q", v)
	}
	e["GATE_SDK_GH_HOST"] = "env"
	if v, _ := s.Scalar("GATE_SDK_GH_HOST"); v != "env" {
		t.Fatalf("env not re-read: %q", v)
	}
	if v, _ := load(t, dir, env{}).Scalar("GATE_SDK_GH_HOST"); v != "second" {
		t.Fatalf("a new Set reads the file again: %q", v)
	}
}

// Concurrent first resolutions of several kits, with references and
// derivations crossing between them, settle once and agree.
func TestConcurrentReaders(t *testing.T) {
	dir := tree(t, map[string]string{
		tracked:                      "GATE_SDK_JOB_REF_PATTERNS[] <- CANON_KIT_MEASURED_CLAIMS_CMD\nGATE_SDK_WORKFLOW_DIR = wf\n",
		"scripts/canon-config.knobs": "CANON_KIT_MEASURED_CLAIMS_CMD[] = bash\nCANON_KIT_TEMPORAL_EXEMPT_SECTIONS[] <- GATE_SDK_PROGRAM_FLOOR\n",
	})
	s := load(t, dir, env{})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var got string
			var err error
			switch i % 4 {
			case 0:
				got, err = s.Wire("GATE_SDK_JOB_REF_PATTERNS")
				if got != "bash" {
					err = fmt.Errorf("JOB_REF_PATTERNS %q %v", got, err)
				}
			case 1:
				got, err = s.Scalar("CANON_KIT_LOG")
				if got != "wf/canon.log" {
					err = fmt.Errorf("CANON_KIT_LOG %q %v", got, err)
				}
			case 2:
				var l []string
				l, err = s.List("CANON_KIT_TEMPORAL_EXEMPT_SECTIONS")
				if len(l) == 0 || l[0] != "awk" {
					err = fmt.Errorf("TEMPORAL %v %v", l, err)
				}
			case 3:
				got, err = s.Scalar("GATE_SDK_TESTS_DIR")
				if got != "scripts/gate-tests" {
					err = fmt.Errorf("TESTS_DIR %q %v", got, err)
				}
			}
			if err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestFamily(t *testing.T) {
	dir := tree(t, map[string]string{
		"scripts/drift-config.knobs":          "DRIFT_KIT_FOO = f\nDRIFT_KIT_BAR = b\nDRIFT_KIT_KPI_DIRS = kpis\n",
		"scripts/drift-config.local.knobs":    "DRIFT_KIT_BAR = o\n",
		"scripts/evidence-config.knobs":       "EVIDENCE_KIT_RUN_demo = d\nEVIDENCE_KIT_RUN_ID = 9\n",
		"scripts/evidence-config.local.knobs": "",
	})
	e := env{"DRIFT_KIT_ENVY": "e", "DRIFT_KIT_FOO": "F", "DRIFT_KIT_ITERATION_START": "1", "DRIFT_KIT_KNOB_FILE": "", "EVIDENCE_KIT_RUN_ci": "c"}
	s := load(t, dir, e)
	got, err := s.Family("DRIFT_KIT_")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[{DRIFT_KIT_BAR BAR o overlay} {DRIFT_KIT_ENVY ENVY e env} {DRIFT_KIT_FOO FOO F env}]" {
		t.Fatalf("drift family %v", got)
	}
	got, err = s.Family("EVIDENCE_KIT_RUN_")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[{EVIDENCE_KIT_RUN_ci ci c env} {EVIDENCE_KIT_RUN_demo demo d file}]" {
		t.Fatalf("evidence family %v", got)
	}
	if _, err := s.Scalar("EVIDENCE_KIT_RUN_missing"); !errors.Is(err, ErrNoMember) {
		t.Fatalf("missing member: %v", err)
	}
	if _, err := s.Family("GATE_SDK_"); err == nil {
		t.Fatal("gate-sdk is not open")
	}
	s2, _ := Load(Options{Dir: dir, Lookup: e.lookup, Tables: testTables(t, allTestKits()...), AbsAgainst: absAgainst})
	if _, err := s2.Family("DRIFT_KIT_"); err == nil {
		t.Fatal("Family without Environ must refuse")
	}
}

func TestLoadRefusals(t *testing.T) {
	e := env{}
	good := Options{Dir: "/x", Lookup: e.lookup, AbsAgainst: absAgainst}
	for name, mut := range map[string]func(o *Options){
		"no lookup":     func(o *Options) { o.Lookup = nil },
		"no dir":        func(o *Options) { o.Dir = "" },
		"no absAgainst": func(o *Options) { o.AbsAgainst = nil },
		"no gate-sdk": func(o *Options) {
			o.Tables = testTables(t, "canon-kit")[1:]
		},
		"kit twice": func(o *Options) {
			o.Tables = append(testTables(t, "canon-kit"), testTables(t, "canon-kit")[1])
		},
	} {
		o := good
		mut(&o)
		if _, err := Load(o); err == nil {
			t.Errorf("%s: Load must refuse", name)
		}
	}
	if _, err := Load(good); err != nil {
		t.Fatal(err)
	}
}

// TestBlankValues pins that blanks never switch a gate off: a row taking
// the default for empty takes it for a value of blanks too, in every layer;
// a single-value scalar of blanks that takes no default is refused; a word
// list of blanks is the empty list, as its empty spelling is.
func TestBlankValues(t *testing.T) {
	tables := testTables(t, allTestKits()...)
	for _, tb := range tables {
		for _, r := range tb.Rows {
			if r.Shape != Scalar || !r.EmptyTakesDefault {
				continue
			}
			def, err := load(t, tree(t, nil), env{}).Scalar(r.Name)
			if err != nil {
				t.Fatal(err)
			}
			for _, blanks := range []string{" ", "\t", " \t\n "} {
				got, err := load(t, tree(t, nil), env{r.Name: blanks}).Scalar(r.Name)
				if err != nil || got != def {
					t.Errorf("%s=%q reads %q (%v), want the default %q", r.Name, blanks, got, err, def)
				}
			}
			// A knob file trims its values, so its blanks are empty already.
			got, err := load(t, tree(t, map[string]string{"scripts/" + tb.TrackedFile(): r.Name + " =    \n"}), env{}).Scalar(r.Name)
			if err != nil || got != def {
				t.Errorf("%s of blanks in the knob file reads %q (%v), want the default %q", r.Name, got, err, def)
			}
		}
	}
	gs := tables[0]
	for _, r := range gs.Rows {
		if r.Shape != Scalar || r.EmptyTakesDefault || len(r.Enum) > 0 || r.Check != "" {
			continue
		}
		got, err := load(t, tree(t, nil), env{r.Name: "  "}).Scalar(r.Name)
		if r.Words {
			if err != nil || strings.TrimSpace(got) != "" {
				t.Errorf("word list %s of blanks: %q, %v; want the empty list", r.Name, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "holds only blanks") || !strings.Contains(err.Error(), r.Name) {
			t.Errorf("%s of blanks: %q, %v; want a refusal naming it", r.Name, got, err)
		}
	}
}
