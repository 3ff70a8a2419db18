# gates — build, test and measure the Go port of gate-sdk.
GO      ?= go
BIN     := bin/gates
# STAMP is the source stamp (kits/gate-sdk/SPEC.md §check-gate-binary-fresh):
# git's content identity of every tracked file of the module, computed by the
# one shell holder of the derivation. LDFLAGS is the one spelling of the
# link flags; every target and script that builds the binary uses it.
STAMP   := $(shell bash -c '. kits/gate-sdk/lib/gate.sh && gate_native_source_stamp .' 2>/dev/null)
# VERSION is the release: the tag HEAD carries (`git describe --tags
# --exact-match`), else devel; `gates --version` prints it beside the stamp.
VERSION ?= $(shell git describe --tags --exact-match HEAD 2>/dev/null || echo devel)
LDFLAGS := -s -w -X github.com/gate-sdk/gates/internal/cli.sourceStamp=$(STAMP) -X github.com/gate-sdk/gates/internal/cli.release=$(VERSION)

# The binary is linked static, as the release is (build-native.sh): a
# cgo build loads libc through the dynamic loader and starts its threads
# through pthreads at every start, about a quarter of a --version's CPU.
# Exported, so go vet, go test and every build a test starts agree.
export CGO_ENABLED := 0
# Every build and test compiles with -trimpath, as the binary is built: the
# compiler's cache keys then name no checkout directory, so a fresh clone
# (or a worktree) reuses what another checkout of the same sources already
# compiled. Measured on a fresh clone with a warm cache: go vet and the
# test compiles take 12 s instead of 57 s.
export GOFLAGS += -trimpath

.PHONY: build test tools demo-tools unit gates fixtures bench demo vet cross fmt clean kit-manifest release print-ldflags

build:
	@test -n "$(STAMP)" || { echo "make build: cannot compute the source stamp (git ls-files or git hash-object failed here)" >&2; exit 2; }
	@hidden=$$(bash -c '. kits/gate-sdk/lib/gate.sh && gate_native_untracked_compiled .') || { echo "make build: go list could not name the files the build compiles" >&2; exit 2; }; \
	if [ -n "$$hidden" ]; then echo "make build: the build would compile files git does not track, which the source stamp cannot see:" >&2; \
	  printf '  %s\n' $$hidden >&2; echo "track them (git add) or move them out of the module, then build again" >&2; exit 2; fi
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/gates
	@# A clone whose placed hooks verify the binary (§The launcher X) records the new build; silent elsewhere.
	@$(BIN) --install-hooks --refresh

# test: everything CI runs — the test toolchain, formatting, the build,
# then the project's own battery over itself, whose check-crate-arms member
# is the one spelling of go vet, the unit and end-to-end tests and every
# fixture suite (cached on the source stamp and the toolchain, so an
# unchanged tree is not tested twice). Each stage prints one line on stderr
# with its time as it ends (`make test: build 9 s`), and check-crate-arms
# prints its own arms' the same way (GATE_SDK_STAGE_LOG).
# The whole run's time goes to .tmp/make-test-time.txt, which make bench
# prints beside its goal; "fresh" means the run began with no .tmp/ (no
# result cache, no crate-arms record), as on a new clone.
test:
	@start=$$(date +%s); fresh=no; [ -d .tmp ] || fresh=yes; \
	$(call stage,tools); \
	$(call stage,fmt); \
	$(call stage,build); \
	$(call stage,cross); \
	$(call stage,gates,battery,GATE_SDK_STAGE_LOG='make test'); \
	mkdir -p .tmp && echo "$$(($$(date +%s) - start)) s fresh=$$fresh $$(date -u +%Y-%m-%dT%H:%M:%SZ)" >.tmp/make-test-time.txt

# stage runs one target of `make test` and says, on stderr, how long it
# took: $(1) the target, $(2) its label (the target's name when empty),
# $(3) extra variables for it. STAMP is not handed down on the command
# line: make passes command-line variables to every make below it, and a
# test that edits a scratch tree and runs `make build` there must get that
# tree's stamp, not this one's.
stage = t0=$$(date +%s); $(MAKE) -s --no-print-directory $(1) $(3) || exit $$?; \
	echo "make test: $(or $(2),$(1)) $$(($$(date +%s) - t0)) s" >&2

# tools: the test toolchain (.ci/tools names each program and why),
# installed with apt-get, go install and npm when missing. Only `make test`
# runs it.
tools:
	bash .ci/tools

