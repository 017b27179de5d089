# kscope — see README.md. `make demo` runs kscope on a seeded local cluster; `make test` runs every test.
SHELL        := /bin/bash
GO           ?= go
VERSION      ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
CACHE        := $(CURDIR)/.cache/devcluster
DEVCLUSTER   := $(CACHE)/bin/devcluster
DEV_KUBECONFIG := $(CACHE)/state/kubeconfig
E2E_TIMEOUT  ?= 45m
## E2E_PARALLEL: how many end-to-end tests of the parallel group run at once (e2e/main_test.go), sized for 2 cores
E2E_PARALLEL ?= 3
## TEST_LOGS: where unit and e2e keep their `go test -json` events (.ci/run's timing summary reads them)
TEST_LOGS    := $(CURDIR)/.cache/test

FUZZTIME     ?= 10s

.PHONY: build cross dist devcluster-cli devcluster up seed churn demo down wipe test unit fuzz e2e lint bench clean

## build: bin/kscope, statically linked (CGO_ENABLED=0): kscope needs no cgo, and a cgo build that links Go's
## plugin package (imported through cli-runtime's kustomize) exports every symbol and keeps every exported
## method, which doubles the binary and adds ~26 MB to the RSS of a session (measured at 10k pods)
build:
	CGO_ENABLED=0 $(GO) build -ldflags "-X main.version=$(VERSION)" -o bin/kscope .

## PLATFORMS: the systems kscope is built for (`make cross`, `make dist`). LINT_PLATFORMS: those `make lint` (so
## `make test` and CI) cross-builds, so that a call only Unix has (syscall.Kill, SIGUSR1) fails there: Windows on
## amd64 (lint's `go vet ./...` type-checks Linux already, and macOS builds the same `unix` files; each cold
## cross-build costs CI ~4 min on 2 cores, within its 40, so macOS and arm64 are left to `make cross` and `make dist`)
PLATFORMS       := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
LINT_PLATFORMS  ?= windows/amd64
CROSS_PLATFORMS ?= $(PLATFORMS)
## RELEASE_FLAGS: the flags of a release build (`make dist`), which `make cross` shares so that its build cache
## serves `make dist`: -trimpath and no VCS stamp, so the binaries do not depend on where the clone is
RELEASE_FLAGS   := -trimpath -buildvcs=false

## cross: build the binary for each of CROSS_PLATFORMS (all six by default), build only, into .cache/cross and
## thrown away: cached by go build, seconds once warm
cross:
	@set -e; for p in $(CROSS_PLATFORMS); do \
		echo "cross-build $$p"; \
		CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build $(RELEASE_FLAGS) -o $(CURDIR)/.cache/cross/kscope-$${p%/*}-$${p#*/} . ; \
	done
	@rm -rf $(CURDIR)/.cache/cross

## dist: the release under dist/: for each of PLATFORMS an archive (kscope_VERSION_OS_ARCH.tar.gz, .zip on
## Windows) of the binary stamped with VERSION, README.md and the shell completions (`kscope completion`), their
## SHA256SUMS, and from those checksums krew's manifest (dist/kscope.yaml) and a Homebrew formula (dist/kscope.rb)
## pointing at RELEASE_URL. Reproducible: -trimpath, no VCS stamp, every archive entry at the commit's time, sorted,
## no owner (release/), so a second `make dist` of the same commit writes the same SHA256SUMS.
HOMEPAGE     ?= https://github.com/kscope/kscope
RELEASE_URL  ?= $(HOMEPAGE)/releases/download/$(VERSION)
DIST_EPOCH   ?= $(shell git log -1 --format=%ct 2>/dev/null)
dist:
	@[ -n "$(DIST_EPOCH)" ] || { echo "dist: no commit time (not a git clone?): set DIST_EPOCH"; exit 1; }
	rm -rf dist && mkdir -p dist/build/completions
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*} arch=$${p#*/}; exe=$$([ $$os = windows ] && echo .exe || true); \
		echo "build $$p"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build $(RELEASE_FLAGS) \
			-ldflags "-s -w -X main.version=$(VERSION)" -o dist/build/$${os}_$${arch}/kscope$$exe . ; \
	done
	@set -e; host=dist/build/$$($(GO) env GOHOSTOS)_$$($(GO) env GOHOSTARCH)/kscope; \
	[ -x $$host ] || { echo "dist: this machine is none of PLATFORMS: no kscope here to write the completions"; exit 1; }; \
	for sh in bash zsh fish powershell; do \
		out=$$(case $$sh in bash) echo kscope.bash;; zsh) echo _kscope;; fish) echo kscope.fish;; powershell) echo kscope.ps1;; esac); \
		$$host completion $$sh > dist/build/completions/$$out; \
	done
	$(GO) run ./release -version $(VERSION) -epoch $(DIST_EPOCH) -bin dist/build -completions dist/build/completions \
		-readme README.md -out dist -url $(RELEASE_URL) -homepage $(HOMEPAGE)
	rm -rf dist/build
	@cat dist/SHA256SUMS

