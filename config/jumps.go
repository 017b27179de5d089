package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
)

// jumpsFile is k9s 0.51's jumps.yaml:
//
//	jumps:
//	  myoperator.io/v1/patchplans:
//	    targetGVR: myoperator.io/v1/patchjobs
//	    labelSelector: "app={{.metadata.name}}"
//	    fieldSelector: "spec.patchPlanRef={{.metadata.name}}"
//	    targetNamespace: ""
type jumpsFile struct {
	Jumps map[string]json.RawMessage `json:"jumps"`
}

// rawJump is one rule as written.
type rawJump struct {
	TargetGVR       string `json:"targetGVR"`
	LabelSelector   string `json:"labelSelector"`
	FieldSelector   string `json:"fieldSelector"`
	TargetNamespace string `json:"targetNamespace"`
}

// AllNamespaces is the targetNamespace that opens the target in every namespace.
const AllNamespaces = "all"

// Jump is a rule of jumps.yaml: Enter on an object of Source opens the objects of Target its selectors pick.
// Its templates may refer to the source object's fields ({{.metadata.name}}); they were checked when read.
type Jump struct {
	// Source and Target are resources as the file names them (GROUP/VERSION/RESOURCE, VERSION/RESOURCE for
	// the core group).
	Source, Target schema.GroupVersionResource
	// LabelSelector and FieldSelector pick the target's objects (at least one is set).
	LabelSelector, FieldSelector Template
	// TargetNamespace is where: empty, the source object's namespace (every namespace from a cluster-scoped
	// one); AllNamespaces; else a namespace's name (a template).
	TargetNamespace Template
	// File is the file it was read from.
	File string
}

// Name is the rule's name in the file: its source resource.
func (j Jump) Name() string { return GVRText(j.Source) }

// GVRText writes gvr as jumps.yaml and views.yaml do: apps/v1/deployments, v1/pods.
func GVRText(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Version + "/" + gvr.Resource
	}
	return gvr.Group + "/" + gvr.Version + "/" + gvr.Resource
}

// LoadJumps reads the jumps files of d: k9s's, then kscope's, whose rule for a source replaces k9s's for the
// same source (even when it cannot be used: then that source has none). A file that cannot be parsed, or a
// rule that cannot be used, is one Problem naming the file and the rule; the other rules are read. Sorted by
// name. The File returned is kscope's when it exists (From "both" when k9s's is read too), else k9s's.
func LoadJumps(d Dirs) ([]Jump, File, error) {
	f := d.find("jumps", "jumps.yaml")
	bySource := map[schema.GroupVersionResource]*Jump{}
	var problems Problems
	read := 0
	for _, c := range []struct{ dir, from string }{{d.K9s, "k9s"}, {d.KScope, "kscope"}} {
		if c.dir == "" {
			continue
		}
		path := filepath.Join(c.dir, "jumps.yaml")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		read++
		rules, ps := readJumps(File{Kind: "jumps", Path: path, From: c.from})
		problems = append(problems, ps...)
		for gvr, j := range rules {
			bySource[gvr] = j
		}
	}
	if read == 2 {
		f.From = "both"
	}
	out := make([]Jump, 0, len(bySource))
	for _, j := range bySource {
		if j != nil {
			out = append(out, *j)
		}
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Name() < out[k].Name() })
	return out, f, orNil(problems)
}

// readJumps reads the rules of f by source; a rule whose source could be read but which cannot be used is
// nil, and a Problem.
func readJumps(f File) (map[schema.GroupVersionResource]*Jump, Problems) {
	var raw jumpsFile
	if err := read(f, &raw); err != nil {
		return nil, Problems{asProblem(err, f.Path)}
	}
	names := make([]string, 0, len(raw.Jumps))
	for name := range raw.Jumps {
		names = append(names, name)
	}
	sort.Strings(names)
	out := map[schema.GroupVersionResource]*Jump{}
	var problems Problems
	for _, name := range names {
		source, err := ParseGVR(strings.TrimSpace(name))
		parsed := err == nil
		if parsed && out[source] != nil {
			err = fmt.Errorf("%s has a rule already", GVRText(source))
		}
		var j Jump
		if err == nil {
			j, err = parseJump(source, raw.Jumps[name], f.Path)
		}
		if err != nil {
			problems = append(problems, Problem{Path: f.Path, Text: fmt.Sprintf("jump %q: %s", name, err)})
			if parsed {
				out[source] = nil
			}
			continue
		}
		out[source] = &j
	}
	return out, problems
}

// parseJump checks one rule, data as written, whose source is source.
func parseJump(source schema.GroupVersionResource, data json.RawMessage, path string) (Jump, error) {
	var r rawJump
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Jump{}, jumpDecodeError(err)
	}
	j := Jump{Source: source, File: path}
	var err error
	if strings.TrimSpace(r.TargetGVR) == "" {
		return Jump{}, errors.New("needs a targetGVR")
	}
	if j.Target, err = ParseGVR(strings.TrimSpace(r.TargetGVR)); err != nil {
		return Jump{}, fmt.Errorf("targetGVR %w", err)
	}
	if strings.TrimSpace(r.LabelSelector) == "" && strings.TrimSpace(r.FieldSelector) == "" {
		return Jump{}, errors.New("needs a labelSelector or a fieldSelector")
	}
	for _, t := range []struct {
		field, text string
		into        *Template
	}{{"labelSelector", r.LabelSelector, &j.LabelSelector}, {"fieldSelector", r.FieldSelector, &j.FieldSelector},
		{"targetNamespace", r.TargetNamespace, &j.TargetNamespace}} {
		if *t.into, err = ParseTemplate(strings.TrimSpace(t.text)); err != nil {
			return Jump{}, fmt.Errorf("%s %w", t.field, err)
		}
	}
	return j, j.checkForm()
}

// jumpDecodeError is the decoder's error about a rule in a reader's words.
func jumpDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: want %s, not %s", te.Field, typeWord(te.Type.String()), te.Value)
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// ParseGVR reads a resource as jumps.yaml names it: GROUP/VERSION/RESOURCE, or VERSION/RESOURCE for the core
// group (whose one version is v1).
func ParseGVR(text string) (schema.GroupVersionResource, error) {
	var gvr schema.GroupVersionResource
	switch parts := strings.Split(text, "/"); len(parts) {
	case 2:
		gvr = schema.GroupVersionResource{Version: parts[0], Resource: parts[1]}
		if gvr.Version != "v1" {
			return gvr, fmt.Errorf("%q: VERSION/RESOURCE is the core group's, whose version is v1 (GROUP/VERSION/RESOURCE for another group)", text)
		}
	case 3:
		gvr = schema.GroupVersionResource{Group: parts[0], Version: parts[1], Resource: parts[2]}
	default:
		return gvr, fmt.Errorf("%q is not GROUP/VERSION/RESOURCE (VERSION/RESOURCE for the core group)", text)
	}
	if gvr.Group != "" && len(validation.IsDNS1123Subdomain(gvr.Group)) > 0 ||
		len(validation.IsDNS1035Label(gvr.Version)) > 0 || len(validation.IsDNS1123Label(gvr.Resource)) > 0 {
		return gvr, fmt.Errorf("%q is not GROUP/VERSION/RESOURCE: a group is a DNS name, a version and a resource lower-case words", text)
	}
	return gvr, nil
}
