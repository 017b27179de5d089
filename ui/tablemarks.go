package ui

import (
	"fmt"

	"kscope/ui/verbs"
)

// marked are the table's marked rows the object verbs act on (delete, kill, scale, restart), each with its
// own resource (its kind in a table of several); nil when none is marked. In a table of several clusters,
// a cluster's host acts on its own cluster's marked rows only, and says how many of the others it leaves.
func (h *tableHost) marked() []verbs.Target {
	rows := h.t.Marked()
	if len(rows) == 0 {
		return nil
	}
	cr, several := h.t.Source().(clusterRows)
	targets := make([]verbs.Target, 0, len(rows))
	others := 0
	for _, row := range rows {
		if several {
			if c, _, ok := cr.ClusterOf(row); !ok || c != h.cluster {
				others++
				continue
			}
		}
		res, own := h.t.RowKind(row)
		targets = append(targets, verbs.Target{Res: res, Row: own})
	}
	if others > 0 {
		h.Message(fmt.Sprintf("context %s: its %d marked rows; %d marked rows of other contexts are left (marks act on one cluster at a time)",
			h.cluster.Info().Context, len(targets), others))
	}
	if len(targets) == 0 {
		return nil
	}
	return targets
}
