// Command kscope is a terminal explorer for Kubernetes: every resource, live, exact, fast.
//
// main.go holds flags and wiring only; the work lives in kube/, discovery/, watch/ and ui/.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/apierr"
	"kscope/kube"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(run(os.Args[1:], streams))
}

// run executes kscope with args and returns the process exit code. Errors are printed as one line on ErrOut.
func run(args []string, streams genericiooptions.IOStreams) int {
	cmd := newRootCommand(streams)
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		printError(streams.ErrOut, err)
		return exitCode(err)
	}
	return 0
}

// newRootCommand builds the kscope command tree with kubectl's connection flags.
func newRootCommand(streams genericiooptions.IOStreams) *cobra.Command {
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
	addTUI(root, flags, streams)
	root.AddCommand(newVersionCommand(flags, streams))
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
