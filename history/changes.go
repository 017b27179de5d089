package history

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"
)

// LastWriter returns the managedFields entry that made the version whose entries are cur, from prev (the
// entries of the version before it; nil for the first version seen). The server stamps an entry's time when
// a write by that manager changes the object, and changes its fields when the write takes or gives up
// fields: so the writer is the entry that is new or changed since prev, the newest if several are (writes
// between the two versions kscope did not see). An entry that only lost fields, at its old time, did not
// write: another manager took those fields from it (kubectl patch of a field kubectl create set, both within
// one second); it is a candidate only when no entry wrote. Where none changed (two writes by one manager within the
// same second: times are to the second), or for the first version, it is the newest entry, and sure is
// false when another entry is as new. ok is false when cur has no entries.
func LastWriter(prev, cur []FieldOwner, first bool) (w FieldOwner, sure, ok bool) {
	candidates := cur
	if !first {
		var changed, wrote []FieldOwner
		for _, o := range cur {
			if hasEntry(prev, o) {
				continue
			}
			changed = append(changed, o)
			if !onlyLostFields(prev, o) {
				wrote = append(wrote, o)
			}
		}
		switch {
		case len(wrote) > 0:
			candidates = wrote
		case len(changed) > 0:
			candidates = changed
		}
	}
	if len(candidates) == 0 {
		return FieldOwner{}, false, false
	}
	newest, ties := candidates[0], 0
	for _, o := range candidates[1:] {
		switch {
		case o.Time.After(newest.Time):
			newest, ties = o, 0
		case o.Time.Equal(newest.Time):
			ties++
		}
	}
	return newest, ties == 0 && (first || !hasEntry(prev, newest)), true
}

// onlyLostFields tells whether entries hold o's entry at the same time with fields that include all of o's:
// o's manager did not write, it gave fields up.
func onlyLostFields(entries []FieldOwner, o FieldOwner) bool {
	p, ok := entryOf(entries, o)
	return ok && p.Time.Equal(o.Time) && p.Fields != nil && o.Fields != nil && o.Fields.Difference(p.Fields).Empty()
}

// hasEntry tells whether entries hold o unchanged (same time and fields).
func hasEntry(entries []FieldOwner, o FieldOwner) bool {
	p, ok := entryOf(entries, o)
	return ok && p.Time.Equal(o.Time) && p.raw == o.raw
}

// entryOf returns the entry of entries that is o's (same manager, operation and subresource; see Same).
func entryOf(entries []FieldOwner, o FieldOwner) (FieldOwner, bool) {
	for _, p := range entries {
		if p.Same(o) {
			return p, true
		}
	}
	return FieldOwner{}, false
}

// ignoredPaths are the fields every write changes; a summary of what changed leaves them out.
var ignoredPaths = map[string]bool{"metadata.resourceVersion": true, "metadata.managedFields": true}

// ChangedPaths returns the fields that differ from a to b, sorted: "path" for a changed value, "+path" for
// an added field, "-path" for a removed one. Lists of maps that all have a name are compared item by name
// (path[name=…]), other lists of the same length item by item (path[i]), other lists whole.
func ChangedPaths(a, b map[string]any) []string {
	var out []string
	diffValues("", a, b, &out)
	sort.Slice(out, func(i, j int) bool { return strings.TrimLeft(out[i], "+-") < strings.TrimLeft(out[j], "+-") })
	return out
}

func diffValues(path string, a, b any, out *[]string) {
	if ignoredPaths[path] || reflect.DeepEqual(a, b) {
		return
	}
	switch {
	case a == nil:
		*out = append(*out, "+"+path)
		return
	case b == nil:
		*out = append(*out, "-"+path)
		return
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for k := range keys {
			diffValues(joinPath(path, k), am[k], bm[k], out)
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok {
		if an, bn := byName(al), byName(bl); an != nil && bn != nil {
			names := map[string]bool{}
			for k := range an {
				names[k] = true
			}
			for k := range bn {
				names[k] = true
			}
			for k := range names {
				diffValues(fmt.Sprintf("%s[name=%s]", path, k), an[k], bn[k], out)
			}
			return
		}
		if len(al) == len(bl) {
			for i := range al {
				diffValues(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i], out)
			}
			return
		}
	}
	*out = append(*out, path)
}

// joinPath appends a field name to a dotted path.
func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// byName returns the items of list by their name, or nil unless every item is a map with a distinct string
// name.
func byName(list []any) map[string]any {
	out := make(map[string]any, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil
		}
		name, ok := m["name"].(string)
		if _, dup := out[name]; !ok || dup {
			return nil
		}
		out[name] = item
	}
	return out
}

// Summarize joins paths into one line of at most width characters, saying how many more there are.
func Summarize(paths []string, width int) string {
	var b strings.Builder
	n := 0 // runes written
	for i, p := range paths {
		more := ""
		if rest := len(paths) - i - 1; rest > 0 {
			more = fmt.Sprintf(" +%d more", rest)
		}
		sep := ""
		if i > 0 {
			sep = ", "
		}
		if n > 0 && n+utf8.RuneCountInString(sep+p+more) > width {
			fmt.Fprintf(&b, " +%d more", len(paths)-i)
			break
		}
		b.WriteString(sep + p)
		n += utf8.RuneCountInString(sep + p)
	}
	return b.String()
}
