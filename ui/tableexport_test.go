package ui

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/types"

	"kscope/watch"
)

// startOnManyPods shows the pods table with 80 more pods in shop (more than the screen holds).
func startOnManyPods(t *testing.T, dir string) *harness {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.SaveDir = dir })
	var rows []*watch.Row
	for i := range 80 {
		name := fmt.Sprintf("batch-%02d", i)
		rows = append(rows, &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name, UID: types.UID("uid-" + name),
			Created: t0.Add(-time.Duration(i) * time.Minute), Cells: []string{name, "1/1", "Running", fmt.Sprint(i % 3), "<age>", "10.1.0.1", "kwok-node-0"}})
	}
	h.cluster.lastSource().Put(rows...)
	h.refresh()
	return h
}

func TestExportWritesEveryRowAsShown(t *testing.T) {
	dir := t.TempDir()
	h := startOnManyPods(t, dir)
	h.press(tcell.KeyRune, '/')
	h.typeText("batch-[0-6]\n") // 70 rows
	h.press(tcell.KeyRune, 'N')
	h.press(tcell.KeyRune, 'N') // by name, descending
	h.press(tcell.KeyCtrlS, 0)
	h.eventually("save the table as (.csv or .json): pods-shop-")
	h.press(tcell.KeyEnter, 0)
	h.eventually("saved 70 rows to " + filepath.Join(dir, "tables", "pods-shop-"))

	files, _ := filepath.Glob(filepath.Join(dir, "tables", "pods-shop-*.csv"))
	if len(files) != 1 {
		t.Fatalf("files %q", files)
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(records[0], ","); got != "NAME,READY,STATUS,RESTARTS,AGE" {
		t.Fatalf("header %q", got)
	}
	var want []string
	for i := 0; i < 70; i++ {
		want = append(want, fmt.Sprintf("batch-%02d", i))
	}
	sort.Sort(sort.Reverse(sort.StringSlice(want)))
	if len(records)-1 != len(want) {
		t.Fatalf("%d rows, want %d", len(records)-1, len(want))
	}
	for i, name := range want {
		r := records[i+1]
		var n int
		fmt.Sscanf(name, "batch-%d", &n)
		if r[0] != name || r[3] != fmt.Sprint(n%3) || r[4] != watch.FormatAge(time.Duration(n)*time.Minute) {
			t.Fatalf("row %d = %q, want %s with its restarts and age", i, r, name)
		}
	}

	h.press(tcell.KeyRune, 'w') // wide columns, as JSON
	h.press(tcell.KeyCtrlS, 0)
	h.press(tcell.KeyCtrlU, 0)
	h.typeText("wide.json\n")
	h.eventually("saved 70 rows to " + filepath.Join(dir, "tables", "wide.json"))
	data, _ := os.ReadFile(filepath.Join(dir, "tables", "wide.json"))
	var objs []map[string]string
	if err := json.Unmarshal(data, &objs); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	if len(objs) != 70 || objs[0]["NAME"] != "batch-69" || objs[0]["NODE"] != "kwok-node-0" || objs[69]["IP"] != "10.1.0.1" {
		t.Fatalf("JSON rows: %d, first %v", len(objs), objs[0])
	}
	if !strings.HasPrefix(string(data), "[\n  {\"NAME\": \"batch-69\", \"READY\": \"1/1\"") {
		t.Fatalf("keys not in the table's order:\n%.200s", data)
	}

	h.press(tcell.KeyCtrlS, 0)
	h.press(tcell.KeyCtrlU, 0)
	h.typeText("table.txt\n")
	h.eventually(`save the table: "table.txt": the name must end in .csv or .json`)
}
