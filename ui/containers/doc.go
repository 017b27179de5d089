// Package containers is the containers screen (Enter on a pod): the pod's init, sidecar, regular and
// ephemeral containers with their image, readiness, state, restarts, ports and probes, following the pod
// live (a watch of the one object); l, p, s and shift-f act on the selected container (its logs, its
// previous logs, a shell in it, a port-forward to its ports), the keys ui hands it (ui.ContainerView). It
// implements ui.Screen, asks only ui.Navigator and what its constructor is given, and is registered in
// ui.Options.Registered (Spec: it plays ui.Roles.Containers). UI goroutine only, but for the watch, which runs on a
// goroutine of its own. Rows is its pure part: a pod's containers as rows.
package containers
