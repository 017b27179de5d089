package helm

import (
	"cmp"
	"slices"
)

// Latest returns the latest revision (the highest number) of each release among revs, ordered by namespace
// then name. revs is not modified.
func Latest(revs []Revision) []Revision {
	latest := map[string]Revision{}
	for _, r := range revs {
		if cur, ok := latest[r.Key()]; !ok || newer(r, cur) {
			latest[r.Key()] = r
		}
	}
	out := make([]Revision, 0, len(latest))
	for _, r := range latest {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Revision) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Release, b.Release))
	})
	return out
}

// newer tells whether a is a later revision than b of the same release. A release stored twice at one number
// (by both drivers) keeps the Secret, Helm's default.
func newer(a, b Revision) bool {
	if a.Number != b.Number {
		return a.Number > b.Number
	}
	return rank(a) > rank(b)
}

// rank orders the drivers of one revision stored twice: the Secret last (it wins).
func rank(r Revision) int {
	if r.Driver == Secrets {
		return 1
	}
	return 0
}

// History returns the revisions of the release key ("namespace/name") among revs, oldest first. revs is not
// modified.
func History(revs []Revision, key string) []Revision {
	var out []Revision
	for _, r := range revs {
		if r.Key() == key {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Revision) int {
		return cmp.Or(cmp.Compare(a.Number, b.Number), cmp.Compare(rank(a), rank(b)))
	})
	return out
}
