package history

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/watch"
)

// TestWithFeed: the feed's changes join an object's versions: left out where a full version has the
// resourceVersion, told on a row version of it, entries of their own otherwise; oldest first; the writer
// and the line are the feed's.
func TestWithFeed(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	full := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "cm", "resourceVersion": "2"}}}
	cols := []watch.Column{{Name: "DATA"}}
	rows := []watch.RowVersion{
		{Row: &watch.Row{ResourceVersion: "3", Cells: []string{"1"}}, Seen: at(3)},
		{Row: &watch.Row{ResourceVersion: "4", Cells: []string{"2"}}, Seen: at(4)},
	}
	entries := Entries([]Version{{Obj: full, Seen: at(2)}}, rows, cols)
	feed := []FeedChange{
		{Seen: at(2), RV: "2", Op: "updated", Manager: "x", Sure: true, Fields: "spec"},
		{Seen: at(4), RV: "4", Op: "updated", Manager: "e2e-patcher", Sure: true, Fields: "data"},
		{Seen: at(5), RV: "5", Op: "updated", Manager: "kubelet/status", Operation: "Update", Fields: "status"},
	}
	got := WithFeed(entries, feed)
	want := []struct{ rv, writer, summary string }{
		{"2", "—", "first version seen"},
		{"3", "—", "first version seen"},
		{"4", "e2e-patcher", "updated: data · cells: DATA 1→2"},
		{"5", "kubelet/status?", "updated: status (change feed; no version kept)"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		writer := "—"
		if o, sure, ok := got[i].Writer(); ok {
			writer = o.Name()
			if !sure {
				writer += "?"
			}
		}
		if got[i].RV != w.rv || writer != w.writer || !strings.HasPrefix(got[i].Summary(80), w.summary) {
			t.Errorf("entry %d: %s %s %q, want %s %s %q", i, got[i].RV, writer, got[i].Summary(80), w.rv, w.writer, w.summary)
		}
	}
}
