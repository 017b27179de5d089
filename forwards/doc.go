// Package forwards runs the port-forwards a kscope session starts and holds the list of them, drawing
// nothing.
//
// A Forwarder (Start) is one forward that survives its pod: it owns the local listener for its whole life
// and carries each connection to the pod of the moment. It never moves to a pod the user did not choose: it
// records at its start the UIDs of what was chosen, and a forward of a workload goes on only to another ready
// pod that workload owns (a Deployment's through its ReplicaSets), a forward of a service only to a ready pod
// its selector matches while the service is the same (its UID), when its pod goes (deleted, evicted,
// replaced by a rollout); a forward of a pod waits for a pod of that name and resumes only when it is the
// same pod or its controller made it (a StatefulSet's). When what it follows was re-created (a UID changed),
// or a pod without a controller is gone, it ends and says why. The connections in flight on the pod that
// went fail; new ones wait for the next pod. It reports how it stands (forwarding to a pod, reconnecting,
// waiting for a pod, over), what it follows and how many times it moved; it asks the cluster through the
// narrow Cluster interface only, every forward to a pod through cluster.Streams.PortForward (by the pod's
// name and UID), and starts its goroutines through the spawn.Func its owner gives (Request.Go).
//
// A List holds the forwards of a session: where each listens, what it reaches, since when and how it stands,
// with the functions that stop them. Package ui/verbs starts the forwards and records them here; the :pf
// screen (package ui/portforwards) lists them and is told when they change. A List is used on the UI
// goroutine only, as the screens are.
package forwards
