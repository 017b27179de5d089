package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestProfilesWrittenOnEveryReturn checks that --cpuprofile, --memprofile and --trace write their files when a
// command succeeds and when it fails.
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
			cpu, mem, tr := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof"), filepath.Join(dir, "run.trace")
			var out, errOut bytes.Buffer
			streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
			code := run(append(tc.args, "--cpuprofile", cpu, "--memprofile", mem, "--trace", tr), streams)
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
			// An execution trace starts with its header, "go 1.N trace", and holds more than it.
			if b, err := os.ReadFile(tr); err != nil || !bytes.HasPrefix(b, []byte("go 1.")) || len(b) < 100 {
				t.Errorf("trace not written (%d bytes, %v)", len(b), err)
			}
		})
	}
}

// TestProfileFlagBadPath checks that an unwritable profile path is a one-line error before the command runs.
func TestProfileFlagBadPath(t *testing.T) {
	for _, tc := range []struct{ flag, want string }{
		{"--cpuprofile", "error: cpu profile: open /nonexistent/dir/f"},
		{"--trace", "error: trace: open /nonexistent/dir/f"},
	} {
		var out, errOut bytes.Buffer
		streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
		code := run([]string{"version", "--client", tc.flag, "/nonexistent/dir/f"}, streams)
		if code != 1 || out.Len() != 0 || !strings.HasPrefix(errOut.String(), tc.want) || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%s: code %d, stdout %q, stderr %q", tc.flag, code, out.String(), errOut.String())
		}
	}
}
