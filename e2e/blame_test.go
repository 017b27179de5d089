//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUIBlame: a Service applied server-side by two field managers, each with its own fields (a: the
// selector and port 80; b: an annotation and port 9090, an item of the same keyed list); b in its YAML
// view attributes each line to the manager that owns its field, both managers to the fields both own, and
// marks what no manager owns (server-set and defaulted fields).
func TestUIBlame(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml", `apiVersion: v1
kind: Service
metadata:
  name: shop
  labels: {app: shop}
spec:
  selector: {app: shop}
  ports:
  - {name: http, port: 80}
`)
	b := write("b.yaml", `apiVersion: v1
kind: Service
metadata:
  name: shop
  annotations: {team: blue}
spec:
  ports:
  - {name: metrics, port: 9090}
`)
	kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=a", "-f", a)
	kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=b", "-f", b)

	s := startUI(t, "-n", ns, "services")
	s.waitFor("services("+ns+")[1]", "shop ")
	s.keys("y") // (Enter drills down to the pods it selects)
	s.waitFor("name: shop", "live  managedFields hidden")
	s.keys("b")
	scr := s.waitFor("blame "+ns+"/shop at resourceVersion", "port: 9090")
	owner := func(line string) string {
		l := lineWith(scr, line)
		if l == "" {
			t.Fatalf("no line %q:\n%s", line, scr)
		}
		note, _, _ := strings.Cut(strings.TrimLeft(l, "║"), "│")
		return strings.TrimSpace(note)
	}
	for _, c := range []struct {
		line, manager string
	}{
		{"│     team: blue", "b"},
		{"│     app: shop", "a"}, // the label (the selector's line reads the same: both are a's)
		{"│   - name: http", "a"},
		{"│     port: 80", "a"},
		{"│   - name: metrics", "b"},
		{"│     port: 9090", "b"},
		{"│   clusterIP: ", unowned},
		{"│   uid: ", unowned},
		{"│     protocol: TCP", unowned},
		{"│     targetPort: 80", unowned},
		{"│   sessionAffinity: None", unowned},
	} {
		got := owner(c.line)
		if c.manager == unowned {
			if got != unowned {
				t.Errorf("%q: %q, want %s", c.line, got, unowned)
			}
			continue
		}
		if name, _, _ := strings.Cut(got, " "); name != c.manager {
			t.Errorf("%q: owned by %q, want %s", c.line, got, c.manager)
		}
	}
	if got := owner("│   ports:"); got != "" {
		t.Errorf("the ports line (structural, items owned) = %q, want blank", got)
	}
}

// unowned is what the blame view shows for a field no manager owns.
const unowned = "(no manager)"
