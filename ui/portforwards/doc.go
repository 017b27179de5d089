// Package portforwards is the :pf screen: the port-forwards started in this session (package forwards
// holds them), with where each listens, what it reaches, since when, how it stands (the pod it forwards to,
// or reconnecting, or waiting for its pod, or why it ended), how many times it moved to another pod and what
// it follows (the pod, workload or service chosen, by UID); ctrl-d stops one after asking. It implements
// ui.Screen, asks only ui.Navigator, and declares itself in Spec (its command and its keys), which the program
// registers in ui.Options.Registered. UI goroutine only.
package portforwards