## devcluster-cli: the devcluster command (its own Go module, never built by the root module's tests)
devcluster-cli:
	cd devcluster && $(GO) build -o $(DEVCLUSTER) .

## devcluster: build etcd, kube-apiserver, controller-manager, scheduler, kwok and metrics-server (skipped when up to date)
devcluster: devcluster-cli
	$(DEVCLUSTER) build

## up: start the local cluster (reuses a running one); CLUSTERS=3 or 4 runs that many clusters (contexts third, fourth)
up: devcluster
	$(DEVCLUSTER) up $(if $(CLUSTERS),--clusters $(CLUSTERS))

## seed: demo content on the local cluster: the objects, then Helm releases written by Helm's own SDK
## (bench/cmd/helmload)
seed: up
	$(DEVCLUSTER) seed
	$(GO) run ./bench/cmd/helmload --demo --kubeconfig $(DEV_KUBECONFIG)

## churn: keep the local cluster changing (Ctrl-C to stop)
churn: devcluster-cli
	$(DEVCLUSTER) churn --rate 2

## demo: kscope on the seeded local cluster, with churn running in the background; it opens on the seeded
## shop namespace's deployments unless ARGS says otherwise (make demo ARGS='-A pods')
DEMO_ARGS := -n shop deployments
demo: seed build
	@$(DEVCLUSTER) churn --rate 2 >$(CACHE)/state/logs/churn.log 2>&1 & churn=$$!; \
	trap "kill $$churn 2>/dev/null" EXIT; \
	./bin/kscope --kubeconfig $(DEV_KUBECONFIG) $(or $(ARGS),$(DEMO_ARGS))

## down: stop the local cluster; wipe: and delete its state
down: devcluster-cli
	$(DEVCLUSTER) down
wipe: devcluster-cli
	$(DEVCLUSTER) down --wipe

## test: lint, unit tests (with every fuzz target's committed seeds), then end-to-end tests on the local cluster
## (started if needed). Deterministic: no random fuzz exploration (that is `make fuzz`).
test: lint unit e2e

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi
	@out=$$($(GO) mod tidy -diff) && [ -z "$$out" ] || { echo "go mod tidy needed:"; echo "$$out"; exit 1; }
	@out=$$(cd devcluster && $(GO) mod tidy -diff) && [ -z "$$out" ] || { echo "go mod tidy needed in devcluster:"; echo "$$out"; exit 1; }
	$(GO) vet ./...
	$(GO) vet -tags e2e ./e2e/...
	cd devcluster && $(GO) vet .
	@$(MAKE) --no-print-directory cross CROSS_PLATFORMS="$(LINT_PLATFORMS)"

unit:
	@mkdir -p $(TEST_LOGS)
	set -o pipefail; $(GO) test -race -count=1 -timeout 20m -json ./... | $(GO) run .ci/testtimes.go -save $(TEST_LOGS)/unit.json

## fuzz: explore each fuzz target for FUZZTIME (e.g. make fuzz FUZZTIME=10m; a new input is minimized for at most
## 100 runs, so the time goes to exploring); `make unit` runs their committed
## seeds only. Commit what it finds under <package>/testdata/fuzz/<target>/ once fixed, so every `make test`
## runs it from then on.
fuzz:
	@set -e; for pkg in ./watch ./kube ./ui ./ui/prompt ./pluginvars; do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$f for $(FUZZTIME)"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 100x; \
		done; \
	done

e2e: devcluster
	@mkdir -p $(TEST_LOGS)
	set -o pipefail; $(GO) test -tags e2e -count=1 -timeout $(E2E_TIMEOUT) -parallel $(E2E_PARALLEL) -json ./e2e/... | \
		$(GO) run .ci/testtimes.go -v -save $(TEST_LOGS)/e2e.json

## bench: kscope, k9s and kubectl side by side on the local cluster (BENCH_SIZES pods; bench/screen.sh)
BENCH_SIZES ?= 10000 50000
bench: devcluster-cli
	bench/screen.sh $(BENCH_SIZES)

clean:
	rm -rf bin
