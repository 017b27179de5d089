// Command kscope is a terminal explorer for Kubernetes: every resource, live, exact, fast.
//
// main.go wires the process to package cli, which holds the commands; the work lives in kube/, discovery/,
// watch/ and ui/.
package main

import (
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(cli.Main(os.Args[1:], streams, version))
}
