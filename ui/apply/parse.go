package apply

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	pathvalidation "k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"kscope/apierr"
	"kscope/discovery"
)

// Item is one object to apply: where it was written (its source, the document's number there, from 1, and
// for an object of a list its number in the list's items, from 1, else 0), its resource and the object as it
// will be sent (its namespace set).
type Item struct {
	Source string
	Index  int
	Item   int
	Res    discovery.Resource
	GVR    schema.GroupVersionResource
	Obj    *unstructured.Unstructured
}

// What names the item's object as the messages do: "configmaps shop/web" ("nodes kwok-0" cluster-scoped).
func (it Item) What() string {
	if ns := it.Obj.GetNamespace(); ns != "" {
		return it.GVR.Resource + " " + ns + "/" + it.Obj.GetName()
	}
	return it.GVR.Resource + " " + it.Obj.GetName()
}

// Where names the item's place as the messages do: "f.yaml: document 2", "document 1, item 3".
func (it Item) Where() string { return place(it.Source, it.Index, it.Item) }

// place is where an object was written: source (none for the editor's text), the document's number, and
// its number among a list's items (0: not in a list).
func place(source string, index, item int) string {
	where := fmt.Sprintf("document %d", index)
	if item > 0 {
		where += fmt.Sprintf(", item %d", item)
	}
	if source != "" {
		where = source + ": " + where
	}
	return where
}

// Items reads every document of srcs as the objects to apply, in order: each must parse (YAML, --- between
// documents, or JSON) and be an object, or a list of them (kind List or FooList with an items array, which
// kubectl apply flattens too). Each object must name apiVersion, kind and metadata.name, be of a kind one of
// resources serves (its group and kind; the document's version is the one sent), and not repeat an object
// before it. A namespaced object without a namespace gets namespace (the view's); a cluster-scoped one loses
// its. Empty documents are skipped and not counted. The error is the first object that cannot be applied,
// one line ("FILE: document 3: …", "document 1, item 2: …", and how many more there are): then nothing is to
// be applied.
func Items(srcs []Source, resources []discovery.Resource, namespace string) ([]Item, error) {
	r := reading{resources: resources, namespace: namespace, seen: map[string]string{}}
	for _, src := range srcs {
		for i, doc := range Documents(src.Data) {
			for _, o := range flatten(doc) {
				r.read(src.Name, i+1, o)
			}
		}
	}
	switch {
	case len(r.errs) == 1:
		return nil, r.errs[0]
	case len(r.errs) > 1:
		return nil, fmt.Errorf("%w (and %d more)", r.errs[0], len(r.errs)-1)
	case len(r.items) == 0:
		return nil, errors.New("no object in it")
	}
	return r.items, nil
}

// reading is Items under way: the objects read so far, the errors, and where each object was first seen.
type reading struct {
	resources []discovery.Resource
	namespace string
	items     []Item
	errs      []error
	seen      map[string]string // "group/resource ns/name" → its place
}

// read checks o, the index-th document of source (or one of its list's items), and keeps it as an item or
// its error.
func (r *reading) read(source string, index int, o listed) {
	here := place(source, index, o.item)
	it, err := Item{}, o.err
	if err == nil {
		it, err = item(o.obj, r.resources, r.namespace)
	}
	if err == nil {
		key := it.GVR.GroupResource().String() + " " + it.Obj.GetNamespace() + "/" + it.Obj.GetName()
		if before, ok := r.seen[key]; ok {
			err = fmt.Errorf("%s again (%s)", it.What(), before)
		} else {
			r.seen[key] = here
		}
	}
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %s", here, apierr.OneLine(err.Error())))
		return
	}
	it.Source, it.Index, it.Item = source, index, o.item
	r.items = append(r.items, it)
}

// listed is one object of a document (item 0), or the item-th of its list's items (from 1), or why it is
// none.
type listed struct {
	obj  map[string]any
	item int
	err  error
}

// flatten is doc's objects: doc itself, or, when it is a list (a kind ending in List, with an items array),
// its items in order (none for an empty list); an item that is not an object, or a list itself, is an
// error of its own.
func flatten(doc Document) []listed {
	if doc.Err != nil {
		return []listed{{err: doc.Err}}
	}
	if !isListObject(doc.Obj) {
		return []listed{{obj: doc.Obj}}
	}
	items := doc.Obj["items"].([]any)
	out := make([]listed, 0, len(items))
	for i, v := range items {
		o, ok := v.(map[string]any)
		switch {
		case !ok:
			out = append(out, listed{item: i + 1, err: errors.New("not an object")})
		case isListObject(o):
			out = append(out, listed{item: i + 1, err: errors.New("a list in a list")})
		default:
			out = append(out, listed{obj: o, item: i + 1})
		}
	}
	return out
}

