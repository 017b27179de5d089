// Package cluster is what kscope's screens ask of a Kubernetes cluster: the port between the terminal UI
// (package ui, which asks) and the adapter to a real API server (package kube, which answers), so that
// neither imports the other. It holds interfaces and plain request and answer values only, no behaviour.
//
// Interface is one connection to an API server. It is split by role, in client-go's style, so that a piece
// of the UI (or a test double) can name only what it uses:
//
//   - Objects: read and write one object (get, describe, update, delete, scale, restart) and find the pod a
//     shell or a port-forward reaches.
//   - Streams: a container's log, a command run in a container, a local port forwarded to a pod.
//   - Metrics: metrics.k8s.io's usage of pods and nodes, and the live requests and limits of pods.
//   - Workloads: trigger and suspend a cronjob, set a container's image, kill a pod.
//   - Rollouts: the revisions of a deployment, statefulset or daemonset and the undo to one (kubectl rollout
//     history and undo).
//   - Nodes: cordon, uncordon and drain a node (kubectl's semantics).
//   - Applier: server-side apply of an object, dry run or not (kubectl apply --server-side).
//   - Access: whether the user may make a request (SelfSubjectAccessReview).
//   - Sources: live rows for a table, one object's latest state, the metadata a relationship tree is drawn
//     from.
//
// Interface adds Info (what the header shows), Catalog (the API resources) and Close. Every implementation
// is safe for concurrent use; each role says how long its methods block.
//
// A RowSource may have optional capabilities, which the UI discovers by type assertion: Settler (it says
// when it has finished opening), Pulser (its informer's figures) and Versioner (the versions of its rows).
// *watch.Source has all three.
package cluster
