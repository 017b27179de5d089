//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// restoredTerminal is what the tmux pane prints after kscope exits: its exit code, then whether the terminal
// is back in the mode a shell expects (line editing and echo on, not the UI's raw mode).
const restoredTerminal = "; echo KSCOPE-EXIT=$?; echo TTY-MODE: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo); sleep 600"

// alternateScreen tells whether the pane shows the alternate screen (a full-screen program's), as tmux reports it.
func (s *tmuxUI) alternateScreen() bool {
	s.t.Helper()
	out, err := exec.Command("tmux", "display", "-p", "-t", s.name, "#{alternate_on}").Output()
	if err != nil {
		s.t.Fatalf("tmux display: %v", err)
	}
	return strings.TrimSpace(string(out)) == "1"
}

// kscopePID is the process id of the kscope the pane's shell runs.
func (s *tmuxUI) kscopePID() int {
	s.t.Helper()
	out, err := exec.Command("tmux", "display", "-p", "-t", s.name, "#{pane_pid}").Output()
	if err != nil {
		s.t.Fatalf("tmux display: %v", err)
	}
	children, err := exec.Command("pgrep", "-P", strings.TrimSpace(string(out)), "-f", filepath.Base(env.kscope)).Output()
	if err != nil {
		s.t.Fatalf("pgrep: kscope is not running under the pane: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(children))[0])
	if err != nil {
		s.t.Fatalf("pgrep: %v", err)
	}
	return pid
}

// waitRestored waits until kscope has exited with code and the pane is the shell's again: no alternate
// screen, the UI's frame gone, the terminal in line mode with echo.
func (s *tmuxUI) waitRestored(code string) string {
	s.t.Helper()
	scr := s.waitFor("KSCOPE-EXIT="+code, "TTY-MODE:")
	if s.alternateScreen() {
		s.t.Errorf("the pane is still on the alternate screen after kscope exited")
	}
	if strings.Contains(scr, "Context: ") || strings.Contains(scr, "╔") {
		s.t.Errorf("the UI is still drawn after kscope exited:\n%s", scr)
	}
	if mode := strings.TrimSpace(strings.SplitN(lineWith(scr, "TTY-MODE:"), "TTY-MODE:", 2)[1]); mode != "icanon echo" {
		s.t.Errorf("terminal mode after kscope = %q, want %q (raw mode left behind)", mode, "icanon echo")
	}
	return scr
}

// TestLifecycleKillTermRestoresTerminal: `kill -TERM` ends kscope as a shell expects (exit code 143) with the
// terminal restored: the pane is back on the shell's screen, out of the alternate screen and raw mode.
func TestLifecycleKillTermRestoresTerminal(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "cfg", "--from-literal=k=v")
	s := startTmux(t, restoredTerminal, "-n", ns, "configmaps")
	s.waitFor("configmaps("+ns+")[", "cfg")
	if !s.alternateScreen() {
		t.Fatal("kscope's UI is not on the alternate screen")
	}
	if err := syscall.Kill(s.kscopePID(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	scr := s.waitRestored("143")
	if !strings.Contains(scr, "error: stopped: terminated") {
		t.Errorf("kscope did not say why it stopped:\n%s", scr)
	}
}

// TestLifecycleChildGetsTerminalStderr: an editor (as a foreground plugin or a shell would) writes its
// standard error to the terminal while it has it, so a prompt there is seen as it waits; a SIGTERM that comes
// meanwhile stops kscope once the editor returns, with the terminal restored.
func TestLifecycleChildGetsTerminalStderr(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "cfg", "--from-literal=k=v")
	done := filepath.Join(t.TempDir(), "done")
	editor := editorScript(t, "prompting.sh", `printf 'EDITOR-PROMPT for %s\n' "$(basename "$1" | cut -c1-6)" >&2
while [ ! -e '`+done+`' ]; do sleep 0.1; done`)
	s := startTmuxEnv(t, []string{"EDITOR=" + editor}, env.kscope, restoredTerminal, "-n", ns, "configmaps")
	s.waitFor("configmaps("+ns+")[", "cfg")
	s.typeUntilUID("e", "EDITOR-PROMPT for ")
	s.waitUntil("the editor's prompt on the terminal while it runs", func(scr string) bool {
		return strings.Contains(scr, "EDITOR-PROMPT for ") && !s.alternateScreen()
	})
	if err := syscall.Kill(s.kscopePID(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	scr := s.waitRestored("143")
	if !strings.Contains(scr, "error: stopped: terminated") {
		t.Errorf("kscope did not stop through its signal path after the editor:\n%s", scr)
	}
}

// TestLifecycleTerminalLostInShell: a terminal that goes away while a shell has it (the tmux session, an ssh
// connection closed) ends kscope: the shell's stream ends with the session's SIGHUP and kscope exits, rather
// than staying behind without a terminal (it spun on a screen it could not resume).
func TestLifecycleTerminalLostInShell(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	pod := streamsPod(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", pod, "synced  1/1", "Running")
	pid := s.kscopePID()
	enterShell(s, ns)
	if out, err := exec.Command("tmux", "kill-session", "-t", s.name).CombinedOutput(); err != nil {
		t.Fatalf("tmux kill-session: %v\n%s", err, out)
	}
	deadline := time.Now().Add(uiScreenTimeout)
	for running(t, pid) { // the process has not exited
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("kscope (pid %d) still runs %s after its terminal went away", pid, uiScreenTimeout)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
