package helm

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"kscope/discovery"
	"kscope/watch"
)

// requestTimeout bounds one read of a stored revision.
const requestTimeout = 30 * time.Second

// Resource names the releases table: served by no API (it has neither group, version nor kind), listable and
// watchable as its rows are.
var Resource = discovery.Resource{Version: "", Name: "helm", Namespaced: true, Verbs: []string{"list", "watch"}}

// Columns are the releases table's, with a NAMESPACE column first over all namespaces (as `kubectl get -A`).
// UPDATED is the latest revision's age: when it was deployed (else last written).
func Columns(allNamespaces bool) []watch.Column {
	cols := []watch.Column{
		{Name: "NAME", Type: "string", Format: "name", Description: "The release's name."},
		{Name: "REVISION", Type: "integer", Description: "The latest revision's number."},
		{Name: "STATUS", Type: "string", Description: "Helm's status of the latest revision."},
		{Name: "CHART", Type: "string", Description: "The chart of the latest revision, NAME-VERSION."},
		{Name: "APP VERSION", Type: "string", Description: "The chart's appVersion."},
		{Name: "UPDATED", Type: "date", Description: "When the latest revision was deployed.", Age: true},
	}
	if allNamespaces {
		cols = append([]watch.Column{{Name: "NAMESPACE", Type: "string", Description: "The release's namespace."}}, cols...)
	}
	return cols
}

// releasesState is the table's state from its drivers' sources: listing until both have listed or failed;
// a driver's failure alone (Secrets forbidden, ConfigMaps readable) is a note, both failing the Secrets'
// state; failed counts the releases whose latest revision could not be decoded.
func releasesState(parts []part, states []watch.State, failed int) watch.State {
	st := watch.State{Phase: watch.Synced}
	var notes []string
	bad := 0
	for i, ps := range states {
		switch {
		case ps.Phase == watch.Listing:
			st.Phase = watch.Listing
		case ps.Phase == watch.Reconnecting:
			if st.Phase == watch.Synced {
				st = ps
			}
		case ps.Phase != watch.Synced:
			bad++
			notes = append(notes, fmt.Sprintf("releases stored in %ss not shown: %s", parts[i].driver,
				cmp.Or(ps.Message, ps.Phase.String())))
		}
		if ps.Note != "" {
			notes = append(notes, string(parts[i].driver)+"s: "+ps.Note)
		}
	}
	if bad == len(states) {
		st = states[0]
		notes = notes[1:]
	}
	if failed > 0 {
		notes = append(notes, fmt.Sprintf("%d release(s) could not be decoded", failed))
	}
	st.Note = strings.Join(notes, "; ")
	return st
}
