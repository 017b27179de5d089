package versions

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/history"
	"kscope/ui"
)

// blameLine is one line of an object's YAML with the managers that own the field it shows. owners is nil
// for a line that no manager owns; a structural line whose own node nobody owns but whose content someone
// does is left unannotated (blank), its lines below saying who.
type blameLine struct {
	text   string
	owners []history.FieldOwner
	blank  bool
}

// blameYAML renders obj as the YAML view does (managedFields hidden, Secret data as reveal says) and
// annotates each line with the owners of its field, from obj's managedFields.
func blameYAML(obj *unstructured.Unstructured, reveal bool) ([]blameLine, error) {
	owners, err := history.FieldOwners(obj)
	if err != nil {
		return nil, err
	}
	text, err := ui.RenderYAML(obj, false, reveal)
	if err != nil {
		return nil, err
	}
	union := history.UnionFields(owners)
	lines, err := mapYAMLLines(text, obj.Object, union)
	if err != nil {
		return nil, err
	}
	out := make([]blameLine, 0, len(lines))
	for i, l := range history.TextLines(text) {
		b := blameLine{text: l}
		if i < len(lines) && len(lines[i].path) > 0 {
			p := lines[i].path
			b.owners = history.OwnedBy(owners, p)
			b.blank = b.owners == nil && lines[i].structural && history.OwnsBelow(union, p)
		} else {
			b.blank = true
		}
		out = append(out, b)
	}
	return out, nil
}
