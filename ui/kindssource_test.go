package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"kscope/discovery"
	"kscope/watch"
)

// listingCluster is the fixture cluster whose sources of the resources in listing start without columns, as
// a Source does before its first list has arrived.
type listingCluster struct {
	*fakeCluster
	listing map[string]bool
}

func (c listingCluster) NewSource(spec watch.Spec) (RowSource, error) {
	src, err := c.fakeCluster.NewSource(spec)
	if s, ok := src.(*watch.StaticSource); ok && c.listing[spec.GVR.Resource] {
		s.SetColumns(nil)
		s.SetState(watch.State{Phase: watch.Listing})
	}
	return src, err
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
	fc := fixtureCluster()
	c := listingCluster{fakeCluster: fc, listing: map[string]bool{"replicasets": true}}
	var deploy, rs discovery.Resource
	for _, r := range fc.catalog.Resources() {
		switch r.Name {
		case "deployments":
			deploy = r
		case "replicasets":
			rs = r
		}
	}
	l := discovery.List{Resources: []discovery.Resource{deploy, rs}}
	src, err := newKindsSource(nil, c, unionResource(l), l.Resources, "shop", nil)
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
	res, own, ok := src.kindOf(row)
	if !ok || res.Name != "replicasets" || own.Key != "shop/web-7d9f" || own.Name != "web-7d9f" {
		t.Errorf("kindOf = %s %+v %v", res.Name, own, ok)
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
