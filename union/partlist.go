package union

import (
	"kscope/cluster"
	"kscope/watch"
)

// partList is a part's whole list as the union's rows, taken by takeList.
type partList struct {
	rows   []*watch.Row    // each of the part's rows, laid out as the union's
	now    map[string]bool // their keys
	gone   []string        // the keys the union held for the part that the list no longer has
	synced bool            // the part had synced when the list was taken
}

// takeList takes part's whole list, each row laid out by row, against before: the union's keys of the part's
// rows so far. The sync state is read before the snapshot: a first list that ends in between is in the
// snapshot only if it had ended before, and the rest of its rows come as no change to apply later, so a part
// is never taken as loaded with only the pages it had (`:all` over 50k pods stopped at 30,250 rows).
func takeList(part cluster.RowSource, row func(*watch.Row) *watch.Row, before map[string]bool) partList {
	synced := part.State().Phase == watch.Synced
	snap := part.Snapshot(watch.Query{SortColumn: -1})
	l := partList{now: make(map[string]bool, len(snap.Rows)), rows: make([]*watch.Row, 0, len(snap.Rows)), synced: synced}
	for _, r := range snap.Rows {
		u := row(r)
		l.now[u.Key] = true
		l.rows = append(l.rows, u)
	}
	for k := range before {
		if !l.now[k] {
			l.gone = append(l.gone, k)
		}
	}
	return l
}
