package versions

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// readObject reads a JSON object from testdata (as the server returned it, managedFields and all).
func readObject(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

// TestBlameDeployment: a Deployment as the server returned it after `kubectl apply --server-side` by
// managers a and b on different fields and a `kubectl patch` of replicas: each line is attributed to the
// manager whose FieldsV1 owns its field, atomic values (selector, args) whole, keyed list items (containers
// by name, ports by containerPort and protocol, env by name) by their keys; fields set by the server or by
// defaults are unowned; structural lines with owned content are left blank.
func TestBlameDeployment(t *testing.T) {
	lines, err := blameYAML(readObject(t, "blame_deployment.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	const blank, none = "", "(none)"
	want := []struct{ line, owners string }{
		{"apiVersion: apps/v1", none},
		{"metadata:", blank},
		{"    deployment.kubernetes.io/revision: \"2\"", "kube-controller-manager/status"},
		{"    team: blue", "b"},
		{"  creationTimestamp: ", none},
		{"    app: probe", "a"},
		{"  replicas: 2", "kubectl-patch"},
		{"  selector:", "a"},
		{"      app: probe", "a"},
		{"  strategy:", none},
		{"      maxSurge: 25%", none},
		{"  template:", blank},
		{"      - args:", "a"},
		{"        - --b", "a"},
		{"        env:", blank},
		{"        - name: MODE", "b"},
		{"          value: fast", "b"},
		{"        image: nginx:1", "a"},
		{"        imagePullPolicy: IfNotPresent", none},
		{"        name: web", "a,b"},
		{"        - containerPort: 80", "a"},
		{"          protocol: TCP", none},
		{"        resources: {}", none},
		{"  - lastTransitionTime: \"2026-12-01T21:29:56Z\"", "kube-controller-manager/status"},
		{"  updatedReplicas: 2", "kube-controller-manager/status"},
	}
	next := 0
	for _, w := range want {
		found := false
		for ; next < len(lines); next++ {
			l := lines[next]
			if !strings.HasPrefix(l.text, w.line) {
				continue
			}
			var names []string
			for _, o := range l.owners {
				names = append(names, o.Name())
			}
			got := strings.Join(names, ",")
			if got == "" && !l.blank {
				got = none
			}
			if got != w.owners {
				t.Errorf("%q: owners %q, want %q", l.text, got, w.owners)
			}
			found = true
			next++
			break
		}
		if !found {
			t.Fatalf("no line %q (in order)", w.line)
		}
	}
}
