package livetable

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui/verbs"
	"kscope/watch"
)

// BenchmarkMarkAllAndConfirm50k: on a table of 50k rows (a watch.StaticSource, the store the live tables
// use), a filter that shows 30k of them, every row shown marked (*), the marked rows handed to the verbs and
// the delete question built: what the user waits for between * and the dialog, plus the filter. The issue
// asks under 100 ms.
func BenchmarkMarkAllAndConfirm50k(b *testing.B) {
	// configmaps: a pods table would poll the metrics of a cluster the fake host has not.
	res := discovery.Resource{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: []string{"delete"}}
	src := watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "bench"}, benchColumns(), benchRows(50000)...)
	table, h := newTable(b, res, src)
	var question string
	b.ReportAllocs()
	for b.Loop() {
		h.press(tcell.KeyRune, '/')
		h.reply("pod-0[0-2]")
		h.press(tcell.KeyRune, '*')
		h.run(func() {
			rows := table.Marked()
			targets := make([]verbs.Target, len(rows))
			for i, row := range rows {
				res, own := table.RowKind(row)
				targets[i] = verbs.Target{Res: res, Row: own}
			}
			question = verbs.MarkedQuestion("delete", targets, 0)
		})
		b.StopTimer()
		h.press(tcell.KeyCtrlBackslash, 0)
		h.run(func() { table.Escape() })
		b.StartTimer()
	}
	if !strings.HasPrefix(question, "Delete 30000 configmaps?\nbench/pod-000000\n") || !strings.Contains(question, "and 29990 more") {
		b.Fatalf("question %q", question)
	}
}
