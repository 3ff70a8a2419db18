# gates — build, test and measure the Go port of gate-sdk.
GO      ?= go
BIN     := bin/gates
# A tree with uncommitted changes gets a stamp unique to the build, so the
# result cache never serves a verdict an earlier build of other sources made.
STAMP   := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git status --porcelain 2>/dev/null | grep -q . && echo -dirty-$$(date +%s%N))
LDFLAGS := -s -w -X github.com/gate-sdk/gates/internal/cli.sourceStamp=$(STAMP)

.PHONY: build test tools unit gates fixtures bench demo vet fmt clean

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/gates

# test: everything CI runs — formatting, vet, unit and end-to-end tests,
# every fixture suite of the tree, and the project's own battery over itself.
test: tools fmt vet unit build fixtures gates

# tools: shellcheck and gawk, installed with apt-get when missing.
tools:
	bash .ci/tools

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would rewrite:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

fixtures: build
	GATE_SDK_NATIVE_BIN=$(CURDIR)/$(BIN) bash kits/gate-sdk/bin/run-fixture-suites.sh

gates: build
	GATE_SDK_NATIVE_BIN=$(CURDIR)/$(BIN) bash kits/gate-sdk/bin/run-gates.sh

# bench: the battery over a generated 20,000-file consumer repository,
# then the engine and snapshot micro-benchmarks. Figures only; nothing fails
# on a timing.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./internal/bench/
	$(GO) test -run '^$$' -bench . -benchtime 1s ./internal/ere/ ./internal/repo/ ./internal/githook/

demo: tools build
	GATE_SDK_NATIVE_BIN=$(CURDIR)/$(BIN) bash kits/gate-sdk/bin/run-gates.sh --run-demo

clean:
	rm -rf bin .tmp
