package changes

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"

	"kscope/changes"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/history"
	"kscope/tree"
	"kscope/ui/navtest"
)

var configmaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// fakeCluster serves a catalog and a fake metadata API (secrets forbidden); other methods panic.
type fakeCluster struct {
	cluster.Interface
	catalog *discovery.StaticCatalog
	client  *metadatafake.FakeMetadataClient

	mu         sync.Mutex
	namespaces []string
	failSource error // NewChangeSource's answer, when set
}

func newFakeCluster() *fakeCluster {
	scheme := metadatafake.NewTestScheme()
	metav1.AddMetaToScheme(scheme)
	c := &fakeCluster{client: metadatafake.NewSimpleMetadataClient(scheme)}
	verbs := []string{"get", "list", "watch"}
	c.catalog = discovery.NewStaticCatalog(
		discovery.Resource{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: verbs},
		discovery.Resource{Version: "v1", Name: "secrets", Kind: "Secret", Namespaced: true, Verbs: verbs},
		discovery.Resource{Version: "v1", Name: "events", Kind: "Event", Namespaced: true, Verbs: verbs},
		discovery.Resource{Version: "v1", Name: "bindings", Kind: "Binding", Namespaced: true, Verbs: []string{"create"}},
	)
	c.client.PrependReactor("list", "secrets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), "", nil)
	})
	return c
}

func (c *fakeCluster) Catalog() cluster.Catalog { return c.catalog }

func (c *fakeCluster) NewChangeSource(kinds []tree.Kind, namespaces []string) (cluster.ChangeSource, error) {
	c.mu.Lock()
	c.namespaces = namespaces
	fail := c.failSource
	c.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	for _, k := range kinds {
		if k.GVR.Resource == "events" || k.GVR.Resource == "bindings" {
			return nil, fmt.Errorf("the feed watches %s", k.Name())
		}
	}
	return changes.NewSource(c.client, kinds, namespaces, 0, nil), nil
}

// meta is configmap ns/name at rv created by kubectl-create at second 0 and, unless that is manager, written
// last by manager at second sec, owning fields.
func meta(ns, name, rv, manager string, sec int, fields string) *metav1.PartialObjectMetadata {
	entry := func(manager string, sec int, fields string) metav1.ManagedFieldsEntry {
		at := metav1.NewTime(time.Date(2026, 1, 1, 12, 0, sec, 0, time.UTC))
		return metav1.ManagedFieldsEntry{Manager: manager, Operation: "Update", Time: &at, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
	}
	entries := []metav1.ManagedFieldsEntry{entry("kubectl-create", 0, fields)}
	if manager != "kubectl-create" {
		entries = append(entries, entry(manager, sec, fields))
	}
	return &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, ManagedFields: entries}}
}

