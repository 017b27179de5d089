// Package kube is kscope's adapter to a real cluster: the kubectl connection flags it starts from
// (NewConfigFlags, ContextFlags), Connect, which turns them into a Cluster (the cluster.Interface the terminal
// UI runs on: kubeconfig and server identity, the discovery catalog with its live refresh, row sources, object
// reads and deletes), and the wording of connection and server errors as kscope prints them, one line a user
// can act on.
//
// The pod-resources reader behind the %CPU/R %CPU/L %MEM/R %MEM/L columns (podresources*.go) is client-go's
// reflector (with kscope's reconnect backoff) over a ListWatch of its own, into a thread-safe store: it reads
// the protobuf PodList and watch stream through kubeproto and keeps a 129-byte record of each pod (its key,
// resourceVersion and four sums), never a Pod.
//
// The commands (package cli) use it; ui, watch and discovery never import it, and it never imports ui:
// what it implements is declared in package cluster.
package kube
