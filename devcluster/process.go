package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// causeLine matches the log line that says why a process failed: Go's panic, klog's fatal and error lines,
// cobra's "Error:", a slog ERROR record.
var causeLine = regexp.MustCompile(`^(panic: |fatal error: |Error: |[FE]\d{4} |\{"time":"[^"]*","level":"ERROR")`)

// startProcess starts bin with args in the background, detached from this process, logging to the
// component's log file and recording its pid and identity (what it was started with, see startedWith). env
// nil inherits this process's environment. It returns the pid.
func startProcess(l layout, component, identity, bin string, env []string, args ...string) (int, error) {
	logPath := l.logFile(component)
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return 0, err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, err
	}
	defer logFile.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	closeInheritedOnExec()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start %s: %w", component, err)
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Release()
	if err := os.WriteFile(pidFile(l, component), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		return 0, err
	}
	if err := os.WriteFile(identityFile(l, component), []byte(identity), 0o644); err != nil {
		return 0, err
	}
	return pid, nil
}

func identityFile(l layout, component string) string { return l.state(component + ".started-with") }

// startedWith reports whether the running component was started with identity (false when started by an
// older devcluster that did not record it).
func startedWith(l layout, component, identity string) bool {
	data, err := os.ReadFile(identityFile(l, component))
	return err == nil && string(data) == identity
}

func pidFile(l layout, component string) string { return l.state(component + ".pid") }

// runningPid returns the recorded pid of component if that process is alive and is the component: its
// executable is named after it, or, for the pod server (the devcluster command itself), it serves HTTP.
func runningPid(l layout, component string) (int, bool) {
	data, err := os.ReadFile(pidFile(l, component))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return 0, false
	}
	if component == podServer {
		if !servesHTTP(pid) {
			return 0, false
		}
	} else {
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if err != nil || filepath.Base(strings.TrimSuffix(exe, " (deleted)")) != binaryOf(component) {
			return 0, false
		}
	}
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && isZombie(stat) {
		return 0, false
	}
	return pid, true
}

// servesHTTP reports whether pid is this program serving HTTP (the pod server). A process caught by the
// first check after its start, between exec's switch to the new program and the kernel's setting of its
// arguments, reads an empty command line: it counts as the pod server when its executable is this program.
func servesHTTP(pid int) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	if len(cmdline) > 0 {
		return bytes.Contains(cmdline, []byte("\x00serve-http\x00"))
	}
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	self, selfErr := os.Executable()
	return err == nil && selfErr == nil && filepath.Base(strings.TrimSuffix(exe, " (deleted)")) == filepath.Base(self)
}

func isZombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// stopProcess sends SIGTERM to component, waits up to timeout, then SIGKILL. It is a no-op if not running.
func stopProcess(l layout, component string, timeout time.Duration) error {
	pid, ok := runningPid(l, component)
	defer os.Remove(pidFile(l, component))
	if !ok {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("stop %s (pid %d): %w", component, pid, err)
	}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if _, alive := runningPid(l, component); !alive {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	return nil
}

// logTail is the end of a log for a one-line error: its last 3 lines, after the first line that reads like
// the cause (a panic, a fatal or error message, a cobra "Error:") when that is further up, as when a
// command prints its usage after the error.
func logTail(path string) string {
	lines := tailLines(path, 1000)
	last := lines[max(0, len(lines)-3):]
	tail := strings.Join(last, " | ")
	for _, line := range lines[:len(lines)-len(last)] {
		if causeLine.MatchString(line) {
			return line + " … " + tail
		}
	}
	if tail == "" {
		return "(no output)"
	}
	return tail
}

// tailLines returns up to n last non-empty lines of a file.
func tailLines(path string, n int) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var lines []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// closeInheritedOnExec marks the descriptors this process inherited beyond stdin, stdout and stderr
// close-on-exec, so that the components it starts, which outlive it, do not hold them. A caller's lock is
// one: `flock LOCK go test ./e2e/` hands its locked descriptor down to every devcluster run of the tests,
// and a component started (or restarted by a fault test) under it would hold the lock until it stops.
func closeInheritedOnExec() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
