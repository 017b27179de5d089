// Package cli holds kscope's commands: the terminal UI (the root command, `kscope [RESOURCE
// [@CONTEXT[,@CONTEXT…]]]`), `kscope version`, `kscope api-resources` and `kscope info`, each as kubectl's
// pkg/cmd/get: a cobra command over an options struct whose Complete takes the arguments and the files,
// Validate refuses what cannot run, and Run does the work. main.go only hands it the command line, the
// process's streams and the version stamp (Main).
//
// The rest of the package is what the commands need at start and at the end of a session: the settings of
// the configuration files and the state file (where the last session ended) applied under the flags, the
// kubeconfig's contexts, the children's kubeconfig and read-only proxies of read-only mode, the signals that
// end the UI, and the profiles (--cpuprofile, --memprofile, --trace) of a run.
//
// It wires the packages that do the work: it may import kube, discovery, config, columns, watch, cluster,
// spawn, apierr, ui and the screens under ui/. None of them imports cli; only the program (main.go) does.
package cli
