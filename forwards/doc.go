// Package forwards runs the port-forwards a kscope session starts and holds the list of them, drawing
// nothing.
//
// A Forwarder (Start) is one forward that survives its pod: it owns the local listener for its whole life
// and carries each connection to the pod of the moment. A forward of a service or a workload goes on to
// another ready pod of its selector when its pod goes (deleted, evicted, replaced by a rollout); a forward
// of a pod waits for a pod of that name (a StatefulSet's) and resumes. The connections in flight on the pod
// that went fail; new ones wait for the next pod. It reports how it stands (forwarding to a pod,
// reconnecting, waiting for a pod, over) and how many times it moved; it asks the cluster through the
// narrow Cluster interface only, every forward to a pod through cluster.Streams.PortForward.
//
// A List holds the forwards of a session: where each listens, what it reaches, since when and how it stands,
// with the functions that stop them. Package ui/verbs starts the forwards and records them here; the :pf
// screen (package ui/portforwards) lists them and is told when they change. A List is used on the UI
// goroutine only, as the screens are.
package forwards
