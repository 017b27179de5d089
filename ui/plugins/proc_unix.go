//go:build unix

package plugins

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup starts cmd in a process group of its own, and makes cancelling its context kill the
// whole group (what a plugin's shell started too), not only cmd.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