// waitRows waits until the view's rows (after the header) hold want in order, each row holding its words.
func waitRows(t *testing.T, nav *navtest.Nav, v *View, want ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var rows []string
		nav.UI(func() {
			v.render()
			rows = navtest.TableRows(v.table)[1:]
		})
		if matchRows(rows, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("rows %q, want rows holding %q", rows, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func matchRows(rows, want []string) bool {
	if len(rows) != len(want) {
		return false
	}
	for i, w := range want {
		for _, word := range strings.Fields(w) {
			if !strings.Contains(" "+rows[i]+" ", " "+word+" ") {
				return false
			}
		}
	}
	return true
}

// TestViewFeed: the objects listed are no change; a creation, a patch by another manager (its fields) and a
// deletion show as they happen, newest first, in the namespace asked; the forbidden kind is named in the
// status line and the others go on; `/` filters, esc clears; the title counts against the bound; Enter opens
// the history with the feed's changes of that object; the table draws on a simulation screen.
func TestViewFeed(t *testing.T) {
	c := newFakeCluster()
	tracker := c.client.Tracker()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tracker.Create(configmaps, meta("shop", "listed", "1", "kubectl-create", 0, `{"f:data":{}}`), "shop"))
	nav := navtest.New(t, c)
	var opened changes.Change
	var feed func() []history.FeedChange
	s, err := New(nav, Feed{Args: []string{"manager=", "x"}, Namespace: "shop"})
	if err == nil || s != nil {
		t.Fatalf("bad words opened %v (%v)", s, err)
	}
	s, err = New(nav, Feed{Namespace: "shop", History: func(in cluster.Interface, _ string, ch changes.Change, f func() []history.FeedChange) bool {
		if in != nil {
			t.Error("the history of a feed of one cluster opened in another")
		}
		opened, feed = ch, f
		return true
	}})
	if err != nil {
		t.Fatal(err)
	}
	v := s.(*View)
	nav.UI(func() { nav.Push(v) })
	if fmt.Sprint(c.namespaces) != "[shop]" {
		t.Errorf("watched %v, want the view's namespace", c.namespaces)
	}
	deadline := time.Now().Add(5 * time.Second)
	for p := v.parts[0].src.Progress(); p.Listed < p.Total; p = v.parts[0].src.Progress() {
		if time.Now().After(deadline) {
			t.Fatalf("not listed: %+v", p)
		}
		time.Sleep(5 * time.Millisecond)
	}
	waitRows(t, nav, v, "no change")
	var st string
	nav.UI(func() { st = v.Status() }) // (the view's goroutines render under the UI lock)
	if !strings.Contains(st, "not visible (skipped): secrets") || strings.Count(st, "secrets") != 1 {
		t.Errorf("status %q: want the forbidden kind named once", st)
	}

	must(tracker.Create(configmaps, meta("shop", "cm", "2", "kubectl-create", 1, `{"f:data":{}}`), "shop"))
	waitRows(t, nav, v, "ConfigMap shop cm created kubectl-create data 2")
	must(tracker.Update(configmaps, meta("shop", "cm", "3", "e2e-patcher", 5, `{"f:data":{"f:k":{}}}`), "shop"))
	must(tracker.Delete(configmaps, "shop", "listed"))
	waitRows(t, nav, v, "shop listed deleted —", "cm updated e2e-patcher data 3", "cm created kubectl-create 2")
	var title string
	nav.UI(func() { title = v.table.GetTitle() })
	if !strings.Contains(title, "changes(shop)") || !strings.Contains(title, "[3 of max 2000]") {
		t.Errorf("title %q", title)
	}

	nav.UI(v.askFilter)
	if !nav.Answer("patcher") {
		t.Fatal("/ asked nothing")
	}
	waitRows(t, nav, v, "cm updated e2e-patcher")
	nav.UI(func() { title = v.table.GetTitle() })
	if !strings.Contains(title, "[1/3 of max 2000]") || !strings.Contains(title, "</patcher>") {
		t.Errorf("filtered title %q", title)
	}
	nav.UI(func() {
		v.table.Select(1, 0)
		bindings := v.Bindings()
		if len(bindings) != 4 || bindings[1].Name != keys.History.Name || bindings[2].Name != keys.Filter.Name {
			t.Errorf("bindings %+v", bindings)
		}
		v.openHistory()
	})
	if opened.Name != "cm" || opened.Op != changes.Updated || feed == nil {
		t.Fatalf("Enter opened %+v", opened)
	}
	if got := feed(); len(got) != 2 || got[0].Op != "created" || got[1].Manager != "e2e-patcher" || got[1].Fields != "data" {
		t.Errorf("the feed's changes of cm: %+v", got)
	}
	nav.UI(func() {
		if !v.Escape() || v.Escape() {
			t.Error("esc: clears the filter, then goes back")
		}
	})
	waitRows(t, nav, v, "listed deleted", "cm updated", "cm created")

	sim := tcell.NewSimulationScreen("UTF-8")
	must(sim.Init())
	sim.SetSize(120, 8)
	nav.UI(func() {
		v.table.SetRect(0, 0, 120, 8)
		v.table.Draw(sim)
	})
	sim.Show()
	cells, w, h := sim.GetContents()
	if text := navtest.CellsText(cells, w, h); !strings.Contains(text, "MANAGER") || !strings.Contains(text, "e2e-patcher") {
		t.Errorf("screen:\n%s", text)
	}
	nav.UI(v.Close)
}

// TestParseArgs: the words after :changes.
func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		current string
		want    string // fmt of the query, or the error
	}{
		{nil, "shop", "{[shop]   }"},
		{nil, "", "{[]   }"},
		{[]string{"web,shop"}, "", "{[web shop]   }"},
		{[]string{"all", "manager=e2e", "kind=ConfigMap", "op=updated"}, "shop", "{[] e2e ConfigMap updated}"},
		{[]string{"-A"}, "shop", "{[]   }"},
		{[]string{"Bad!"}, "", `changes: invalid namespace "Bad!": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{[]string{"a", "b"}, "", `changes: one list of namespaces only ("b"): NS[,NS…]`},
		{[]string{"op=patched"}, "", `changes: op="patched": created, updated or deleted`},
		{[]string{"who=me"}, "", `changes: unknown filter "who": manager=, kind= or op=`},
		{[]string{"kind="}, "", `changes: kind= needs a value`},
	} {
		q, err := parseArgs(tc.args, tc.current)
		got := fmt.Sprint(q)
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("parseArgs(%q, %q) = %s, want %s", tc.args, tc.current, got, tc.want)
		}
	}
	cm := changes.Change{Kind: tree.Kind{GVR: configmaps, Kind: "ConfigMap", Namespaced: true}, Op: changes.Updated, Manager: "e2e"}
	for _, tc := range []struct {
		q    query
		want bool
	}{
		{query{}, true},
		{query{manager: "E2E"}, true},
		{query{manager: "kubectl"}, false},
		{query{kind: "configmaps"}, true},
		{query{kind: "configmap"}, true},
		{query{kind: "secrets"}, false},
		{query{op: "deleted"}, false},
	} {
		if got := tc.q.matches(cm); got != tc.want {
			t.Errorf("%+v matches %v, want %v", tc.q, got, tc.want)
		}
	}
}
