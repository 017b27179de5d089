package forwards

import (
	"fmt"
	"time"
)

// Phase is where a forward stands.
type Phase int

const (
	// Forwarding: connections go to a pod.
	Forwarding Phase = iota + 1
	// Reconnecting: a forward of a service or a workload lost its pod and looks for another ready one.
	Reconnecting
	// Waiting: a forward of a pod lost it and waits for a pod of that name to run (its controller's, a
	// StatefulSet's).
	Waiting
	// Over: the forward ended (stopped, or for a reason that trying again does not change).
	Over
)

// Status is how a forward stands. A plain value.
type Status struct {
	Phase Phase
	// Pod is the pod forwarded to (Forwarding) or waited for (Waiting); Port its port (Forwarding).
	Pod  string
	Port int
	// Since is when the forward lost its pod (Reconnecting, Waiting).
	Since time.Time
	// Why is why it lost its pod, then why the last attempt to reach one failed (Reconnecting, Waiting), or
	// why it ended (Over; "" when it was stopped).
	Why string
	// Moves counts the times it went on to another pod than the one before.
	Moves int
	// Follows is what the forward follows for its whole life, as the FOLLOWS column of :pf says it ("pods of
	// deployment web (uid 3f2a9c1e…)"); see Forwarder.
	Follows string
}

// String says how the forward stands, as the STATE column of :pf: "forwarding to web-1:8080", "reconnecting
// since 12:00:01 (pod shop/web-0 was deleted)", "waiting for pod web-0 since 12:00:01 (…)", "ended: …"; "active" before the
// forward reported.
func (s Status) String() string {
	why := ""
	if s.Why != "" {
		why = " (" + s.Why + ")"
	}
	switch s.Phase {
	case Forwarding:
		return fmt.Sprintf("forwarding to %s:%d", s.Pod, s.Port)
	case Reconnecting:
		return "reconnecting since " + s.Since.Format("15:04:05") + why
	case Waiting:
		return "waiting for pod " + s.Pod + " since " + s.Since.Format("15:04:05") + why
	case Over:
		if s.Why == "" {
			return "stopped"
		}
		return "ended: " + s.Why
	}
	return "active"
}