// isListObject tells whether o is a list (a kind ending in List, with an items array).
func isListObject(o map[string]any) bool {
	kind, _, _ := unstructured.NestedString(o, "kind")
	_, items := o["items"].([]any)
	return items && strings.HasSuffix(kind, "List")
}

// Document is one non-empty document of a text: the object, or why it is none.
type Document struct {
	Obj map[string]any
	Err error
}

// Documents splits data into its documents, without the empty ones: a JSON text (it begins with `{`) is a
// stream of JSON objects, anything else YAML documents separated by `---` lines. A document that does not
// parse is one with its Err; after one the JSON stream, or a YAML text that cannot be split, ends.
func Documents(data []byte) []Document {
	var out []Document
	trimmed := bytes.TrimSpace(data)
	if bytes.HasPrefix(trimmed, []byte("{")) {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err == io.EOF {
				return out
			} else if err != nil {
				return append(out, Document{Err: fmt.Errorf("not JSON: %w", err)})
			}
			doc, err := object(raw)
			out = append(out, Document{Obj: doc, Err: err})
		}
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		chunk, err := r.Read()
		if err == io.EOF {
			return out
		} else if err != nil {
			return append(out, Document{Err: fmt.Errorf("not YAML: %w", err)})
		}
		doc, err := object(chunk)
		if doc != nil || err != nil {
			out = append(out, Document{Obj: doc, Err: err})
		}
	}
}

// object is one document as an object (numbers as int64 where they are whole), nil for an empty one (only
// comments or blanks).
func object(text []byte) (map[string]any, error) {
	var v any
	if err := utilyaml.Unmarshal(text, &v); err != nil {
		return nil, fmt.Errorf("does not parse: %w", err)
	}
	switch v := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return v, nil
	}
	return nil, errors.New("not an object")
}

// item is the object doc as an Item of one of resources, or why it cannot be applied.
func item(doc map[string]any, resources []discovery.Resource, namespace string) (Item, error) {
	obj := &unstructured.Unstructured{Object: doc}
	apiVersion, _, _ := unstructured.NestedString(doc, "apiVersion")
	kind, _, _ := unstructured.NestedString(doc, "kind")
	name, _, _ := unstructured.NestedString(doc, "metadata", "name")
	switch {
	case apiVersion == "":
		return Item{}, errors.New("no apiVersion")
	case kind == "":
		return Item{}, errors.New("no kind")
	case name == "":
		return Item{}, fmt.Errorf("%s without metadata.name", kind)
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return Item{}, fmt.Errorf("apiVersion %q: %w", apiVersion, err)
	}
	res, ok := servedKind(resources, gv, kind)
	if !ok {
		return Item{}, fmt.Errorf("no resource of kind %s in %s is served", kind, apiVersion)
	}
	if !res.Namespaced {
		obj.SetNamespace("")
	} else if obj.GetNamespace() == "" {
		obj.SetNamespace(namespace)
	}
	for field, value := range map[string]string{"metadata.name": name, "metadata.namespace": obj.GetNamespace()} {
		if value == "" {
			continue
		}
		if problems := pathvalidation.IsValidPathSegmentName(value); len(problems) > 0 {
			return Item{}, fmt.Errorf("%s %q: %s", field, value, strings.Join(problems, ", "))
		}
	}
	return Item{Res: res, GVR: gv.WithResource(res.Name), Obj: obj}, nil
}

// servedKind finds the resource of kind in gv's group among resources: of gv's version if one is,
// else of another (the server converts).
func servedKind(resources []discovery.Resource, gv schema.GroupVersion, kind string) (discovery.Resource, bool) {
	var found discovery.Resource
	ok := false
	for _, r := range resources {
		if r.Group != gv.Group || r.Kind != kind || strings.Contains(r.Name, "/") {
			continue
		}
		if r.Version == gv.Version {
			return r, true
		}
		if !ok {
			found, ok = r, true
		}
	}
	return found, ok
}
