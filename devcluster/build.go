package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

const (
	kubernetesVersion = "v1.37.2"
	kwokModule        = "sigs.k8s.io/kwok/cmd/kwok"
	kwokVersion       = "v0.8.0"
	// metrics-server is built with its own go.mod (Kubernetes libraries v0.33), as `go install` builds it.
	metricsServerModule  = "sigs.k8s.io/metrics-server/cmd/metrics-server"
	metricsServerVersion = "v0.8.0"
)

// components are the control-plane binaries built from ./components in the devcluster module.
var components = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"}

func runBuild(ctx context.Context, l layout, args []string) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	force := fs.Bool("force", false, "rebuild even when the binaries are up to date")
	kubectl := fs.Bool("kubectl", false, "also build kubectl "+kubernetesVersion+" (for machines without one)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	_, err := os.Stat(l.bin("kubectl"))
	needKubectl := *kubectl && (err != nil || *force)
	built, err := ensureControlPlaneBuilt(ctx, l, *force, needKubectl)
	if err != nil {
		return err
	}
	if needKubectl && !built { // the control plane was up to date: kubectl alone
		fmt.Fprintf(os.Stderr, "devcluster: building kubectl %s…\n", kubernetesVersion)
		if err := goCommand(ctx, l, l.source(), nil, "build", "-ldflags", versionLDFlags(), "-o", l.bin("kubectl"), "./tools/kubectl"); err != nil {
			return fmt.Errorf("build kubectl: %w", err)
		}
	}
	return ensureMetricsServerBuilt(ctx, l, *force)
}

// versionLDFlags stamps the Kubernetes version into a binary, as the release build does.
func versionLDFlags() string {
	return strings.Join([]string{"-s", "-w",
		"-X k8s.io/component-base/version.gitVersion=" + kubernetesVersion,
		"-X k8s.io/component-base/version.gitMajor=1",
		"-X k8s.io/component-base/version.gitMinor=37",
		"-X k8s.io/component-base/version.gitTreeState=clean",
		"-X k8s.io/component-base/version.buildDate=2026-01-01T00:00:00Z",
	}, " ")
}

// ensureBuilt builds the control plane, kwok and metrics-server, each unless its stamp says it was built from
// the same inputs.
func ensureBuilt(ctx context.Context, l layout, force bool) error {
	if _, err := ensureControlPlaneBuilt(ctx, l, force, false); err != nil {
		return err
	}
	return ensureMetricsServerBuilt(ctx, l, force)
}

// ensureControlPlaneBuilt builds etcd, the Kubernetes components and kwok unless the stamp says they were
// built from the same inputs, and tells whether it built them. With kubectl, kubectl is built by the same
// `go build` (it shares most of its packages with the components, and one build keeps both cores busy to
// the end instead of compiling kubectl's own packages after the components' links).
func ensureControlPlaneBuilt(ctx context.Context, l layout, force, kubectl bool) (bool, error) {
	stamp, err := cachedBuildStamp(ctx, l)
	if err != nil {
		return false, err
	}
	stampFile := l.bin(".stamp")
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp && !force && binariesExist(l) {
		fmt.Fprintf(os.Stderr, "devcluster: binaries up to date in %s\n", l.binDir())
		return false, nil
	}
	if err := os.MkdirAll(l.binDir(), 0o755); err != nil {
		return false, err
	}
	start := time.Now()
	names, pkgs := slices.Clone(components), []string{"./components/..."}
	if kubectl {
		names, pkgs = append(names, "kubectl"), append(pkgs, "./tools/kubectl")
	}
	fmt.Fprintf(os.Stderr, "devcluster: building %s from k8s.io/kubernetes %s (a cold build takes ~6 min on 2 cores)…\n",
		strings.Join(names, ", "), kubernetesVersion)
	args := append([]string{"build", "-ldflags", versionLDFlags(), "-o", l.binDir() + "/"}, pkgs...)
	if err := goCommand(ctx, l, l.source(), nil, args...); err != nil {
		return false, fmt.Errorf("build the control plane (%s): %w", strings.Join(names, ", "), err)
	}
	fmt.Fprintf(os.Stderr, "devcluster: built %s in %s\n", strings.Join(names, ", "), time.Since(start).Round(time.Second))
	kwokStart := time.Now()
	fmt.Fprintf(os.Stderr, "devcluster: building kwok %s…\n", kwokVersion)
	if err := goCommand(ctx, l, l.source(), []string{"GOBIN=" + l.binDir()}, "install", "-ldflags=-s -w", kwokModule+"@"+kwokVersion); err != nil {
		return false, fmt.Errorf("build kwok: %w", err)
	}
	if err := os.WriteFile(stampFile, []byte(stamp), 0o644); err != nil {
		return false, err
	}
	fmt.Fprintf(os.Stderr, "devcluster: built kwok in %s; the control plane in %s into %s\n",
		time.Since(kwokStart).Round(time.Second), time.Since(start).Round(time.Second), l.binDir())
	return true, nil
}

