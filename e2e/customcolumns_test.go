//go:build e2e

package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/health"
)

// duoPod is a pod with two containers and a tier label, beside seedPods' pods (which have neither).
const duoPod = `apiVersion: v1
kind: Pod
metadata:
  name: duo
  labels: {app: duo, tier: front}
spec:
  containers:
  - {name: web, image: "nginx:1.27"}
  - {name: side, image: "busybox:1.36", command: [sleep, "3600"]}
`

// seedCustomColumnPods seeds ns with seedPods' three pods and duoPod.
func seedCustomColumnPods(t *testing.T, ns string) {
	t.Helper()
	seedPods(t, ns)
	manifest := filepath.Join(t.TempDir(), "duo.yaml")
	writeFile(t, manifest, duoPod)
	kubectl(t, "-n", ns, "apply", "-f", manifest)
}

// customColumnRows is `kubectl get RESOURCE -o custom-columns=spec --no-headers` in ns, each row's cells by
// the first cell (the name). Cells hold no spaces in these tests.
func customColumnRows(t *testing.T, ns, resource, spec string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(kubectl(t, "-n", ns, "get", resource, "--no-headers", "-o", "custom-columns="+spec)), "\n") {
		cells := strings.Fields(line)
		rows[cells[0]] = cells
	}
	return rows
}

// screenCells is the cells of the table row whose first cell is name ("" for none).
func screenCells(screen, name string) []string {
	for _, line := range strings.Split(screen, "\n") {
		cells := strings.Fields(strings.Trim(line, "│║ "))
		if len(cells) > 0 && cells[0] == name {
			return cells
		}
	}
	return nil
}

// rowLine is the screen line number of the row whose first cell is name (-1 for none).
func rowLine(screen, name string) int {
	for i, line := range strings.Split(screen, "\n") {
		if cells := strings.Fields(strings.Trim(line, "│║ ")); len(cells) > 0 && cells[0] == name {
			return i
		}
	}
	return -1
}

// runKscopeEnv is runKscope with environment variables added.
func runKscopeEnv(t testing.TB, environ []string, args ...string) (stdout, stderr string, exitCode int) {
	t.Helper()
	cmd := exec.Command(env.kscope, append([]string{"--kubeconfig", env.kubeconfig}, args...)...)
	cmd.Env = append(os.Environ(), environ...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		exitCode = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("run kscope: %v", err)
	}
	return out.String(), errOut.String(), exitCode
}

// waitForRows waits until the screen shows, for every row kubectl prints, the same cells; it returns the
// screen.
func waitForRows(t *testing.T, s *tmuxUI, want map[string][]string) string {
	t.Helper()
	return s.waitUntil("the rows kubectl prints", func(scr string) bool {
		for name, cells := range want {
			if !slices.Equal(screenCells(scr, name), cells) {
				return false
			}
		}
		return true
	})
}

