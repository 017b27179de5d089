package drill

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/config"
	"kscope/discovery"
	"kscope/watch"
)

// JumpFor is the rule of jumps for res's objects: the one naming res's group, version and resource, else one
// naming its group and resource at another version.
func JumpFor(jumps []config.Jump, res discovery.Resource) (config.Jump, bool) {
	found := -1
	for i, j := range jumps {
		switch {
		case j.Source == res.GVR():
			return j, true
		case found < 0 && j.Source.GroupResource() == res.GVR().GroupResource():
			found = i
		}
	}
	if found < 0 {
		return config.Jump{}, false
	}
	return jumps[found], true
}

// jumpTarget is where a jump leads: the target resource as the server serves it, and its selection.
type jumpTarget struct {
	res discovery.Resource
	sel config.JumpSelection
}

// jump follows rule j from row, an object of res (Enter: a rule comes before the built-in drill-downs). Off
// the UI goroutine it reads the object, over which the rule's templates resolve, and the target resource
// through the catalog; then it opens a live table of the target's objects that the selectors pick on the
// server. Anything that stops it is one line on the prompt line.
func jump(h Host, j config.Jump, res discovery.Resource, row *watch.Row) {
	of := singular(res) + " " + row.Name
	h.Message("reading " + of + " …")
	gvr, ns, name := res.GVR(), row.Namespace, row.Name
	request(h, func(ctx context.Context, c cluster.Interface) (jumpTarget, error) {
		obj, err := c.Get(ctx, gvr, ns, name)
		if err != nil {
			return jumpTarget{}, fmt.Errorf("%s: %s", of, apierr.OneLine(err.Error()))
		}
		sel, err := j.Select(obj.Object, of)
		if err != nil {
			return jumpTarget{}, err
		}
		target, err := jumpResource(ctx, c.Catalog(), j.Target)
		return jumpTarget{res: target, sel: sel}, err
	}, func(t jumpTarget, err error) {
		if err != nil {
			h.Errorf("jump %s: %s", j.Name(), err)
			return
		}
		h.Message("")
		openJump(h, t, of)
	})
}

// singular is res's singular name, else its kind lower-cased.
func singular(res discovery.Resource) string {
	if res.SingularName != "" {
		return res.SingularName
	}
	return strings.ToLower(res.Kind)
}

// jumpResource is the resource gvr names as the server serves it: the catalog's entry, else what resolving
// it finds (a CRD created since discovery was read, a version other than the preferred one). One the server
// does not serve, or that cannot be listed and watched, is an error.
func jumpResource(ctx context.Context, catalog cluster.Catalog, gvr schema.GroupVersionResource) (discovery.Resource, error) {
	for _, r := range catalog.Resources() {
		if r.GVR() == gvr {
			return listable(r)
		}
	}
	input := gvr.Resource
	if gvr.Group != "" {
		input += "." + gvr.Version + "." + gvr.Group
	}
	r, err := catalog.Resolve(ctx, input)
	var notFound *discovery.NotFoundError
	switch {
	case errors.As(err, &notFound) || (err == nil && r.GVR() != gvr):
		return discovery.Resource{}, fmt.Errorf("the server does not serve %s", config.GVRText(gvr))
	case err != nil:
		return discovery.Resource{}, fmt.Errorf("%s: %s", config.GVRText(gvr), apierr.OneLine(err.Error()))
	}
	return listable(r)
}

// listable is r, or an error when its objects cannot be listed and watched.
func listable(r discovery.Resource) (discovery.Resource, error) {
	if !r.Has("list") || !r.Has("watch") {
		return discovery.Resource{}, fmt.Errorf("%s cannot be listed and watched (verbs: %s)", r.FullName(), strings.Join(r.Verbs, ","))
	}
	return r, nil
}

// openJump pushes a live table of t: the target's objects its selectors pick (sent to the server, which
// refuses a field selector it does not support: the table's state says so), in its namespace ("": every
// one), titled after the object it comes from ("configmaps(widget w1)"); it keeps a namespace set when the
// user switches.
func openJump(h Host, t jumpTarget, of string) {
	spec := watch.Spec{GVR: t.res.GVR(), Namespaced: t.res.Namespaced,
		LabelSelector: t.sel.LabelSelector, FieldSelector: t.sel.FieldSelector}
	if t.res.Namespaced {
		spec.Namespace = t.sel.Namespace
	}
	src, err := h.Cluster().NewSource(spec)
	if err != nil {
		h.Errorf("%s of %s: %s", t.res.Name, of, err)
		return
	}
	h.OpenTable(t.res, src, t.res.Name+"("+of+")", spec.Namespace != "")
}
