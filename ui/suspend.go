package ui

import (
	"os"
	"os/exec"
)

// StderrHandover is kscope's capture of its standard error as suspend needs it: Pause points file descriptor
// 2 at the terminal again, Resume captures it again. Both are safe for any goroutine.
type StderrHandover interface {
	Pause() error
	Resume() error
}

// suspend gives the terminal to fn (a foreground plugin, a shell, an editor) and takes it back when fn
// returns; false when there is no screen to suspend (tests). Every child that needs the terminal runs
// through here, so what must change around such a child changes in one place: its standard error is the
// terminal's, not kscope's capture (Options.Stderr), while it runs. UI goroutine only.
//
// While it runs, a signal that ends kscope (Signal) cancels the session's work and the UI stops when fn
// returns; a child that is not watching the session's context is waited for.
func (t *terminal) suspend(fn func()) bool {
	if !t.enterChild() {
		return true // interrupted: the child does not start, the UI is stopping
	}
	defer t.leaveChild()
	return t.tv.Suspend(func() {
		if h := t.stderr; h != nil {
			if err := h.Pause(); err != nil {
				t.notice(err.Error())
			}
			defer func() {
				if err := h.Resume(); err != nil {
					t.notice(err.Error())
				}
			}()
		}
		fn()
	})
}

// childKubeconfig is a connection whose children have a kubeconfig of their own (a member cluster's in
// read-only mode: its own read-only proxy); ChildKubeconfig is its path.
type childKubeconfig interface{ ChildKubeconfig() string }

// childEnv is the environment of a process kscope starts (plugin, editor) on a's cluster: kscope's own, with
// KUBECONFIG set to the kubeconfig children of that cluster get (childKubeconfig) when there is one, and
// vars added (but a KUBECONFIG among them, which never replaces that one). Values are passed as data:
// nothing here is parsed by a shell. Safe for any goroutine.
func (a *App) childEnv(vars map[string]string) []string {
	env := os.Environ()
	kubeconfig := a.childKubeconfig()
	if kubeconfig != "" {
		env = append(env, "KUBECONFIG="+kubeconfig)
	}
	for k, v := range vars {
		if k == "KUBECONFIG" && kubeconfig != "" {
			continue // this App's cluster's, never another's a variable would carry
		}
		env = append(env, k+"="+v)
	}
	return env
}

// childKubeconfig is the kubeconfig of the children acting on a's cluster: the connection's own (a member's
// in read-only mode: its read-only proxy), else Options.Kubeconfig ("" for kscope's own environment's).
// Safe for any goroutine.
func (a *App) childKubeconfig() string {
	if own, ok := a.cluster.(childKubeconfig); ok && own.ChildKubeconfig() != "" {
		return own.ChildKubeconfig()
	}
	return a.opts.Kubeconfig
}

// childCommand is exec.Command with childEnv(vars) as its environment.
func (a *App) childCommand(vars map[string]string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = a.childEnv(vars)
	return cmd
}
