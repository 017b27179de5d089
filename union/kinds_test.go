package union

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// t0 is the fixture's clock.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// fixture is a small cluster's deployments and replicasets, with the server columns of each; its sources are
// watch.StaticSources, the last one built kept. Sources of the resources in listing start without columns
// and Listing, as a Source does before its first list has arrived.
type fixture struct {
	res     map[string]discovery.Resource
	columns map[string][]watch.Column
	rows    map[string][]*watch.Row
	listing map[string]bool

	mu   sync.Mutex
	last *watch.StaticSource
}

func newFixture() *fixture {
	name := watch.Column{Name: "NAME", Type: "string", Format: "name"}
	age := watch.Column{Name: "AGE", Type: "string", Age: true}
	row := func(n string, cells ...string) *watch.Row {
		return &watch.Row{Key: "shop/" + n, Namespace: "shop", Name: n, UID: types.UID("uid-" + n),
			Created: t0.Add(-3 * time.Hour), Cells: append([]string{n}, cells...)}
	}
	return &fixture{
		res: map[string]discovery.Resource{
			"deployments": {Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", Namespaced: true,
				Verbs: []string{"list", "watch"}},
			"replicasets": {Group: "apps", Version: "v1", Name: "replicasets", Kind: "ReplicaSet", Namespaced: true,
				Verbs: []string{"list", "watch"}},
		},
		columns: map[string][]watch.Column{
			"deployments": {name, {Name: "READY", Type: "string"}, {Name: "UP-TO-DATE", Type: "integer"},
				{Name: "AVAILABLE", Type: "integer"}, age, {Name: "IMAGES", Type: "string", Priority: 1}},
			"replicasets": {name, {Name: "DESIRED", Type: "integer"}, {Name: "CURRENT", Type: "integer"},
				{Name: "READY", Type: "integer"}, age},
		},
		rows: map[string][]*watch.Row{
			"deployments": {row("web", "2/2", "2", "2", "<age>", "nginx:1.27")},
			"replicasets": {row("web-7d9f", "2", "2", "2", "<age>")},
		},
		listing: map[string]bool{},
	}
}

// NewSource is the rows of spec's resource in its namespace, as a static source (SourceMaker).
func (f *fixture) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	var rows []*watch.Row
	for _, r := range f.rows[spec.GVR.Resource] {
		if spec.Namespace == "" || r.Namespace == spec.Namespace {
			rows = append(rows, r)
		}
	}
	s := watch.NewStaticSource(spec, f.columns[spec.GVR.Resource], rows...)
	if f.listing[spec.GVR.Resource] {
		s.SetColumns(nil)
		s.SetState(watch.State{Phase: watch.Listing})
	}
	f.mu.Lock()
	f.last = s
	f.mu.Unlock()
	return s, nil
}

// lastSource is the source NewSource built last.
func (f *fixture) lastSource() *watch.StaticSource {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

// pollFor polls cond for up to 5 s.
func pollFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not %s after 5 s", what)
		}
	}
}

