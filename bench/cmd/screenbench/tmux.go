package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// tmuxServer is one private tmux server (its own socket name) driven through a control-mode client, so that
// a capture-pane poll costs a line on a pipe rather than a process start. Methods are safe for concurrent
// use; commands are answered in the order they are sent.
type tmuxServer struct {
	socket string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	blocks chan tmuxReply

	mu sync.Mutex
}

// tmuxReply is the output of one command: its lines, and whether tmux reported an error.
type tmuxReply struct {
	lines []string
	err   bool
}

// startTmux starts a tmux server on socket with a control client attached to a session of its own.
func startTmux(socket string) (*tmuxServer, error) {
	_ = exec.Command("tmux", "-L", socket, "kill-server").Run()
	cmd := exec.Command("tmux", "-L", socket, "-f", "/dev/null", "-C", "new-session", "-s", "ctl", "-x", "80", "-y", "10", "sleep 86400")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start tmux: %w", err)
	}
	t := &tmuxServer{socket: socket, cmd: cmd, stdin: stdin, blocks: make(chan tmuxReply, 16)}
	go t.read(stdout)
	// Drop the reply to the session's own start-up command, then stop pane output notifications.
	if _, err := t.run("display-message -p kbench-sync"); err != nil {
		return nil, err
	}
	if _, err := t.run("refresh-client -f no-output"); err != nil {
		return nil, err
	}
	return t, nil
}

// read splits the control-mode stream into command replies (%begin … %end/%error); notifications outside
// a reply are ignored.
func (t *tmuxServer) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cur *tmuxReply
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "%begin "):
			cur = &tmuxReply{}
		case cur != nil && (strings.HasPrefix(line, "%end ") || strings.HasPrefix(line, "%error ")):
			cur.err = strings.HasPrefix(line, "%error ")
			t.blocks <- *cur
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	close(t.blocks)
}

// run sends one tmux command line and returns its output lines.
func (t *tmuxServer) run(command string) ([]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := io.WriteString(t.stdin, command+"\n"); err != nil {
		return nil, fmt.Errorf("tmux %s: %w", command, err)
	}
	for {
		select {
		case b, ok := <-t.blocks:
			if !ok {
				return nil, errors.New("tmux control client exited")
			}
			if command == "display-message -p kbench-sync" && (len(b.lines) != 1 || b.lines[0] != "kbench-sync") {
				continue // the start-up reply
			}
			if b.err {
				return b.lines, fmt.Errorf("tmux %s: %s", command, strings.Join(b.lines, " "))
			}
			return b.lines, nil
		case <-time.After(30 * time.Second):
			return nil, fmt.Errorf("tmux %s: no reply", command)
		}
	}
}

// quote makes s one tmux command argument.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// launch starts command (a shell command line) in a new detached session of the given size, with env.
func (t *tmuxServer) launch(session string, width, height int, env []string, command string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "new-session -d -s %s -x %d -y %d", session, width, height)
	for _, e := range env {
		b.WriteString(" -e " + quote(e))
	}
	b.WriteString(" " + quote(command))
	_, err := t.run(b.String())
	return err
}

// capture returns the visible lines of the session's pane.
func (t *tmuxServer) capture(session string) ([]string, error) {
	return t.run("capture-pane -p -t " + session)
}

// pid returns the process id of the session pane's command.
func (t *tmuxServer) pid(session string) (int, error) {
	out, err := t.run("display-message -p -t " + session + " '#{pane_pid}'")
	if err != nil {
		return 0, err
	}
	var pid int
	if len(out) != 1 {
		return 0, fmt.Errorf("pane pid of %s: %q", session, out)
	}
	_, err = fmt.Sscan(out[0], &pid)
	return pid, err
}

// keys sends tmux key names (Enter, Escape, C-c, N …) to the session.
func (t *tmuxServer) keys(session string, keys ...string) error {
	_, err := t.run("send-keys -t " + session + " " + strings.Join(keys, " "))
	return err
}

// literal types text into the session as it is.
func (t *tmuxServer) literal(session, text string) error {
	_, err := t.run("send-keys -t " + session + " -l " + quote(text))
	return err
}

// alive tells whether the session still exists.
func (t *tmuxServer) alive(session string) bool {
	_, err := t.run("has-session -t " + session)
	return err == nil
}

// kill ends the session (its process gets SIGHUP).
func (t *tmuxServer) kill(session string) { _, _ = t.run("kill-session -t " + session) }

// close stops the server.
func (t *tmuxServer) close() {
	_ = exec.Command("tmux", "-L", t.socket, "kill-server").Run()
	_ = t.stdin.Close()
	_ = t.cmd.Wait()
}
