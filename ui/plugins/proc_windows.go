package plugins

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"syscall"
)

// ownProcessGroup starts cmd in a console process group of its own (a ctrl-c or ctrl-break kscope's
// console gets does not reach it), and makes cancelling its context kill cmd and every process it started
// (what `cmd /c` or `powershell` ran), as the Unix build kills the process group: Windows has no process
// groups to signal, so the tree is ended with `taskkill /T /F`, and cmd alone when taskkill fails. The PID
// cannot name another process meanwhile: cmd's handle, open until Wait returns, keeps it.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
	cmd.Cancel = func() error {
		tree := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)) // output to the null device
		if err := tree.Run(); err != nil {
			return errors.Join(fmt.Errorf("kill plugin %d and its children: %w", cmd.Process.Pid, err), cmd.Process.Kill())
		}
		return nil
	}
}