func TestKindsSourceWaitsForEveryKindThenFollowsColumns(t *testing.T) {
	fc := newFixture()
	fc.listing["replicasets"] = true
	deploy, rs := fc.res["deployments"], fc.res["replicasets"]
	union := discovery.Resource{Name: "deployments,replicasets", Namespaced: true}
	src, err := NewKinds(nil, fc, union, []discovery.Resource{deploy, rs}, "shop", nil)
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	defer src.Stop()
	rsSource := fc.lastSource()

	// deployments have listed, replicasets not yet: no rows, no columns, the kind still listing named
	pollFor(t, "listing with the replicasets named", func() bool {
		st := src.State()
		return st.Phase == watch.Listing && st.Note == "replicaset.apps listing"
	})
	if n, cols := len(src.Snapshot(watch.Query{SortColumn: -1}).Rows), src.Columns(); n != 0 || cols != nil {
		t.Fatalf("%d rows and columns %v before every kind has listed", n, cols)
	}

	// the replicasets list: their columns differ from the deployments', so KIND NAME AGE
	rsSource.SetColumns(fc.columns["replicasets"])
	rsSource.SetState(watch.State{Phase: watch.Synced})
	pollFor(t, "synced with both kinds' rows", func() bool {
		return src.State().Phase == watch.Synced && len(src.Snapshot(watch.Query{SortColumn: -1}).Rows) == 2
	})
	if got := columnNames(src.Columns()); got != "KIND NAME AGE" {
		t.Fatalf("columns %s", got)
	}
	row, ok := src.Row("replicaset.apps/shop/web-7d9f")
	if !ok || strings.Join(row.Cells, ",") != "replicaset.apps,web-7d9f,<age>" {
		t.Fatalf("row %+v", row)
	}
	res, own, ok := src.KindOf(row)
	if !ok || res.Name != "replicasets" || own.Key != "shop/web-7d9f" || own.Name != "web-7d9f" {
		t.Errorf("KindOf = %s %+v %v", res.Name, own, ok)
	}
	src.Changes()

	// the server's columns for replicasets change to the deployments' (a CRD's printer columns edited): the
	// kinds' own columns are kept, every row laid out again
	rsSource.SetColumns(fc.columns["deployments"])
	rsSource.Put(&watch.Row{Key: "shop/web-7d9f", Namespace: "shop", Name: "web-7d9f", UID: "uid-web-7d9f",
		ResourceVersion: "7", Created: t0, Cells: []string{"web-7d9f", "1/2", "2", "1", "<age>", "nginx:1.28"}})
	pollFor(t, "the deployments' columns kept", func() bool {
		return columnNames(src.Columns()) == "KIND NAME READY UP-TO-DATE AVAILABLE AGE IMAGES"
	})
	pollFor(t, "the rows laid out again", func() bool {
		r, _ := src.Row("replicaset.apps/shop/web-7d9f")
		d, _ := src.Row("deployment.apps/shop/web")
		return r != nil && d != nil && strings.Join(r.Cells, ",") == "replicaset.apps,web-7d9f,1/2,2,1,<age>,nginx:1.28" &&
			strings.Join(d.Cells, ",") == "deployment.apps,web,2/2,2,2,<age>,nginx:1.27"
	})

	// a kind that fails is named in the table's state
	rsSource.SetState(watch.State{Phase: watch.Forbidden, Message: "replicasets.apps is forbidden"})
	pollFor(t, "forbidden, named", func() bool {
		st := src.State()
		return st.Phase == watch.Forbidden && st.Message == "replicaset.apps: replicasets.apps is forbidden"
	})

	src.Stop()
	if !rsSource.Stopped() {
		t.Error("the kind's source was not stopped with the table's")
	}
}

func columnNames(cols []watch.Column) string {
	names := make([]string, 0, len(cols))
	for _, c := range cols {
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}

// syncsDuringSnapshot is a part whose first list ends while the union takes its snapshot: the rest of the
// list's rows arrive as a first list (not changes) and it says Synced, right after the snapshot was taken.
type syncsDuringSnapshot struct {
	*watch.StaticSource
	rest []*watch.Row
	once sync.Once
}

func (s *syncsDuringSnapshot) Snapshot(q watch.Query) watch.Snapshot {
	snap := s.StaticSource.Snapshot(q)
	s.once.Do(func() {
		s.PutListed(s.rest...)
		s.SetState(watch.State{Phase: watch.Synced})
	})
	return snap
}

// wrapping is a fixture whose deployments source is a syncsDuringSnapshot holding rest.
type wrapping struct {
	*fixture
	rest []*watch.Row
}

func (f wrapping) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	src, err := f.fixture.NewSource(spec)
	if err != nil || spec.GVR.Resource != "deployments" {
		return src, err
	}
	static := src.(*watch.StaticSource)
	static.SetState(watch.State{Phase: watch.Listing}) // its first page in, columns known, the rest to come
	return &syncsDuringSnapshot{StaticSource: static, rest: f.rest}, nil
}

// TestKindsTakesARestListedDuringItsSnapshot: a kind whose first list ends while the union takes its snapshot
// is loaded again (the rest of its rows come as no change), not taken as loaded with its first page only.
func TestKindsTakesARestListedDuringItsSnapshot(t *testing.T) {
	fc := newFixture()
	rest := []*watch.Row{{Key: "shop/api", Namespace: "shop", Name: "api", UID: "uid-api", Created: t0,
		Cells: []string{"api", "1/1", "1", "1", "<age>", "api:1"}}}
	deploy, rs := fc.res["deployments"], fc.res["replicasets"]
	union := discovery.Resource{Name: "deployments,replicasets", Namespaced: true}
	src, err := NewKinds(nil, wrapping{fc, rest}, union, []discovery.Resource{deploy, rs}, "shop", nil)
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	defer src.Stop()
	pollFor(t, "synced with every deployment", func() bool {
		_, ok := src.Row("deployment.apps/shop/api")
		return src.State().Phase == watch.Synced && ok
	})
}
