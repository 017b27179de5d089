package verbs

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// fakeCluster answers access questions from denied and records the calls; any other call panics (the
// embedded interface is nil), so a verb reaching further than the test expects fails it.
type fakeCluster struct {
	cluster.Interface
	denied map[string]bool // "verb resource/subresource"
	calls  []string
}

func (c *fakeCluster) Can(_ context.Context, q cluster.AccessQuery) (cluster.AccessAnswer, error) {
	what := q.Verb + " " + q.GVR.Resource
	if q.Subresource != "" {
		what += "/" + q.Subresource
	}
	c.calls = append(c.calls, "can "+what)
	return cluster.AccessAnswer{Allowed: !c.denied[what], Reason: "RBAC"}, nil
}

func (c *fakeCluster) Delete(_ context.Context, gvr schema.GroupVersionResource, ns, name string, uid types.UID) error {
	c.calls = append(c.calls, fmt.Sprintf("delete %s %s/%s uid=%s", gvr.Resource, ns, name, uid))
	return nil
}

// fakeHost runs goroutines and updates at once, keeps the prompt line and the question asked; any Host
// method not here panics.
type fakeHost struct {
	Host
	cluster  *fakeCluster
	readOnly bool
	line     string
	question string
	do       func()
}

func (h *fakeHost) Context() context.Context   { return context.Background() }
func (h *fakeHost) Go(fn func())               { fn() }
func (h *fakeHost) Update(fn func())           { fn() }
func (h *fakeHost) Pending(int)                {}
func (h *fakeHost) ShowStatus()                {}
func (h *fakeHost) Cluster() cluster.Interface { return h.cluster }
func (h *fakeHost) ReadOnly() bool             { return h.readOnly }
func (h *fakeHost) Message(text string)        { h.line = text }
func (h *fakeHost) Errorf(format string, args ...any) {
	h.line = "error: " + fmt.Sprintf(format, args...)
}
func (h *fakeHost) Confirm(question, _ string, do func()) {
	h.question, h.do = question, do
}

var (
	pods  = discovery.Resource{Version: "v1", Name: "pods", Kind: "Pod", Namespaced: true, Verbs: []string{"get", "delete", "patch", "update"}}
	nodes = discovery.Resource{Version: "v1", Name: "nodes", Kind: "Node", Verbs: []string{"get", "patch", "update", "delete"}}
	crons = discovery.Resource{Group: "batch", Version: "v1", Name: "cronjobs", Kind: "CronJob", Namespaced: true,
		Verbs: []string{"get", "patch", "update", "delete"}}
	deploys = discovery.Resource{Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", Namespaced: true,
		Verbs: []string{"get", "patch", "update", "delete"}, Subresources: []string{"scale"}}
	web = &watch.Row{Key: "shop/web", Namespace: "shop", Name: "web", UID: "uid-1"}
)

// bindingsOn returns the object keys on row, an object of res, over h.
func bindingsOn(h *fakeHost, res discovery.Resource, row *watch.Row) []keymap.Binding {
	v := New(h)
	subject := func() (discovery.Resource, *watch.Row, bool) { return res, row, true }
	scope := func() (discovery.Resource, string) { return res, row.Namespace }
	return v.Bindings(subject, scope, NewAccess(h), Screens{})
}

func named(bs []keymap.Binding, name string) (keymap.Binding, bool) {
	i := slices.IndexFunc(bs, func(b keymap.Binding) bool { return b.Name == name })
	if i < 0 {
		return keymap.Binding{}, false
	}
	return bs[i], true
}

// TestBindingsFollowTheResource: the object keys depend on the resource: `s` is shell on pods, suspend on
// cronjobs, scale elsewhere; attach on pods only; drain takes restart's key on nodes; port-forward only where it applies.
func TestBindingsFollowTheResource(t *testing.T) {
	for _, tc := range []struct {
		res       discovery.Resource
		want, not []string
	}{
		{pods, []string{"edit", "shell", "attach", "delete", "kill", "set image", "port-forward", "owner", "debug"}, []string{"scale", "drain", "cordon"}},
		{deploys, []string{"edit", "scale", "restart", "delete", "set image", "port-forward"}, []string{"shell", "attach", "kill", "drain", "debug"}},
		{nodes, []string{"edit", "scale", "drain", "delete", "cordon", "uncordon", "debug"}, []string{"restart", "port-forward", "set image", "attach"}},
		{crons, []string{"edit", "suspend", "restart", "delete", "trigger", "set image"}, []string{"scale", "port-forward", "debug", "attach"}},
	} {
		t.Run(tc.res.Name, func(t *testing.T) {
			bs := bindingsOn(&fakeHost{cluster: &fakeCluster{}}, tc.res, web)
			for _, name := range tc.want {
				if _, ok := named(bs, name); !ok {
					t.Errorf("no %q key", name)
				}
			}
			for _, name := range tc.not {
				if _, ok := named(bs, name); ok {
					t.Errorf("a %q key", name)
				}
			}
		})
	}
}

// TestWritesAskTheServerThenFirstTheUser: a write the server refuses is marked denied and sends nothing;
// one it permits asks the user first, then goes out with the UID shown as its precondition; read-only
// mode refuses before any question.
func TestWritesAskTheServerThenFirstTheUser(t *testing.T) {
	c := &fakeCluster{denied: map[string]bool{"create pods/exec": true}}
	h := &fakeHost{cluster: c}
	bs := bindingsOn(h, pods, web)
	shell, _ := named(bs, "shell")
	shell.Denied() // asks
	if !shell.Denied() {
		t.Fatalf("shell not denied after the server refused it (calls %q)", c.calls)
	}
	shell.Run()
	if !strings.Contains(h.line, "not permitted: you may not shell pods shop/web (RBAC)") {
		t.Errorf("shell refused with %q", h.line)
	}
	del, _ := named(bs, "delete")
	if del.Denied() {
		t.Fatal("delete denied")
	}
	del.Run()
	if h.question != "Delete pods web?\nnamespace: shop" || slices.ContainsFunc(c.calls, func(s string) bool { return strings.HasPrefix(s, "delete") }) {
		t.Fatalf("delete asked %q, calls %q: want the question first, nothing sent", h.question, c.calls)
	}
	h.do()
	if !slices.Contains(c.calls, "delete pods shop/web uid=uid-1") || h.line != "deleted pods shop/web" {
		t.Errorf("after yes: calls %q, line %q", c.calls, h.line)
	}

	c = &fakeCluster{}
	h = &fakeHost{cluster: c, readOnly: true}
	del, _ = named(bindingsOn(h, pods, web), "delete")
	if del.Denied() {
		t.Error("read-only marks delete denied: it is refused, not asked about")
	}
	del.Run()
	if h.line != "error: read-only mode: refusing to delete pods shop/web" || h.question != "" || len(c.calls) > 0 {
		t.Errorf("read-only delete: line %q, question %q, calls %q", h.line, h.question, c.calls)
	}
}
