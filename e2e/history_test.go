//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// historyWriter is the field manager of the test's own client.
const historyWriter = "e2e-history-writer"

// TestUIHistory: a ConfigMap watched in its YAML view is patched three times, by kubectl patch and by a client
// with a named field manager; the history lists four versions, each with the manager and operation that
// managedFields name for it, and each version's diff shows exactly the change made. A row never opened in
// YAML has its table's versions: the cells that changed.
func TestUIHistory(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "cfg", "--from-literal=a=1")
	kubectl(t, "-n", ns, "create", "configmap", "other", "--from-literal=a=1")
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps("+ns+")[3]", "other ")
	s.typeText("/^cfg")
	s.keys("Enter")
	s.waitFor("configmaps(" + ns + ")[1]")
	s.keys("Enter")
	s.waitFor("name: cfg", "live  managedFields hidden")

	kubectl(t, "-n", ns, "patch", "configmap", "cfg", "-p", `{"data":{"a":"2"}}`)
	s.waitFor(`a: "2"`)
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, "cfg", types.MergePatchType, []byte(`{"data":{"b":"x"}}`),
		metav1.PatchOptions{FieldManager: historyWriter}); err != nil {
		t.Fatalf("patch by %s: %v", historyWriter, err)
	}
	s.waitFor("b: x")
	kubectl(t, "-n", ns, "patch", "configmap", "cfg", "-p", `{"metadata":{"labels":{"tier":"web"}}}`)
	s.waitFor("tier: web")

	// The managers the server recorded: kubectl create and patch send their own names.
	managers := managersOf(t, ns, "cfg")
	for _, m := range []string{"kubectl-create", "kubectl-patch", historyWriter} {
		if !slices.Contains(managers, m) {
			t.Fatalf("managedFields name %v, not %s", managers, m)
		}
	}

	s.keys("h")
	scr := s.waitFor("history " + ns + "/cfg [4]")
	want := []struct {
		manager, operation, summary string
		diff                        []string
	}{ // newest first
		{"kubectl-patch", "Update", "+metadata.labels", []string{"+   labels:", "+     tier: web"}},
		{historyWriter, "Update", "+data.b", []string{"+   b: x"}},
		{"kubectl-patch", "Update", "data.a", []string{`-   a: "1"`, `+   a: "2"`}},
		{"kubectl-create", "Update", "first version seen", nil},
	}
	rows := screenRows(scr, "RESOURCEVERSION")
	if len(rows) != len(want) {
		t.Fatalf("history rows %q, want %d", rows, len(want))
	}
	for i, w := range want {
		f := strings.Fields(rows[i])
		if len(f) < 5 || f[2] != w.manager || f[3] != w.operation || !strings.Contains(rows[i], w.summary) {
			t.Errorf("history row %d = %q, want %s %s … %s", i, rows[i], w.manager, w.operation, w.summary)
		}
	}
	for i, w := range want[:3] {
		s.keys("Enter")
		scr := s.waitFor("diff " + ns + "/cfg")
		got := changedDiffLines(scr)
		if strings.Join(got, "\n") != strings.Join(w.diff, "\n") {
			t.Errorf("diff of version %d (%s): %q, want %q", i, w.manager, got, w.diff)
		}
		s.keys("Escape")
		s.waitFor("history " + ns + "/cfg [4]")
		s.keys("Down")
	}

	// The table's own versions of a row never opened in YAML: its cells.
	s.keys("Escape")
	s.waitFor("live  managedFields hidden")
	s.keys("Escape")
	s.waitFor("configmaps(" + ns + ")[1]")
	s.keys("Escape") // clears the filter
	s.waitFor("configmaps(" + ns + ")[3]")
	kubectl(t, "-n", ns, "patch", "configmap", "other", "-p", `{"data":{"b":"2"}}`)
	s.waitUntil("other with 2 data", func(scr string) bool { return strings.Contains(lineWith(scr, "other "), " 2 ") })
	s.typeText("/^other")
	s.keys("Enter")
	s.waitFor("configmaps(" + ns + ")[1]")
	s.keys("h")
	s.waitFor("history "+ns+"/other [2]", "cells: DATA 1→2", "as the table listed it")
}

// managersOf returns the field managers in an object's managedFields.
func managersOf(t *testing.T, ns, name string) []string {
	t.Helper()
	var obj struct {
		Metadata struct {
			ManagedFields []struct{ Manager string } `json:"managedFields"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal([]byte(kubectl(t, "-n", ns, "get", "configmap", name, "-o", "json", "--show-managed-fields")), &obj); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range obj.Metadata.ManagedFields {
		out = append(out, m.Manager)
	}
	return out
}

// screenRows returns the lines of a bordered table below its header line (the one containing header), up to
// the first empty one, without the borders.
func screenRows(scr, header string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(scr, "\n") {
		l = strings.TrimSpace(strings.Trim(l, "║│ "))
		switch {
		case strings.Contains(l, header):
			in = true
		case in && l == "":
			return out
		case in:
			out = append(out, l)
		}
	}
	return out
}

// changedDiffLines returns the removed and added lines a diff view shows in its frame, but for the
// resourceVersion (every write changes it).
func changedDiffLines(scr string) []string {
	var out []string
	for _, l := range strings.Split(scr, "\n") {
		if !strings.HasPrefix(l, "║") {
			continue
		}
		l = strings.TrimRight(strings.TrimPrefix(l, "║"), "║ ")
		if (strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "+ ")) && !strings.Contains(l, "resourceVersion:") {
			out = append(out, l)
		}
	}
	return out
}
