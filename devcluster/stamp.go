package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// cachedBuildStamp returns buildStamp, reusing the one it computed last while the files and settings that
// decide `go list -deps` (go.mod, go.sum, the component sources, Go's version and environment) are
// unchanged. buildStamp lists the whole control plane's dependencies (seconds on a loaded machine), and
// every `make devcluster`, `devcluster build --kubectl` and `devcluster up` of a test run asks for it.
func cachedBuildStamp(ctx context.Context, l layout) (string, error) {
	key, err := stampKey(l)
	if err != nil {
		return "", err
	}
	cache := l.bin(".stamp-inputs")
	if data, err := os.ReadFile(cache); err == nil {
		if k, stamp, ok := strings.Cut(string(data), " "); ok && k == key && stamp != "" {
			return stamp, nil
		}
	}
	stamp, err := buildStamp(ctx, l)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(l.binDir(), 0o755); err != nil {
		return "", err
	}
	return stamp, os.WriteFile(cache, []byte(key+" "+stamp), 0o644)
}

// stampKey hashes what buildStamp's result depends on, without running the go tool.
func stampKey(l layout) (string, error) {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version(), kubernetesVersion, kwokModule, kwokVersion)
	for _, v := range []string{"GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOWORK"} {
		fmt.Fprintf(h, "%s=%s\n", v, os.Getenv(v))
	}
	files := []string{"go.mod", "go.sum"}
	for _, c := range components {
		files = append(files, filepath.Join("components", c, "main.go"))
	}
	if err := hashSources(h, l, files); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashSources writes each of files (relative to the devcluster source) to h, named and sized, so that
// moving bytes between files changes the hash.
func hashSources(h io.Writer, l layout, files []string) error {
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(l.source(), f))
		if err != nil {
			return fmt.Errorf("read devcluster source: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	return nil
}
