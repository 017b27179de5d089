package union

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"kscope/discovery"
	"kscope/watch"
)

// KindLabel is the KIND cell of a resource's rows in a table of several kinds: the kind and group in lower
// case, as `kubectl get all` prefixes its names ("deployment.apps", "pod", "job.batch").
func KindLabel(r discovery.Resource) string {
	if r.Group == "" {
		return strings.ToLower(r.Kind)
	}
	return strings.ToLower(r.Kind) + "." + r.Group
}

// kindLayout is how the rows of several kinds share one table: a KIND column first, then the kinds' own
// server columns when every kind whose columns are known has the same ones (names, wide or not, in the same
// order), else NAME, NAMESPACE (when the table spans several namespaces) and AGE. A plain value.
type kindLayout struct {
	// columns are the table's columns, KIND first; nil while no kind's columns are known.
	columns []watch.Column
	// shared tells whether the kinds' own columns are kept.
	shared bool
	// namespace tells whether the fallback columns have a NAMESPACE column.
	namespace bool
	// age is, per kind, the index of its Age cell (-1: none), for the fallback's AGE cell.
	age []int
}

// Column definitions of the fallback layout.
var (
	kindColumn      = watch.Column{Name: "KIND", Type: "string", Description: "The object's kind and API group."}
	kindNameColumn  = watch.Column{Name: "NAME", Type: "string", Format: "name", Description: "The object's name."}
	kindNSColumn    = watch.Column{Name: "NAMESPACE", Type: "string", Description: "The object's namespace."}
	kindAgeColumn   = watch.Column{Name: "AGE", Type: "date", Description: "The object's age.", Age: true}
	emptyKindLayout = kindLayout{}
)

// layoutKinds returns the layout for kinds whose columns are cols (nil: not known yet); namespaces tells
// whether the table spans several namespaces.
func layoutKinds(cols [][]watch.Column, namespaces bool) kindLayout {
	var first []watch.Column
	shared := true
	l := kindLayout{age: make([]int, len(cols))}
	for i, c := range cols {
		l.age[i] = AgeIndex(c)
		switch {
		case len(c) == 0:
		case first == nil:
			first = c
		case !sameColumns(first, c):
			shared = false
		}
	}
	if first == nil {
		return emptyKindLayout
	}
	l.shared = shared
	if shared {
		l.columns = append([]watch.Column{kindColumn}, first...)
		return l
	}
	l.namespace = namespaces
	l.columns = []watch.Column{kindColumn, kindNameColumn, kindAgeColumn}
	if namespaces {
		l.columns = []watch.Column{kindColumn, kindNSColumn, kindNameColumn, kindAgeColumn}
	}
	return l
}

// sameColumns tells whether a and b show the same columns: names (whatever their case) and wideness, in order.
func sameColumns(a, b []watch.Column) bool {
	return slices.EqualFunc(a, b, func(x, y watch.Column) bool {
		return strings.EqualFold(x.Name, y.Name) && (x.Priority > 0) == (y.Priority > 0)
	})
}

// equal tells whether l and o lay rows out the same way.
func (l kindLayout) equal(o kindLayout) bool {
	return l.shared == o.shared && l.namespace == o.namespace && slices.Equal(l.age, o.age) &&
		slices.Equal(l.columns, o.columns)
}

// row returns r, a row of kind i labelled label, as the table shows it: keyed "label/key" (unique across the
// kinds), its cells laid out by l.
func (l kindLayout) row(i int, label string, r *watch.Row) *watch.Row {
	var c *watch.Row
	switch ageCell := l.age[i]; {
	case l.shared:
		if ageCell >= 0 {
			ageCell++
		}
		c = r.WithCells(append(append(make([]string, 0, len(r.Cells)+1), label), r.Cells...), ageCell)
	default:
		age := ""
		if ageCell >= 0 && ageCell < len(r.Cells) {
			age = r.Cells[ageCell]
		}
		cells := []string{label, r.Name, age}
		if l.namespace {
			cells = []string{label, r.Namespace, r.Name, age}
		}
		c = r.WithCells(cells, len(cells)-1)
	}
	c.Key = label + "/" + r.Key
	return c
}

// kindsState is the state of a table of several kinds, from each kind's (labels name them): the first
// failing kind's state with its label before its message, the others that failed or have not synced named
// in the note; else the first kind's phase that is not Synced, the kinds still at it named in the note; else
// Synced, with the kinds' own notes.
func kindsState(labels []string, states []watch.State) watch.State {
	union := watch.State{Phase: watch.Synced}
	failed := -1
	var others, notes []string
	for i, st := range states {
		switch {
		case st.Err != nil || st.Message != "":
			if failed < 0 {
				failed = i
			} else {
				others = append(others, labels[i]+" "+st.Phase.String())
			}
		case st.Phase != watch.Synced:
			if union.Phase == watch.Synced {
				union.Phase = st.Phase
			}
			others = append(others, labels[i]+" "+st.Phase.String())
		}
		if st.Note != "" {
			notes = append(notes, labels[i]+": "+st.Note)
		}
	}
	if failed >= 0 {
		st := states[failed]
		union = st
		union.Expected = 0
		union.Message = labels[failed] + ": " + cmp.Or(st.Message, fmt.Sprint(st.Err))
	}
	if len(others) > 0 {
		notes = append([]string{"also " + strings.Join(others, ", ")}, notes...)
		if failed < 0 {
			notes[0] = strings.Join(others, ", ")
		}
	}
	union.Note = strings.Join(notes, "; ")
	return union
}
