package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestProfilesWrittenOnEveryReturn checks that --cpuprofile and --memprofile write profiles when a command
// succeeds and when it fails.
func TestProfilesWrittenOnEveryReturn(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"success", []string{"version", "--client"}, 0},
		{"error", []string{"api-resources", "--kubeconfig", "/nonexistent/kubeconfig", "--sort-by", "bogus"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
			var out, errOut bytes.Buffer
			streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
			code := run(append(tc.args, "--cpuprofile", cpu, "--memprofile", mem), streams)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			for _, path := range []string{cpu, mem} {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("profile not written: %v", err)
				}
				// pprof files are gzip-compressed protocol buffers.
				if len(b) < 20 || b[0] != 0x1f || b[1] != 0x8b {
					t.Errorf("%s: not a pprof file (%d bytes)", filepath.Base(path), len(b))
				}
			}
		})
	}
}

// TestProfileFlagBadPath checks that an unwritable profile path is a one-line error before the command runs.
func TestProfileFlagBadPath(t *testing.T) {
	var out, errOut bytes.Buffer
	streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	code := run([]string{"version", "--client", "--cpuprofile", "/nonexistent/dir/cpu.pprof"}, streams)
	if code != 1 || out.Len() != 0 || !strings.HasPrefix(errOut.String(), "error: cpu profile: open /nonexistent/dir/cpu.pprof") ||
		strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("code %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