// TestUICustomColumns: `kscope pods -o custom-columns=…` shows, cell for cell, what `kubectl get -o
// custom-columns=…` prints (several containers' images joined, <none> for a missing field), follows a patch,
// filters and sorts; the same from the command bar; a bad spec is one line and the table stays.
func TestUICustomColumns(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedCustomColumnPods(t, ns)
	spec := "NAME:.metadata.name,IMAGE:.spec.containers[*].image,TIER:.metadata.labels.tier,CONTAINERS:.spec.containers[*].name"
	s := startUI(t, "-n", ns, "pods", "-o", "custom-columns="+spec)
	s.waitFor("pods("+ns+")[4]", "synced  4/4")
	want := customColumnRows(t, ns, "pods", spec)
	if got := want["duo"]; len(got) != 4 || got[1] != "nginx:1.27,busybox:1.36" || got[2] != "front" {
		t.Fatalf("kubectl prints duo as %q", got)
	}
	if got := want["solo"]; len(got) != 4 || got[2] != "<none>" {
		t.Fatalf("kubectl prints solo as %q", got)
	}
	scr := waitForRows(t, s, want)
	header := lineWith(scr, "CONTAINERS")
	if i := strings.Index(header, "NAME"); i < 0 || i > strings.Index(header, "IMAGE") ||
		strings.Index(header, "IMAGE") > strings.Index(header, "TIER") || strings.Contains(header, "READY") {
		t.Errorf("header %q, want NAME IMAGE TIER CONTAINERS only", header)
	}

	kubectl(t, "-n", ns, "label", "pod", "solo", "tier=back")
	want = customColumnRows(t, ns, "pods", spec)
	if want["solo"][2] != "back" {
		t.Fatalf("kubectl prints solo as %q after the label", want["solo"])
	}
	waitForRows(t, s, want)

	s.typeText("/busybox")
	s.keys("Enter")
	scr = s.waitFor("pods(" + ns + ")[1] </busybox>")
	if screenCells(scr, "solo") != nil {
		t.Errorf("filter /busybox shows solo:\n%s", scr)
	}
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[4]")
	s.typeText("N")
	s.typeText("N")
	scr = s.waitFor("NAME↓")
	if rowLine(scr, "solo") > rowLine(scr, "duo") {
		t.Errorf("sorted by NAME descending, duo is above solo:\n%s", scr)
	}

	s.keys(":")
	s.typeText("pods -o custom-columns=NAME")
	s.keys("Enter")
	s.waitFor("unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>", "pods("+ns+")[4]")

	bar := "POD:.metadata.name,PHASE:.status.phase,RESTARTS:.status.containerStatuses[*].restartCount"
	s.keys(":")
	s.typeText("pods -o custom-columns=" + bar)
	s.keys("Enter")
	s.waitFor("PHASE", "RESTARTS")
	waitForRows(t, s, customColumnRows(t, ns, "pods", bar))
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// TestCustomColumnsBadSpecCLI: a bad -o is one line on stderr and a non-zero exit, before any screen.
func TestCustomColumnsBadSpecCLI(t *testing.T) {
	parallel(t)
	for _, tc := range []struct{ output, says string }{
		{"custom-columns=NAME", "error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>\n"},
		{"custom-columns=X:.spec.containers[", "error: custom-columns: column X: "},
		{"json", `error: unsupported output format "json"`},
	} {
		_, stderr, code := runKscope(t, "pods", "-o", tc.output)
		if code == 0 || !strings.HasPrefix(stderr, tc.says) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("-o %s: exit %d, stderr %q; want one line starting %q", tc.output, code, stderr, tc.says)
		}
	}
}

