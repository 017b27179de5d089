//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// startShellUI runs kscope with args in a tmux session like startUI; after kscope exits the pane prints
// "KSCOPE-EXIT=<code>" and then the terminal's mode (`stty -a`) between TTY-BEGIN and TTY-END.
func startShellUI(t *testing.T, args ...string) *tmuxUI {
	t.Helper()
	return startTmux(t, "; echo KSCOPE-EXIT=$?; echo TTY-BEGIN; stty -a | tr '\\n' ' '; echo; echo TTY-END; sleep 600", args...)
}

var exitLine = regexp.MustCompile(`KSCOPE-EXIT=(\d+)`)

// joinedScreen returns the pane's text with wrapped lines joined.
func joinedScreen(t *testing.T, s *tmuxUI) string {
	t.Helper()
	out, err := exec.Command("tmux", "capture-pane", "-p", "-J", "-t", s.name).Output()
	if err != nil {
		t.Fatalf("tmux capture-pane: %v", err)
	}
	return string(out)
}

// checkRestoredTerminal fails t unless, after kscope exited, the pane left the alternate screen and the
// terminal is back in cooked mode with echo.
func checkRestoredTerminal(t *testing.T, s *tmuxUI) {
	t.Helper()
	s.waitFor("TTY-END")
	scr := joinedScreen(t, s)
	mode := scr[strings.Index(scr, "TTY-BEGIN"):strings.Index(scr, "TTY-END")]
	mode = strings.Join(strings.Fields(mode), " ") + " "
	for _, want := range []string{" icanon ", " echo ", " isig ", " icrnl ", " opost "} {
		if !strings.Contains(mode, want) {
			t.Errorf("terminal mode after exit lacks%s(stty -a: %s)", want, mode)
		}
	}
	out, err := exec.Command("tmux", "display-message", "-p", "-t", s.name, "#{alternate_on}").Output()
	if err != nil || strings.TrimSpace(string(out)) != "0" {
		t.Errorf("the pane is still on the alternate screen after exit (alternate_on=%q, %v)", out, err)
	}
}

// TestReliabilityBadCommandLineOneLineError: bad input on the command line (unknown resource, unknown
// context, malformed, missing or unreadable kubeconfig, unreachable server, conflicting flags, extra
// arguments) ends kscope with a non-zero exit and one "error: …" line, never a stack trace, and the
// terminal is as it was.
func TestReliabilityBadCommandLineOneLineError(t *testing.T) {
	parallel(t)
	dir := t.TempDir()
	malformed := filepath.Join(dir, "malformed")
	if err := os.WriteFile(malformed, []byte("apiVersion: v1\nclusters: [this is: not yaml\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // in the error line
	}{
		{"unknown resource", []string{"nosuchthing"}, `unknown resource "nosuchthing"`},
		{"unknown context", []string{"--context", "no-such-context"}, "no-such-context"},
		{"malformed kubeconfig", []string{"--kubeconfig", malformed}, "malformed"},
		{"missing kubeconfig", []string{"--kubeconfig", filepath.Join(dir, "missing")}, "missing"},
		{"unreadable kubeconfig", []string{"--kubeconfig", dir}, "is a directory"},
		{"unreachable server", []string{"--server", "https://127.0.0.1:1", "--insecure-skip-tls-verify"},
			"cannot reach the API server at https://127.0.0.1:1"},
		{"namespace and all namespaces", []string{"-n", "shop", "-A"}, "cannot be used together"},
		{"two resources", []string{"pods", "deployments"}, `"deployments": after RESOURCE, the contexts`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startShellUI(t, tt.args...)
			s.waitFor("KSCOPE-EXIT=")
			scr := joinedScreen(t, s) // a long line wraps at the pane's width
			code := exitLine.FindStringSubmatch(scr)[1]
			out := strings.TrimSpace(scr[:strings.Index(scr, "KSCOPE-EXIT=")])
			lines := strings.Split(out, "\n")
			if code == "0" || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") ||
				!strings.Contains(lines[0], tt.want) {
				t.Errorf("exit %s, output %q; want a non-zero exit and one line \"error: …%s…\"", code, out, tt.want)
			}
			if strings.Contains(out, "goroutine ") || strings.Contains(out, "panic") {
				t.Errorf("stack trace: %q", out)
			}
			t.Logf("exit %s: %s", code, lines[0])
			checkRestoredTerminal(t, s)
		})
	}
}

// TestReliabilityBadInputInUI: in the running UI, an unknown resource, an invalid regular expression, an
// invalid label selector, an unknown context and a nonexistent namespace (typed, or given with -n) each give
// one clear line; kscope keeps running, and after `q` the terminal is restored.
func TestReliabilityBadInputInUI(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	s := startShellUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[3]", "synced")
	tests := []struct {
		keys []string
		want string
	}{
		{[]string{":nosuchthing", "Enter"}, `unknown resource "nosuchthing"`},
		{[]string{"/web(", "Enter"}, "invalid regular expression"},
		{[]string{"/-l app in (", "Enter"}, "invalid label selector"},
		{[]string{":ctx no-such-context", "Enter"}, `context "no-such-context" does not exist`},
		{[]string{":ns no-such-namespace", "Enter"}, `"no-such-namespace" not found`},
	}
	for _, tt := range tests {
		for _, k := range tt.keys {
			if k == "Enter" {
				s.keys(k)
			} else {
				s.typeText(k)
			}
		}
		scr := s.waitFor(tt.want)
		line := strings.TrimSpace(lineWith(scr, tt.want))
		t.Logf("%q → %q", strings.Join(tt.keys, " "), line)
		if strings.Contains(scr, "KSCOPE-EXIT") || strings.Contains(scr, "goroutine ") {
			t.Fatalf("kscope ended or printed a stack trace:\n%s", scr)
		}
	}
	s.typeText(":ns " + ns)
	s.keys("Enter")
	s.waitFor("pods("+ns+")[3]", "synced")
	s.typeText("q")
	scr := s.waitFor("KSCOPE-EXIT=")
	if code := exitLine.FindStringSubmatch(scr)[1]; code != "0" {
		t.Errorf("exit %s after q", code)
	}
	checkRestoredTerminal(t, s)

	// The same for a namespace given on the command line: the table opens, empty, and says why.
	s = startShellUI(t, "-n", "no-such-namespace", "pods")
	scr = s.waitFor("pods(no-such-namespace)[0]", `namespace "no-such-namespace" not found`)
	t.Logf("-n no-such-namespace → %q", strings.TrimSpace(lineWith(scr, "not found")))
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	checkRestoredTerminal(t, s)
}
