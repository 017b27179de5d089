package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func TestRunBadKubeconfig(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken")
	if err := os.WriteFile(broken, []byte("clusters: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"malformed", []string{"--kubeconfig", broken, "version"}, "error: kubeconfig: error loading config file"},
		{"missing file", []string{"--kubeconfig", filepath.Join(dir, "absent"), "version"}, "error: kubeconfig:"},
		{"unreachable", []string{"--server", "https://127.0.0.1:1", "version"}, "error: cannot reach the API server at https://127.0.0.1:1"},
		{"unknown command flag", []string{"version", "--bogus"}, "error: unknown flag: --bogus"},
		{"namespace not a DNS label", []string{"-n", ".."}, `error: invalid namespace "..": a lowercase RFC 1123 label`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tt.args, genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			if code == 0 {
				t.Fatalf("exit code 0, want non-zero; stderr %q", errOut.String())
			}
			msg := errOut.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, tt.want) {
				t.Errorf("stderr %q: want one line starting with %q", msg, tt.want)
			}
		})
	}
}

// run is Main as a build without a version stamp runs it.
func run(args []string, streams genericiooptions.IOStreams) int { return Main(args, streams, "dev") }
