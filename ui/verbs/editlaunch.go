package verbs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/kubectl/pkg/cmd/util/editor"
)

// editFunc is the editor `e` runs: the Host's, else kubectl's editor as a child of kscope (ChildEditor).
func (v *Verbs) editFunc() EditFunc {
	if edit := v.Editor(); edit != nil {
		return edit
	}
	return ChildEditor(v)
}

// ChildEditor is kubectl's editor ($KUBE_EDITOR, else $EDITOR, else vi, chosen and split as kubectl edit
// does, by kubectl's editor package) on a temporary .yaml file, started with h's Command: the editor and
// what it runs get the kubeconfig kscope gives its children (in read-only mode its read-only one), which
// kubectl's own launcher, inheriting kscope's environment, would not give them. The func it returns runs
// on the UI goroutine, the TUI suspended.
func ChildEditor(h Host) EditFunc {
	return func(content []byte) ([]byte, string, error) { return childEditor(h, content) }
}

func childEditor(h Host, content []byte) ([]byte, string, error) {
	f, err := os.CreateTemp("", "kscope-edit-*.yaml")
	if err != nil {
		return nil, "", err
	}
	path := f.Name()
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, path, err
	}
	if err := launchEditor(h, editor.NewDefaultEditor([]string{"KUBE_EDITOR", "EDITOR"}), path); err != nil {
		return nil, path, err
	}
	edited, err := os.ReadFile(path)
	return edited, path, err
}

// launchEditor runs e on path with the terminal, as kubectl's Editor.Launch does (a shell command line gets
// the path quoted at its end), but started with the Host's Command (its environment).
func launchEditor(h Host, e editor.Editor, path string) error {
	if len(e.Args) == 0 {
		return fmt.Errorf("no editor defined, can't open %s", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	args := slices.Clone(e.Args)
	if e.Shell {
		args[len(args)-1] = fmt.Sprintf("%s %q", args[len(args)-1], abs)
	} else {
		args = append(args, abs)
	}
	cmd := h.Command(nil, args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("unable to launch the editor %q", strings.Join(e.Args, " "))
		}
		return fmt.Errorf("there was a problem with the editor %q", strings.Join(e.Args, " "))
	}
	return nil
}
