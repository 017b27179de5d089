package verbs

import (
	"fmt"
	"strings"

	"kscope/cluster"
)

// drainProgress counts a drain's evictions for the prompt line. UI goroutine only.
type drainProgress struct {
	node    string
	planned int
	// started and gone count evictions begun and pods gone; failed are the pods whose eviction failed.
	started, gone int
	current       string
	failed        []string
}

// add counts ev.
func (p *drainProgress) add(ev cluster.DrainEvent) {
	switch {
	case !ev.Done:
		p.started++
		p.current = ev.Pod
	case ev.Err != nil:
		p.failed = append(p.failed, fmt.Sprintf("%s (%s)", ev.Pod, ev.Err))
	default:
		p.gone++
	}
}

// String is the line shown while the drain runs.
func (p *drainProgress) String() string {
	s := fmt.Sprintf("draining node %s: %d of %d pods evicted", p.node, p.gone, max(p.planned, p.started))
	if p.current != "" {
		s += ", evicting " + p.current
	}
	return s + " …"
}

// result is the line shown when the drain returned err.
func (p *drainProgress) result(err error) string {
	var b strings.Builder
	switch {
	case err != nil:
		fmt.Fprintf(&b, "drain node %s: %s; %d pods evicted", p.node, err, p.gone)
	case len(p.failed) > 0:
		fmt.Fprintf(&b, "drain node %s: %d pods evicted", p.node, p.gone)
	default:
		fmt.Fprintf(&b, "drained node %s: cordoned, %d pods evicted", p.node, p.gone)
	}
	if len(p.failed) > 0 {
		fmt.Fprintf(&b, "; failed: %s", strings.Join(p.failed, ", "))
	}
	return b.String()
}
