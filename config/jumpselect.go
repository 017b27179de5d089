package config

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
)

// JumpSelection is where a jump leads from one object: its target's objects that the selectors pick, in
// Namespace ("": every namespace).
type JumpSelection struct {
	LabelSelector, FieldSelector string
	Namespace                    string
}

// Select resolves j's templates over obj, an object of j.Source named by of in errors ("widget w1"). A value
// substituted into the label selector must be a label value (else refused); one substituted into the field
// selector is escaped (fields.EscapeValue); the namespace must be a namespace's name. Each selector is then
// parsed, and given as the parser writes it. A reference to a field obj lacks is an error.
func (j Jump) Select(obj map[string]any, of string) (JumpSelection, error) {
	var sel JumpSelection
	var err error
	if sel.LabelSelector, err = j.labels(obj, of); err != nil {
		return JumpSelection{}, err
	}
	if sel.FieldSelector, err = j.fields(obj, of); err != nil {
		return JumpSelection{}, err
	}
	if sel.LabelSelector == "" && sel.FieldSelector == "" {
		return JumpSelection{}, fmt.Errorf("its selectors pick every object of %s", GVRText(j.Target))
	}
	if sel.Namespace, err = j.namespace(obj, of); err != nil {
		return JumpSelection{}, err
	}
	return sel, nil
}

// labelValue refuses a value that is not a label value: it could change what the selector says.
func labelValue(of string) func(ref, v string) (string, error) {
	return func(ref, v string) (string, error) {
		if len(validation.IsValidLabelValue(v)) > 0 {
			return "", fmt.Errorf("%s of %s is %q: not a label value (at most 63 letters, digits, '-', '_' or '.', "+
				"starting and ending with a letter or digit)", ref, of, v)
		}
		return v, nil
	}
}

func fieldValue(_, v string) (string, error) { return fields.EscapeValue(v), nil }

func (j Jump) labels(obj map[string]any, of string) (string, error) {
	text, err := j.LabelSelector.Expand(obj, of, labelValue(of))
	if err != nil {
		return "", err
	}
	sel, err := labels.Parse(text)
	if err != nil {
		return "", fmt.Errorf("labelSelector %q: %w", text, err)
	}
	return sel.String(), nil
}

func (j Jump) fields(obj map[string]any, of string) (string, error) {
	text, err := j.FieldSelector.Expand(obj, of, fieldValue)
	if err != nil {
		return "", err
	}
	sel, err := fields.ParseSelector(text)
	if err != nil {
		return "", fmt.Errorf("fieldSelector %q: %w", text, err)
	}
	return sel.String(), nil
}

// namespace is where the target opens from obj: see Jump.TargetNamespace.
func (j Jump) namespace(obj map[string]any, of string) (string, error) {
	switch j.TargetNamespace.String() {
	case "":
		ns, _, _ := scalarAt(obj, []string{"metadata", "namespace"})
		return ns, nil
	case AllNamespaces:
		return "", nil
	}
	ns, err := j.TargetNamespace.Expand(obj, of, func(_, v string) (string, error) { return v, nil })
	if err != nil {
		return "", err
	}
	if len(validation.IsDNS1123Label(ns)) > 0 {
		return "", fmt.Errorf("targetNamespace %q: not a namespace name (a DNS label)", ns)
	}
	return ns, nil
}

// checkForm tells whether j's templates can give selectors and a namespace at all: each is read with every
// reference standing for the value "x", and parsed.
func (j Jump) checkForm() error {
	sample := map[string]any{}
	for _, t := range []Template{j.LabelSelector, j.FieldSelector, j.TargetNamespace} {
		for _, ref := range t.Refs() {
			setSample(sample, strings.Split(ref[1:], "."))
		}
	}
	namespace := func(s string) error {
		if errs := validation.IsDNS1123Label(s); len(errs) > 0 && j.TargetNamespace.String() != AllNamespaces {
			return fmt.Errorf("not a namespace name (a DNS label)")
		}
		return nil
	}
	for _, c := range []struct {
		field, what string
		t           Template
		parse       func(string) error
	}{
		{"labelSelector", "a selector", j.LabelSelector, func(s string) error { _, err := labels.Parse(s); return err }},
		{"fieldSelector", "a selector", j.FieldSelector, func(s string) error { _, err := fields.ParseSelector(s); return err }},
		{"targetNamespace", "a namespace", j.TargetNamespace, namespace},
	} {
		if c.t.Empty() {
			continue
		}
		text, err := c.t.Expand(sample, "it", func(_, v string) (string, error) { return v, nil })
		if err == nil {
			err = c.parse(text)
		}
		switch {
		case err != nil && len(c.t.Refs()) == 0:
			return fmt.Errorf("%s %q: %w", c.field, c.t, err)
		case err != nil:
			return fmt.Errorf("%s %q cannot be %s (read with each reference as x: %w)", c.field, c.t, c.what, err)
		}
	}
	return nil
}

// setSample puts the value "x" at path in obj (where a longer path has put a mapping, that stays).
func setSample(obj map[string]any, path []string) {
	for _, key := range path[:len(path)-1] {
		next, ok := obj[key].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[key] = next
		}
		obj = next
	}
	if _, ok := obj[path[len(path)-1]]; !ok {
		obj[path[len(path)-1]] = "x"
	}
}