// TestUIViewsYAML: a views.yaml in kscope's folder lays out pods with a JSONPath column (cells as kubectl
// prints them, sorted as sortColumn says) and deployments with the server's columns picked and reordered;
// `kscope info` lists it; a broken one is one line and kscope works.
func TestUIViewsYAML(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedCustomColumnPods(t, ns)
	home := t.TempDir()
	views := filepath.Join(home, "kscope", "views.yaml")
	writeFile(t, views, `views:
  v1/pods:
    columns:
      - NAME
      - IMAGE:.spec.containers[*].image
      - "TIER:.metadata.labels.tier"
      - AGE
    sortColumn: NAME:desc
  apps/v1/deployments:
    columns: [AVAILABLE, NAME]
`)
	environ := []string{"XDG_CONFIG_HOME=" + home}
	s := startTmuxEnv(t, environ, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[4]", "NAME↓", "IMAGE", "TIER", "AGE")
	want := customColumnRows(t, ns, "pods", "NAME:.metadata.name,IMAGE:.spec.containers[*].image,TIER:.metadata.labels.tier")
	scr := s.waitUntil("the rows kubectl prints, with their age", func(scr string) bool {
		for name, cells := range want {
			got := screenCells(scr, name)
			if len(got) != 4 || !slices.Equal(got[:3], cells) {
				return false
			}
		}
		return true
	})
	if rowLine(scr, "solo") > rowLine(scr, "duo") {
		t.Errorf("sortColumn NAME:desc, but duo is above solo:\n%s", scr)
	}

	s.keys(":")
	s.typeText("deploy")
	s.keys("Enter")
	scr = s.waitFor("deployments("+ns+")[1]", "web ")
	header := lineWith(scr, "AVAILABLE")
	if strings.Index(header, "AVAILABLE") > strings.Index(header, "NAME") || strings.Contains(header, "READY") {
		t.Errorf("deployments header %q, want AVAILABLE then NAME only", header)
	}
	s.typeText("w")
	s.waitFor("READY", "UP-TO-DATE")
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")

	stdout, _, code := runKscopeEnv(t, environ, "info")
	if code != 0 || !strings.Contains(lineWith(stdout, "views"), views) || !strings.Contains(lineWith(stdout, "views"), "read") {
		t.Errorf("kscope info (exit %d) does not list %s as read:\n%s", code, views, stdout)
	}

	writeFile(t, views, "views:\n  v1/pods:\n    columns: [NAME, 'X:.spec.containers[']\n")
	b := startTmuxEnv(t, environ, env.kscope, "; sleep 600", "-n", ns, "pods")
	b.waitFor("config: "+views+`: view "v1/pods": column X:`, "pods("+ns+")[4]", "READY")
}

// TestUICustomResourceColumnsAndHealth: over a custom resource (served in JSON only, read item by item), custom
// columns show what `kubectl get -o custom-columns=…` prints, cell for cell (the kind and apiVersion of each
// object too), and follow a change to the status; the plain table's HEALTH column shows kstatus' word of each
// object, as computed from kubectl's JSON, and follows the Ready condition.
func TestUICustomResourceColumnsAndHealth(t *testing.T) {
	serial(t, "creates a CRD (cluster-wide discovery)")
	ns := testNamespace(t)
	group := gadgetCRD(t)
	resource := "gadgets." + group
	for _, name := range []string{"g1", "g2"} {
		applyYAML(t, "apiVersion: "+group+"/v1\nkind: Gadget\nmetadata: {name: "+name+", namespace: "+ns+
			", labels: {size: s-"+name+"}}\nspec: {replicas: 3, ratio: 1.5}\n")
	}
	ready := func(name, status, reason string) {
		kubectl(t, "-n", ns, "patch", resource, name, "--subresource=status", "--type=merge", "-p",
			`{"status":{"conditions":[{"type":"Ready","status":"`+status+`","reason":"`+reason+
				`","message":"m","lastTransitionTime":"2026-12-01T10:00:00Z"}]}}`)
	}
	ready("g1", "False", "Waiting")
	spec := "NAME:.metadata.name,KIND:.kind,API:.apiVersion,SIZE:.metadata.labels.size,REPLICAS:.spec.replicas," +
		"RATIO:.spec.ratio,REASON:.status.conditions[0].reason"
	want := customColumnRows(t, ns, resource, spec)
	if got := want["g1"]; len(got) != 7 || got[1] != "Gadget" || got[4] != "3" || got[5] != "1.5" || got[6] != "Waiting" {
		t.Fatalf("kubectl prints g1 as %q", got)
	}
	if got := want["g2"]; len(got) != 7 || got[6] != "<none>" {
		t.Fatalf("kubectl prints g2 as %q", got)
	}
	s := startUI(t, "-n", ns, resource, "-o", "custom-columns="+spec)
	s.waitFor("gadgets("+ns+")[2]", "synced  2/2")
	waitForRows(t, s, want)
	ready("g2", "True", "Reconciled")
	want = customColumnRows(t, ns, resource, spec)
	if want["g2"][6] != "Reconciled" {
		t.Fatalf("kubectl prints g2 as %q after the patch", want["g2"])
	}
	waitForRows(t, s, want)

	s.keys(":")
	s.typeText(resource)
	s.keys("Enter")
	s.waitUntil("the plain table", func(scr string) bool { // (its title is the custom columns')
		header := lineWith(scr, "NAME ")
		return strings.Contains(header, "AGE") && !strings.Contains(header, "KIND") && strings.Contains(scr, "synced  2/2")
	})
	s.typeText("H")
	kstatus := func() map[string]string {
		var list unstructured.UnstructuredList
		if err := list.UnmarshalJSON([]byte(kubectl(t, "-n", ns, "get", resource, "-o", "json"))); err != nil {
			t.Fatal(err)
		}
		words := map[string]string{}
		for i := range list.Items {
			words[list.Items[i].GetName()] = string(health.StatusOf(&list.Items[i]))
		}
		return words
	}
	words := kstatus()
	if words["g1"] != "InProgress" || words["g2"] != "Current" {
		t.Fatalf("kstatus of kubectl's JSON: %v", words)
	}
	healthShows := func(words map[string]string) {
		t.Helper()
		s.waitUntil(fmt.Sprintf("HEALTH %v", words), func(scr string) bool {
			return cellUnder(scr, "HEALTH", "g1 ") == words["g1"] && cellUnder(scr, "HEALTH", "g2 ") == words["g2"]
		})
	}
	healthShows(words)
	ready("g1", "True", "Reconciled")
	words = kstatus()
	if words["g1"] != "Current" {
		t.Fatalf("kstatus of g1 once ready: %v", words)
	}
	healthShows(words)
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}