# demo-tools: what the demo needs beyond go and git, shellcheck alone.
demo-tools:
	bash .ci/demo-tools

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would rewrite:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# cross: every package compiles for the other systems the binary ships to
# (the stubs name Windows and macOS), so a file one platform's build
# constraint keeps out cannot hold what the others need.
cross:
	GOOS=windows $(GO) build ./...
	GOOS=darwin $(GO) build ./...

unit:
	$(GO) test -count=1 ./...

fixtures: build
	GATE_SDK_NATIVE_BIN=$(CURDIR)/$(BIN) bash kits/gate-sdk/bin/run-fixture-suites.sh

gates: build
	GATE_SDK_STAGE_LOG='$(GATE_SDK_STAGE_LOG)' GATE_SDK_NATIVE_BIN=$(CURDIR)/$(BIN) bash kits/gate-sdk/bin/run-gates.sh

# bench: the battery over a generated 20,000-file consumer repository,
# then the engine and snapshot micro-benchmarks. Figures only; nothing fails
# on a timing. The acceptance table, the shard split and the 12,500-block
# workflow take medians of their own, so they run once (-benchtime 1x; a
# count above one would also run them once more first).
# The last step names the slowest tests: check-crate-arms' test arm records
# the ten slowest of its last run (.tmp/go-test-slowest.txt), so naming
# them costs no second test run.
bench:
	$(GO) test -run '^$$' -bench 'Acceptance|Shards|ActionRunShell|SpawnContention' -benchtime 1x -timeout 90m ./internal/bench/
	$(GO) test -run '^$$' -bench 'Battery|StartToFirst|TreeReadFloor|AgentEdit' -benchtime 3x ./internal/bench/
	$(GO) test -run '^$$' -bench . -benchtime 1s ./internal/ere/ ./internal/repo/ ./internal/githook/ ./internal/workflow/
	@if [ -f .tmp/make-test-time.txt ]; then echo; echo "make test, last run (fresh=yes: began with no .tmp/, as a new clone; goal <= 150 s fresh): $$(cat .tmp/make-test-time.txt)"; \
	else echo; echo "make test: no record yet (.tmp/make-test-time.txt); make test writes it"; fi
	@if [ -f .tmp/go-test-slowest.txt ]; then echo; echo "slowest tests of the last make test:"; cat .tmp/go-test-slowest.txt; \
	else echo; echo "slowest tests: no record yet (.tmp/go-test-slowest.txt); make test writes it"; fi

demo: demo-tools build
	GATE_SDK_NATIVE_BIN=$(CURDIR)/$(BIN) bash kits/gate-sdk/bin/run-gates.sh --run-demo

clean:
	rm -rf bin .tmp

# kit-manifest: rewrite the list of the kit's tracked files and modes that
# the binary vendors from (kits/<kit>.manifest); a unit test holds it to
# the index, so run this after adding, removing or chmod-ing a kit file.
# gate-sdk's fixture pairs and templates are authored at the top-level
# gate-tests/ and templates/ and vendored into the kit's gate-tests/ and
# templates/, so its manifest lists them there.
# Then kits/<kit>.modules.txtar: the files of the kit's nested Go modules,
# which go:embed cannot carry (a unit test holds it to the tree), and
# internal/knob/tables_gen.go, the knob tables decoded ahead of time (so
# run it after editing a knobs.toml too; a unit test says when it is stale).
kit-manifest:
	@for k in $$(cd kits && ls -d */ | tr -d /); do \
	  { git ls-files -s -z -- kits/$$k | tr '\0' '\n' | \
	    sed "s#^\([0-9]*\) [0-9a-f]* [0-9]	kits/$$k/#\1 #"; \
	    if [ "$$k" = gate-sdk ]; then git ls-files -s -z -- gate-tests templates | tr '\0' '\n' | \
	      sed "s#^\([0-9]*\) [0-9a-f]* [0-9]	#\1 #"; fi; \
	  } | LC_ALL=C sort -t ' ' -k 2 >kits/$$k.manifest; \
	done
	@$(GO) run ./internal/kitgen

# release: one artifact and .sha256 sidecar per targets.list line, under
# RELEASE_DIR/<os>/<arch>/, built by the kit's build script with the same
# LDFLAGS as `build`. Then `bin/gates --pack-installer out/` packs them.
RELEASE_DIR ?= .tmp/release
release:
	@set -e; for t in $$(sed -e 's/#.*//' targets.list); do \
	  GATES_LDFLAGS='$(LDFLAGS)' GATE_SDK_PAYLOAD_ARTIFACTS='$(RELEASE_DIR)' bash kits/gate-sdk/bin/build-native.sh --target $$t; \
	done

print-ldflags:
	@echo '$(LDFLAGS)'
