package watch

import (
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// relistOp is one step after a metadata-less relist: the relist's row delivered (bare), a watch event's row
// (watch), or a row the metadata fill listed (fill; previousFill: the fill of the list before).
type relistOp struct {
	bare, watch, fill *Row
	previousFill      bool
}

var relistCreated = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// filledRow is a pod row with its metadata; cells are name, status, age (the Age cell is 2).
func filledRow(rv, status, age, app string) *Row {
	return &Row{Key: "ns/a", Namespace: "ns", Name: "a", UID: "uid-a", ResourceVersion: rv, Created: relistCreated,
		Labels: map[string]string{"app": app}, Cells: []string{"a", status, age}}
}

// bareRow is the same pod listed with includeObject=None: no metadata, Created estimated from the Age cell.
func bareRow(status, age string) *Row {
	return &Row{Key: "ns/a", Namespace: "ns", Name: "a", Created: relistCreated.Add(3 * time.Second),
		Cells: []string{"a", status, age}}
}

// TestStoreRelistKeepsMetadata: a metadata-less relist (410, apiserver restart) of a one-namespace view keeps
// the metadata already filled in, reports only rows whose cells (Age aside) or metadata really changed, and
// the following fill completes what the relist left open, whichever of the two arrives first.
func TestStoreRelistKeepsMetadata(t *testing.T) {
	type want struct {
		rv, status, app string
		uid             types.UID
		created         time.Time
		before          bool // the row is still the one filled before the relist
		updated         bool // reported as Updated
		logged          int  // changes logged for snapshots
	}
	recreated := filledRow("7", "Running", "9s", "x")
	recreated.UID, recreated.Created = "uid-a2", relistCreated.Add(time.Hour)
	tests := []struct {
		name string
		ops  []relistOp
		want want
	}{
		{"cells unchanged but for the age",
			[]relistOp{{bare: bareRow("Running", "6m")}},
			want{rv: "1", status: "Running", app: "x", uid: "uid-a", created: relistCreated, before: true}},
		{"cells unchanged, the fill finds the same object",
			[]relistOp{{bare: bareRow("Running", "6m")}, {fill: filledRow("1", "Running", "6m", "x")}},
			want{rv: "1", status: "Running", app: "x", uid: "uid-a", created: relistCreated, before: true}},
		{"cells unchanged, the fill finds only a new resourceVersion",
			[]relistOp{{bare: bareRow("Running", "6m")}, {fill: filledRow("2", "Running", "6m", "x")}},
			want{rv: "2", status: "Running", app: "x", uid: "uid-a", created: relistCreated, logged: 1}},
		{"cells unchanged, the fill finds new labels",
			[]relistOp{{bare: bareRow("Running", "6m")}, {fill: filledRow("2", "Running", "6m", "y")}},
			want{rv: "2", status: "Running", app: "y", uid: "uid-a", created: relistCreated, updated: true, logged: 1}},
		{"cells unchanged, the object was re-created",
			[]relistOp{{bare: bareRow("Running", "6m")}, {fill: recreated}},
			want{rv: "7", status: "Running", app: "x", uid: "uid-a2", created: recreated.Created, updated: true, logged: 1}},
		{"cells changed: the old metadata is kept until the fill",
			[]relistOp{{bare: bareRow("Failed", "6m")}},
			want{rv: "", status: "Failed", app: "x", uid: "uid-a", created: relistCreated, updated: true, logged: 1}},
		{"cells changed, then filled",
			[]relistOp{{bare: bareRow("Failed", "6m")}, {fill: filledRow("2", "Failed", "6m", "y")}},
			want{rv: "2", status: "Failed", app: "y", uid: "uid-a", created: relistCreated, updated: true, logged: 2}},
		{"filled before delivery, unchanged",
			[]relistOp{{fill: filledRow("1", "Running", "6m", "x")}, {bare: bareRow("Running", "6m")}},
			want{rv: "1", status: "Running", app: "x", uid: "uid-a", created: relistCreated, before: true}},
		{"filled before delivery, only a new resourceVersion",
			[]relistOp{{fill: filledRow("2", "Running", "6m", "x")}, {bare: bareRow("Running", "6m")}},
			want{rv: "2", status: "Running", app: "x", uid: "uid-a", created: relistCreated, logged: 1}},
		{"filled before delivery, cells changed",
			[]relistOp{{fill: filledRow("2", "Failed", "6m", "x")}, {bare: bareRow("Failed", "6m")}},
			want{rv: "2", status: "Failed", app: "x", uid: "uid-a", created: relistCreated, updated: true, logged: 1}},
		{"filled before delivery, labels changed",
			[]relistOp{{fill: filledRow("2", "Running", "6m", "y")}, {bare: bareRow("Running", "6m")}},
			want{rv: "2", status: "Running", app: "y", uid: "uid-a", created: relistCreated, updated: true, logged: 1}},
		{"a watch event after the relist is not undone by the fill",
			[]relistOp{{bare: bareRow("Running", "6m")}, {watch: filledRow("3", "Pending", "6m", "z")},
				{fill: filledRow("2", "Running", "6m", "y")}},
			want{rv: "3", status: "Pending", app: "z", uid: "uid-a", created: relistCreated, updated: true, logged: 1}},
		{"the fill of an older list is ignored",
			[]relistOp{{bare: bareRow("Running", "6m")}, {fill: filledRow("2", "Running", "6m", "y"), previousFill: true}},
			want{rv: "1", status: "Running", app: "x", uid: "uid-a", created: relistCreated, before: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRowStore()
			s.ageCell = func() int { return 2 }
			before := filledRow("1", "Running", "5m", "x")
			s.put(before)
			s.drain()
			previous := s.earlyReset()
			gen := s.earlyReset() // the relist
			seq := s.seq
			for _, op := range tt.ops {
				switch {
				case op.bare != nil:
					s.put(op.bare)
				case op.watch != nil:
					s.put(op.watch)
				case op.previousFill:
					s.fill(op.fill, previous)
				default:
					s.fill(op.fill, gen)
				}
			}
			r, _ := s.get("ns/a")
			got := want{rv: r.ResourceVersion, status: r.Cells[1], app: r.Labels["app"], uid: r.UID, created: r.Created,
				before: r == before, logged: int(s.seq - seq)}
			cs := s.drain()
			got.updated = slices.Equal(cs.Updated, []string{"ns/a"})
			if len(cs.Added)+len(cs.Deleted) > 0 || (len(cs.Updated) > 0 && !got.updated) {
				t.Errorf("changes %+v, want at most ns/a updated", cs)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if f, _ := ParseFilter("-l app=" + tt.want.app); !f.Match(r) {
				t.Errorf("the -l app=%s filter does not match the row (labels %v)", tt.want.app, r.Labels)
			}
		})
	}
}

// TestStoreBareRelistOfBareRows: a second metadata-less list before any fill (rows without metadata yet)
// reports only rows whose cells changed; the fill still completes them.
func TestStoreBareRelistOfBareRows(t *testing.T) {
	s := newRowStore()
	s.ageCell = func() int { return 2 }
	first := bareRow("Running", "5m")
	s.put(first)
	s.drain()
	gen := s.earlyReset()
	if s.put(bareRow("Running", "6m")) {
		t.Error("a relisted row without metadata and with the same cells was a change")
	}
	if r, _ := s.get("ns/a"); r != first {
		t.Error("the row was replaced")
	}
	if !s.fill(filledRow("1", "Running", "6m", "x"), gen) {
		t.Fatal("the fill did not complete the row")
	}
	if r, _ := s.get("ns/a"); r.UID != "uid-a" || r.Labels["app"] != "x" {
		t.Errorf("row after the fill: %+v", r)
	}
	if cs := s.drain(); !cs.Empty() {
		t.Errorf("changes %+v, want none", cs)
	}
}

// TestStoreRemoveKeepsMetadata: a relist's deletion carries the informer's last row, which in a one-namespace
// view lacks the metadata filled in since; the deleted row reported keeps it (a -l filter still matches it).
func TestStoreRemoveKeepsMetadata(t *testing.T) {
	tests := []struct {
		name string
		last *Row
		want string // the reported row's ResourceVersion
	}{
		{"the watch's final row", filledRow("2", "Terminating", "6m", "x"), "2"},
		{"a relist's row without metadata", bareRow("Running", "6m"), "1"},
		{"no final row", nil, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRowStore()
			s.put(filledRow("1", "Running", "5m", "x"))
			s.drain()
			s.remove("ns/a", tt.last)
			cs := s.drain()
			if len(cs.Deleted) != 1 || cs.Deleted[0].ResourceVersion != tt.want || cs.Deleted[0].Labels["app"] != "x" {
				t.Fatalf("deleted %+v, want the row of resourceVersion %q with its labels", cs.Deleted, tt.want)
			}
		})
	}
}
