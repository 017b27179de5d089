// Command screenbench measures kscope, k9s and `kubectl get pods` side by side on one namespace of pods, the
// way a user sees them: each TUI runs in a private tmux server and its screen is read with capture-pane.
//
//	screenbench run --namespace bench-10000 --pods 10000 --kscope bin/kscope --k9s PATH --out FILE.json
//	screenbench report --out FILE.md FILE.json ...
//	screenbench clusters --namespace NS --pods N --contexts admin,second,third --out FILE.json --report FILE.md
//	screenbench views --namespace NS --pods N --devcluster BIN --out FILE.json --report FILE.md
//	screenbench far --namespace NS --pods N --proxy ADDR --control ADDR --audit LOG --out FILE.json --report FILE.md
//
// For each run (interleaved: kscope, k9s, kubectl, then again) it records: launch → the first screen showing
// a pod row (and whether its title said the list was still arriving) and → the complete table (the title's
// count one the server reported, not "listing…"); RSS after 10 s settled (and the peak); idle CPU over 20 s;
// CPU while patchload changes the pods (200 patches/s, 20 s); change → screen latency of patches to visible
// rows under that load; `/` + a pod name + Enter until one row shows; a sort key until the visible order
// flips; a key that sorts by another column (IP) until the visible pods are in the server's IP order. Then
// each tool's launch in all namespaces: first screen, complete table (the cluster's pod count) and RSS
// settled. kubectl: its first row, its exit and its peak RSS. k9s is skipped above --k9s-max-pods.
//
// clusters measures kscope on each of several clusters alone and on all of them in one table (the same
// namespace of N pods in each), interleaved round by round, with the server's floor (clustersreport.go).
//
// views measures kscope's pods table against the server's own list (a whole Table GET, the floor) in each
// state the server can be in (settled, etcd just compacted, the API server just restarted), in the namespace
// and in all namespaces, and kscope's other views of that namespace: the HEALTH column, a pod's tree, custom
// columns and the "all" category (views.go, viewsreport.go).
//
// far measures kscope, k9s, kubectl and the server's floor through the far-link proxy (bench/cmd/farlink) at
// several round-trip times: complete time, bytes each way, connections and requests per launch (far.go).
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: screenbench run|report|clusters|views|far [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = runCommand(os.Args[2:])
	case "report":
		err = reportCommand(os.Args[2:])
	case "clusters":
		err = clustersCommand(os.Args[2:])
	case "views":
		err = viewsCommand(os.Args[2:])
	case "far":
		err = farCommand(os.Args[2:])
	case "helm":
		err = helmCommand(os.Args[2:]) // helm.go: issue 52's Helm releases at scale
	default:
		err = fmt.Errorf("unknown command %q (want run, report, clusters, views or far)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "screenbench: %s\n", err)
		os.Exit(1)
	}
}
