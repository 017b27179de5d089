//go:build unix

package apply

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// promptly runs read on a goroutine of its own and returns what it returns, failing the test when it has
// not returned within 10 s (it blocks: the goroutine is left behind) and ending the test binary when the
// heap grows past 1 GiB meanwhile (it reads without a limit: letting it go on would exhaust the machine).
func promptly(t *testing.T, what string, read func() ([]Source, error)) ([]Source, error) {
	t.Helper()
	type result struct {
		srcs []Source
		err  error
	}
	done := make(chan result, 1)
	go func() {
		srcs, err := read()
		done <- result{srcs, err}
	}()
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			return r.srcs, r.err
		case <-deadline:
			t.Fatalf("%s: the read has not returned after 10 s (it blocks)", what)
		case <-tick.C:
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > 1<<30 {
				panic(fmt.Sprintf("%s: the read holds %d MiB and goes on (no limit)", what, m.HeapAlloc>>20))
			}
		}
	}
}

// sparse makes a file of size bytes (a hole: no disk used) at path.
func sparse(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

// write writes text at path.
func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// fifo makes a FIFO nobody writes to at path.
func fifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// link makes a symbolic link at path to target.
func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// TestReadPathRefusals: what is not a regular file (a FIFO, a device, through a symbolic link too), a
// symbolic link loop, a file over MaxBytes, a folder over MaxFiles or whose files hold more than MaxBytes
// in all: each is refused in its own line, at once (never a hang, never a read to the end of /dev/zero);
// at the limits themselves, and in a folder with a FIFO and links among its files, the read goes on.
func TestReadPathRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // the path to read
		err   string                                // the refusal, exactly; "" for a read
		want  []string                              // each Source's name and length, when read
	}{
		{"a FIFO nobody writes to", func(t *testing.T, dir string) string {
			fifo(t, filepath.Join(dir, "p.yaml"))
			return filepath.Join(dir, "p.yaml")
		}, "refused: not a regular file (a FIFO)", nil},
		{"/dev/zero", func(*testing.T, string) string { return "/dev/zero" },
			"refused: not a regular file (a character device)", nil},
		{"a symbolic link to a FIFO", func(t *testing.T, dir string) string {
			fifo(t, filepath.Join(dir, "p"))
			link(t, filepath.Join(dir, "p"), filepath.Join(dir, "l.yaml"))
			return filepath.Join(dir, "l.yaml")
		}, "refused: not a regular file (a FIFO)", nil},
		{"a symbolic link loop", func(t *testing.T, dir string) string {
			link(t, filepath.Join(dir, "b"), filepath.Join(dir, "a"))
			link(t, filepath.Join(dir, "a"), filepath.Join(dir, "b"))
			return filepath.Join(dir, "a")
		}, "too many levels of symbolic links", nil},
		{"a file one byte over the limit", func(t *testing.T, dir string) string {
			sparse(t, filepath.Join(dir, "big.yaml"), MaxBytes+1)
			return filepath.Join(dir, "big.yaml")
		}, "refused: more than 16 MiB (the limit of :apply)", nil},
		{"a file of 2 GiB", func(t *testing.T, dir string) string {
			sparse(t, filepath.Join(dir, "huge.yaml"), 2<<30)
			return filepath.Join(dir, "huge.yaml")
		}, "refused: more than 16 MiB (the limit of :apply)", nil},
		{"a file at the limit", func(t *testing.T, dir string) string {
			sparse(t, filepath.Join(dir, "full.yaml"), MaxBytes)
			return filepath.Join(dir, "full.yaml")
		}, "", []string{"full.yaml 16777216"}},
		{"a folder of one file over the count", func(t *testing.T, dir string) string {
			for i := range MaxFiles + 1 {
				write(t, filepath.Join(dir, fmt.Sprintf("%04d.yaml", i)), "a")
			}
			return dir
		}, "refused: more than 1000 .yaml, .yml and .json files (the limit of :apply)", nil},
		{"a folder at the limit, among other files", func(t *testing.T, dir string) string {
			for i := range MaxFiles {
				write(t, filepath.Join(dir, fmt.Sprintf("%04d.yml", i)), "a")
				write(t, filepath.Join(dir, fmt.Sprintf("%04d.txt", i)), "a")
			}
			return dir
		}, "", nil},
		{"a folder whose files hold more than the limit in all", func(t *testing.T, dir string) string {
			sparse(t, filepath.Join(dir, "a.yaml"), MaxBytes/2)
			sparse(t, filepath.Join(dir, "b.json"), MaxBytes/2)
			write(t, filepath.Join(dir, "c.yaml"), "x")
			return dir
		}, "refused: more than 16 MiB in all, at c.yaml (the limit of :apply)", nil},
		{"a folder with a FIFO, a device and links among its files", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "a.yaml"), "kind: A")
			fifo(t, filepath.Join(dir, "p.yaml"))
			link(t, "/dev/zero", filepath.Join(dir, "zero.yaml"))
			link(t, filepath.Join(dir, "a.yaml"), filepath.Join(dir, "same.yaml"))
			link(t, filepath.Join(dir, "loop.yaml"), filepath.Join(dir, "loop.yaml"))
			return dir
		}, "", []string{"a.yaml 7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t, t.TempDir())
			srcs, err := promptly(t, tt.name, func() ([]Source, error) { return ReadPath(context.Background(), path) })
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if len(srcs) != MaxFiles {
					t.Fatalf("%d files read, want %d", len(srcs), MaxFiles)
				}
				return
			}
			var got []string
			for _, s := range srcs {
				got = append(got, fmt.Sprintf("%s %d", filepath.Base(s.Name), len(s.Data)))
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
				t.Errorf("read %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReadPathStopsWhenCancelled: a cancelled read of a file or a folder returns the context's error, not
// what it read.
func TestReadPathStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	sparse(t, filepath.Join(dir, "a.yaml"), MaxBytes/2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, path := range []string{dir, filepath.Join(dir, "a.yaml")} {
		srcs, err := promptly(t, path, func() ([]Source, error) { return ReadPath(ctx, path) })
		if err != context.Canceled {
			t.Errorf("ReadPath(%s) cancelled = %d sources, %v; want context.Canceled", path, len(srcs), err)
		}
	}
}

// TestLimitsWordsTheLimits: the line the usage and the reading screen show says MaxFiles and MaxBytes.
func TestLimitsWordsTheLimits(t *testing.T) {
	for _, n := range []string{fmt.Sprintf(" %d files", MaxFiles), fmt.Sprintf(" %d MiB", MaxBytes>>20)} {
		if !strings.Contains(Limits, n) || !strings.Contains(Usage, n) {
			t.Errorf("Limits %q or Usage %q lacks %q", Limits, Usage, n)
		}
	}
}
