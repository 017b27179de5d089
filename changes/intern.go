package changes

import "kscope/history"

// interner shares the strings and owners the model keeps many times (namespaces, managers, field lists),
// up to internLimit of each. Not safe for concurrent use: the model's lock guards it.
type interner struct {
	strs   map[string]string
	owners map[[3]string]*owner
}

func newInterner() interner {
	return interner{strs: map[string]string{}, owners: map[[3]string]*owner{}}
}

// str returns the shared copy of s.
func (in *interner) str(s string) string {
	if v, ok := in.strs[s]; ok {
		return v
	}
	if len(in.strs) < internLimit {
		in.strs[s] = s
	}
	return s
}

// owner returns the shared owner of manager, operation and subresource; past internLimit owners, a new one
// that no other entry shares (an entry then never matches its previous version: its change is attributed
// as for a new entry).
func (in *interner) owner(manager, operation, subresource string) *owner {
	k := [3]string{manager, operation, subresource}
	if o, ok := in.owners[k]; ok {
		return o
	}
	o := &owner{manager: manager, operation: operation, subresource: subresource,
		name: history.FieldOwner{Manager: manager, Subresource: subresource}.Name()}
	if len(in.owners) < internLimit {
		in.owners[k] = o
	}
	return o
}
