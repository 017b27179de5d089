package ui

import "kscope/ui/verbs"

// marked are the table's marked rows the object verbs act on (delete, kill, scale, restart), each with its
// own resource (its kind in a table of several); nil when none is marked.
func (h *tableHost) marked() []verbs.Target {
	rows := h.t.Marked()
	if len(rows) == 0 {
		return nil
	}
	targets := make([]verbs.Target, len(rows))
	for i, row := range rows {
		res, own := h.t.RowKind(row)
		targets[i] = verbs.Target{Res: res, Row: own}
	}
	return targets
}
