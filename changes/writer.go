package changes

import (
	"bytes"
	"hash/fnv"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// entry is what the model keeps of one managedFields entry: who (manager, operation, subresource, interned),
// when (Unix seconds; 0 when the entry has no time) and a hash of its fieldsV1.
type entry struct {
	who  *owner
	time int64
	hash uint64
}

// owner is one manager, operation and subresource, shared by every entry of it; name is the manager as the
// feed shows it: with its subresource when it wrote one ("kubelet/status", history.FieldOwner.Name).
type owner struct {
	manager, operation, subresource, name string
}

// entriesOf returns the kept form of mf, owners shared through in.
func entriesOf(mf []metav1.ManagedFieldsEntry, in *interner) []entry {
	if len(mf) == 0 {
		return nil
	}
	out := make([]entry, len(mf))
	for i, e := range mf {
		out[i] = entry{who: in.owner(e.Manager, string(e.Operation), e.Subresource)}
		if e.Time != nil {
			out[i].time = e.Time.Unix()
		}
		if e.FieldsV1 != nil {
			h := fnv.New64a()
			_, _ = h.Write(e.FieldsV1.Raw)
			out[i].hash = h.Sum64()
		}
	}
	return out
}

// writer returns the index in cur of the entry that made the version whose entries are cur, from prev
// (the entries of the version before; first: there was none kept), and whether that is sure; -1 when cur
// has no entries. It is history.LastWriter over the kept entries: an entry new or changed since prev wrote,
// unless it kept its time (its fields changed without a write of its own: another manager took some), the
// newest if several did; else a changed one; else (or for the first version) the newest of all.
func writer(prev, cur []entry, first bool) (int, bool) {
	candidates := make([]int, 0, len(cur))
	if !first {
		var changed []int
		for i, e := range cur {
			p, ok := entryOf(prev, e.who)
			switch {
			case ok && p.time == e.time && p.hash == e.hash:
			case ok && p.time == e.time:
				changed = append(changed, i)
			default:
				candidates = append(candidates, i)
			}
		}
		if len(candidates) == 0 {
			candidates = changed
		}
	}
	changedAny := len(candidates) > 0
	if !changedAny {
		for i := range cur {
			candidates = append(candidates, i)
		}
	}
	if len(candidates) == 0 {
		return -1, false
	}
	newest, ties := candidates[0], 0
	for _, i := range candidates[1:] {
		switch {
		case cur[i].time > cur[newest].time:
			newest, ties = i, 0
		case cur[i].time == cur[newest].time:
			ties++
		}
	}
	return newest, ties == 0 && (first || changedAny)
}

// entryOf returns the entry of entries made by who.
func entryOf(entries []entry, who *owner) (entry, bool) {
	for _, e := range entries {
		if e.who == who || *e.who == *who {
			return e, true
		}
	}
	return entry{}, false
}

// topFields returns the top-level fields a fieldsV1 set holds, sorted and joined by ", ": "data", "spec",
// and metadata's one level deeper ("metadata.labels"); "" when raw is empty or not a field set.
func topFields(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	set := &fieldpath.Set{}
	if err := set.FromJSON(bytes.NewReader(raw)); err != nil {
		return ""
	}
	var out []string
	add := func(prefix string, pe fieldpath.PathElement) {
		if prefix == "" && pe.FieldName != nil && *pe.FieldName == "metadata" {
			if child, ok := set.Children.Get(pe); ok && !child.Empty() {
				for p := range child.Members.All() {
					out = append(out, "metadata."+elementName(p))
				}
				for p := range child.Children.All() {
					out = append(out, "metadata."+elementName(p))
				}
				return
			}
		}
		out = append(out, prefix+elementName(pe))
	}
	for pe := range set.Members.All() {
		add("", pe)
	}
	for pe := range set.Children.All() {
		add("", pe)
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), ", ")
}

// elementName is a path element as FIELDS shows it: a field's name, else its string form.
func elementName(pe fieldpath.PathElement) string {
	if pe.FieldName != nil {
		return *pe.FieldName
	}
	return pe.String()
}