// ensureMetricsServerBuilt builds metrics-server unless its own stamp says it was built from the same inputs
// (a stamp apart from the control plane's, so that adding it rebuilt nothing else).
func ensureMetricsServerBuilt(ctx context.Context, l layout, force bool) error {
	ldflags := "-s -w -X k8s.io/client-go/pkg/version.gitVersion=" + metricsServerVersion
	stamp := fmt.Sprintf("%s %s@%s %s\n", runtime.Version(), metricsServerModule, metricsServerVersion, ldflags)
	stampFile := l.bin(".stamp-metrics-server")
	if old, err := os.ReadFile(stampFile); err == nil && string(old) == stamp && !force {
		if _, err := os.Stat(l.bin("metrics-server")); err == nil {
			return nil
		}
	}
	start := time.Now()
	fmt.Fprintf(os.Stderr, "devcluster: building metrics-server %s (a cold build takes ~5 min on 2 cores)…\n", metricsServerVersion)
	if err := goCommand(ctx, l, l.source(), []string{"GOBIN=" + l.binDir()}, "install", "-ldflags="+ldflags, metricsServerModule+"@"+metricsServerVersion); err != nil {
		return fmt.Errorf("build metrics-server: %w", err)
	}
	if err := os.WriteFile(stampFile, []byte(stamp), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "devcluster: built metrics-server in %s\n", time.Since(start).Round(time.Second))
	return nil
}

func binariesExist(l layout) bool {
	for _, name := range append(components, "kwok") {
		if _, err := os.Stat(l.bin(name)); err != nil {
			return false
		}
	}
	return true
}

// buildStamp hashes every input of the build: the module versions compiled into the components (so an
// unrelated go.mod change does not force a rebuild), the component sources, kwok's version and Go's.
func buildStamp(ctx context.Context, l layout) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s %s %s\n", runtime.Version(), kubernetesVersion, kwokModule, kwokVersion)
	list := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}@{{.Version}}{{with .Replace}}=>{{.Path}}@{{.Version}}{{end}}{{end}}", "./components/...")
	list.Dir = l.source()
	out, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("list the control plane's modules in %s: %w", l.source(), err)
	}
	mods := strings.Fields(string(out))
	slices.Sort(mods)
	fmt.Fprintln(h, strings.Join(slices.Compact(mods), "\n"))
	var files []string
	for _, c := range components {
		files = append(files, filepath.Join("components", c, "main.go"))
	}
	if err := hashSources(h, l, files); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// goCommand runs the go tool in dir, logging to the build log; a failure names the last line of output.
func goCommand(ctx context.Context, l layout, dir string, extraEnv []string, args ...string) error {
	logPath := l.logFile("build")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "\n$ go %s\n", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extraEnv...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s failed (%v): %s (full log: %s)", args[0], err, logTail(logPath), logPath)
	}
	return nil
}
