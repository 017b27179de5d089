package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCachedBuildStampReusedUntilAnInputChanges: the stamp computed once is reused while go.mod, go.sum and
// the component sources are unchanged, and computed again (go list) when one changes.
func TestCachedBuildStampReusedUntilAnInputChanges(t *testing.T) {
	repo := t.TempDir()
	l := newLayout(filepath.Join(repo, ".cache", "devcluster"))
	write := func(name, text string) {
		path := filepath.Join(repo, "devcluster", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/dc\n\ngo 1.26\n")
	write("go.sum", "")
	for _, c := range components {
		write(filepath.Join("components", c, "main.go"), "package main\n\nfunc main() {}\n")
	}
	ctx := context.Background()
	first, err := cachedBuildStamp(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	// A stored stamp is what a later call returns, without listing again, while the inputs are unchanged.
	key, err := stampKey(l)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.bin(".stamp-inputs"), []byte(key+" stored"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := cachedBuildStamp(ctx, l); err != nil || got != "stored" {
		t.Fatalf("unchanged inputs: stamp %q, %v; want the stored one", got, err)
	}
	write("go.sum", "example.com/other v1.0.0 h1:x\n")
	got, err := cachedBuildStamp(ctx, l)
	if err != nil || got == "stored" || got != first {
		t.Fatalf("go.sum changed: stamp %q, %v; want %q computed again (the module's dependencies did not change)", got, err, first)
	}
	write(filepath.Join("components", "etcd", "main.go"), "package main\n\nfunc main() { println() }\n")
	if got, err := cachedBuildStamp(ctx, l); err != nil || got == first {
		t.Fatalf("a component's source changed: stamp %q, %v; want a new one", got, err)
	}
}
