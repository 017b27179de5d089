package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/apierr"
	"kscope/kube"
)

// Main runs kscope with args (the command line without the program's name), prints an error as one line on
// streams.ErrOut, and returns the process's exit code: 0, 1 for an error, 2 after a panic the UI recovered,
// 128+N after signal N ended the UI. version is what `kscope version` and the UI print as kscope's own.
//
// Main changes process-wide state while the UI runs (signal handlers, klog's logger, GOGC, standard error):
// a process runs one Main at a time, and Main blocks until the command ends.
func Main(args []string, streams genericiooptions.IOStreams, version string) int {
	cmd := newRootCommand(streams, version)
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		printError(streams.ErrOut, err)
		return exitCode(err)
	}
	return 0
}

// newRootCommand builds the kscope command tree with kubectl's connection flags.
func newRootCommand(streams genericiooptions.IOStreams, version string) *cobra.Command {
	flags := kube.NewConfigFlags()
	root := &cobra.Command{
		Use:           "kscope",
		Short:         "kscope explores any Kubernetes resource, live, in the terminal",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	flags.AddFlags(root.PersistentFlags())
	addTUI(root, flags, streams, version)
	root.AddCommand(newVersionCommand(flags, streams, version))
	root.AddCommand(newAPIResourcesCommand(flags, streams))
	root.AddCommand(newInfoCommand(flags, streams))
	addProfiling(root)
	return root
}

// exitError carries a specific process exit code with its error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func exitCode(err error) int {
	if e, ok := err.(*exitError); ok {
		return e.code
	}
	return 1
}

func printError(w io.Writer, err error) {
	fmt.Fprintf(w, "error: %s\n", apierr.OneLine(err.Error()))
}
