#!/usr/bin/env bash
# check-graph.test.sh — the whole-tree assertions a fixture pair cannot
# hold (the pair drives --amend-only): a mini-consumer with a registry,
# script members and a generated page, green at baseline, then red on a
# trigger missing a couple (B), a stale page (E), a theme href leaving the
# page's directory (F), an external URL outside the allowed set (H) and a
# couple naming no tracked path (M).
# Exit 0 when every check holds, 1 otherwise.
. "${GATE_SDK_ROOT:-$(dirname -- "${BASH_SOURCE[0]}")/..}/lib/test-hermetic.sh"

set -u
gate_sandbox check-graph

# mini NAME [TRIGGER] — a consumer whose one script member couples
# docs/*.md and src/a.c, with the page emitted over it.
mini() {
	gate_scratch_repo "$1"
	printf 'check-graph\ncheck-docs\ncheck-nowhere\n' | gate_put scripts/gates.list
	gate_put scripts/check-docs.sh <<SH
#!/usr/bin/env bash
# graph: couples=docs/*.md,src/a.c${2:+ trigger=$2} dir=one valve=none tier=precommit
echo "DOCS: clean (fixture)"
SH
	printf 'a\n' | gate_put docs/a.md
	printf 'int a;\n' | gate_put src/a.c
}

emit() {
	(cd -- "$GATE_SCRATCH" && gate_arm_run --emit graph) >"$GATE_SCRATCH/scripts/CHECK-GRAPH.html" ||
		{ echo "FAIL: --emit graph in $GATE_SCRATCH"; exit 1; }
}

mini baseline
emit
gate_expect baseline 0 'GRAPH: clean (2 members (1 resolving nowhere, skipped)'

mini b-trigger 'docs/*.md'
emit
gate_expect b-trigger 1 'couple "src/a.c" is covered by no trigger= token'

mini e-stale
emit
printf 'b\n' | gate_put docs/b.md
gate_put scripts/check-docs.sh <<'SH'
#!/usr/bin/env bash
# graph: couples=docs/*.md,src/a.c,docs/b.md dir=one valve=none tier=precommit
echo "DOCS: clean (fixture)"
SH
gate_expect e-stale 1 'scripts/CHECK-GRAPH.html: the coupling-graph page is stale'

mini f-href
printf '<link rel="stylesheet" href="../site.css">\n' | gate_put scripts/graph-theme/header.html
emit
gate_expect f-href 1 'href/src "../site.css" does not name a file under the artifact'"'"'s directory scripts'

mini h-url
printf '<footer><a href="https://example.org/docs">docs</a></footer>\n' | gate_put scripts/graph-theme/footer.html
emit
gate_expect h-url 1 'external reference https://example.org/docs is outside the allowed set'

mini m-dead
gate_put scripts/check-docs.sh <<'SH'
#!/usr/bin/env bash
# graph: couples=docs/**/*.md,src/a.c,lib/*.c dir=one valve=none tier=precommit
echo "DOCS: clean (fixture)"
SH
emit
gate_expect m-dead 1 'scripts/check-docs.sh:2: check-docs: couples= token "lib/*.c" names no tracked path, so no edit fires the gate'

gate_tests_done
