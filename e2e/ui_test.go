//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// uiScreenTimeout bounds every wait for the screen to show something: generous, since most of what the
// screen shows comes from a real API server on a possibly loaded machine.
const uiScreenTimeout = 60 * time.Second

// tmuxUI is bin/kscope running in a detached tmux session of its own (160×45).
type tmuxUI struct {
	t    *testing.T
	name string
}

// startUI runs kscope with args in a new tmux session; the session is killed when t ends. After kscope exits
// the pane shows "KSCOPE-EXIT=<code>".
func startUI(t *testing.T, args ...string) *tmuxUI {
	t.Helper()
	return startTmux(t, "; echo KSCOPE-EXIT=$?; sleep 600", args...)
}

// startTmux runs kscope with args in a new 160×45 tmux session, followed by the shell text after (what to print
// once kscope has exited); the session is killed when t ends, its last screen logged if t failed.
func startTmux(t *testing.T, after string, args ...string) *tmuxUI {
	t.Helper()
	return startTmuxBinary(t, env.kscope, after, args...)
}

// startTmuxBinary is startTmux for another kscope binary (env.plain for measurements).
func startTmuxBinary(t *testing.T, binary, after string, args ...string) *tmuxUI {
	t.Helper()
	return startTmuxEnv(t, nil, binary, after, args...)
}

// startTmuxEnv is startTmuxBinary with environment variables ("EDITOR=/path/script") set for kscope.
func startTmuxEnv(t *testing.T, environ []string, binary, after string, args ...string) *tmuxUI {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" { // .ci/run installs it: a missing tmux there is a broken CI, not a skip
			t.Fatal("tmux is not installed")
		}
		t.Skip("tmux is not installed")
	}
	s := &tmuxUI{t: t, name: "kscope-" + strings.ToLower(sanitize(t.Name())) + "-" + randomSuffix()}
	if !slices.ContainsFunc(environ, func(e string) bool {
		return strings.HasPrefix(e, "XDG_CONFIG_HOME=") || strings.HasPrefix(e, "KSCOPE_CONFIG_DIR=")
	}) {
		// kscope's folder of its own: where a session ends (state.yaml) never decides where another test's starts
		environ = append(slices.Clip(environ), "KSCOPE_CONFIG_DIR="+t.TempDir())
	}
	cmd := append([]string{binary, "--kubeconfig", env.kubeconfig}, args...)
	if len(environ) > 0 {
		cmd = append(append([]string{"env"}, environ...), cmd...)
	}
	shell := strings.Join(quoteAll(cmd), " ") + after
	out, err := exec.Command("tmux", "new-session", "-d", "-s", s.name, "-x", "160", "-y", "45", shell).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if t.Failed() { // trailing blank lines left out: CI prints the log's end, the failure line must stay in it
			t.Logf("last screen of %s:\n%s", s.name, strings.TrimRight(s.screen(), " \n"))
		}
		pid := s.panePID()
		_ = exec.Command("tmux", "kill-session", "-t", s.name).Run()
		waitExited(t, pid) // kscope writes its state.yaml as it ends: not into a folder being removed
	})
	return s
}

// panePID is the process id of the kscope the pane runs, 0 when there is none (it has exited).
func (s *tmuxUI) panePID() int {
	out, err := exec.Command("tmux", "display", "-p", "-t", s.name, "#{pane_pid}").Output()
	if err != nil {
		return 0
	}
	children, err := exec.Command("pgrep", "-P", strings.TrimSpace(string(out))).Output()
	if err != nil {
		return 0
	}
	for _, f := range strings.Fields(string(children)) {
		if pid, err := strconv.Atoi(f); err == nil {
			return pid
		}
	}
	return 0
}

// waitExited waits, 20 s at most, until process pid (0: none) has exited (gone, or a zombie).
func waitExited(t testing.TB, pid int) {
	for deadline := time.Now().Add(20 * time.Second); pid > 0 && running(t, pid) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
}

// running tells whether process pid exists and has not exited (a zombie has): kill(pid, 0) says whether it
// exists, its /proc stat whether it is a zombie. Without a /proc to tell, t fails: a process that exited
// but was not reaped would otherwise count as running, or the check would say nothing.
func running(t testing.TB, pid int) bool {
	t.Helper()
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if _, self := os.Stat("/proc/self/stat"); self != nil {
			t.Fatalf("no /proc here: cannot tell whether process %d has exited", pid)
		}
		return false // it exited between the two looks
	}
	_, after, ok := strings.Cut(string(stat), ") ")
	return ok && !strings.HasPrefix(after, "Z") && !strings.HasPrefix(after, "X")
}

func quoteAll(args []string) []string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return q
}

// keys sends tmux key names (Enter, Escape, C-d, Tab, Down) or, with literal, text as typed.
func (s *tmuxUI) keys(keys ...string) {
	s.t.Helper()
	args := append([]string{"send-keys", "-t", s.name}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		s.t.Fatalf("tmux send-keys %v: %v\n%s", keys, err, out)
	}
}

// typeText types text literally.
func (s *tmuxUI) typeText(text string) {
	s.t.Helper()
	if out, err := exec.Command("tmux", "send-keys", "-t", s.name, "-l", "--", text).CombinedOutput(); err != nil {
		s.t.Fatalf("tmux send-keys -l %q: %v\n%s", text, err, out)
	}
}

// screen returns the pane's text.
func (s *tmuxUI) screen() string {
	out, err := exec.Command("tmux", "capture-pane", "-p", "-t", s.name).Output()
	if err != nil {
		return "(capture-pane failed: " + err.Error() + ")"
	}
	return string(out)
}

// waitUntil polls the screen until ok accepts it, failing t after uiScreenTimeout.
func (s *tmuxUI) waitUntil(what string, ok func(screen string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(uiScreenTimeout)
	for {
		scr := s.screen()
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed %s:\n%s", what, strings.TrimRight(scr, " \n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitFor waits until the screen contains every one of texts.
func (s *tmuxUI) waitFor(texts ...string) string {
	s.t.Helper()
	return s.waitUntil(strings.Join(texts, " and "), func(scr string) bool {
		for _, text := range texts {
			if !strings.Contains(scr, text) {
				return false
			}
		}
		return true
	})
}

// typeUntilUID types text (a write's key) and waits for want. While the table has not read the selected row's
// UID yet, kscope refuses the write in one line ("its UID is still being read") and sends nothing: then it
// types text again, a second later, unless the screen has moved on meanwhile.
func (s *tmuxUI) typeUntilUID(text, want string) string {
	s.t.Helper()
	return s.sendUntilUID(func() { s.typeText(text) }, want)
}

// keysUntilUID is typeUntilUID for tmux key names (C-d).
func (s *tmuxUI) keysUntilUID(key, want string) string {
	s.t.Helper()
	return s.sendUntilUID(func() { s.keys(key) }, want)
}

// sendUntilUID sends a write's key with send and waits for want, sending it again while kscope says the
// selected row's UID is still being read.
func (s *tmuxUI) sendUntilUID(send func(), want string) string {
	s.t.Helper()
	const notYet = "its UID is still being read"
	send()
	return s.waitUntil(want, func(scr string) bool {
		if strings.Contains(scr, want) {
			return true
		}
		if strings.Contains(scr, notYet) {
			time.Sleep(time.Second)
			if now := s.screen(); strings.Contains(now, notYet) && !strings.Contains(now, want) {
				send()
			}
		}
		return false
	})
}

// waitGone waits until the screen no longer contains text.
func (s *tmuxUI) waitGone(text string) string {
	s.t.Helper()
	return s.waitUntil("no "+text, func(scr string) bool { return !strings.Contains(scr, text) })
}

// lineWith returns the first screen line containing text, or "".
func lineWith(screen, text string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// seedPods creates, in ns, a Deployment "web" with 2 replicas and a bare pod "solo", and waits (up to 60 s)
// for the 3 pods.
func seedPods(t *testing.T, ns string) {
	t.Helper()
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27", "--replicas=2")
	kubectl(t, "-n", ns, "run", "solo", "--image=nginx:1.27", "--labels=app=solo")
	deadline := time.Now().Add(60 * time.Second)
	for {
		out := kubectl(t, "-n", ns, "get", "pods", "--no-headers")
		if strings.Count(out, "\n") == 3 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the 3 pods never appeared in %s within 60 s:\n%s", ns, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestUIPodsFilterSortYAML opens pods in a seeded namespace, filters, sorts and opens a pod's YAML.
func TestUIPodsFilterSortYAML(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[3]", "solo", "web-", "synced  3/3", "Namespace: "+ns)

	s.typeText("/solo")
	s.keys("Enter")
	scr := s.waitFor("pods(" + ns + ")[1] </solo>")
	if strings.Contains(scr, "web-") {
		t.Errorf("filter /solo still shows web pods:\n%s", scr)
	}
	s.typeText("/-l app=web")
	s.keys("Enter")
	scr = s.waitFor("pods(" + ns + ")[2] </-l app=web>")
	if strings.Contains(lineWith(scr, "solo"), "solo") {
		t.Errorf("label filter app=web shows solo:\n%s", scr)
	}
	s.typeText("/-l app in (")
	s.keys("Enter")
	s.waitFor("invalid label selector", "</-l app=web>")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[3]")

	s.typeText("N")
	s.waitFor("NAME↑")
	s.typeText("N")
	scr = s.waitFor("NAME↓")
	if strings.Index(scr, "web-") > strings.Index(scr, "solo") {
		t.Errorf("sorted by name descending, web-* is below solo:\n%s", scr)
	}

	s.typeText("/solo")
	s.keys("Enter")
	s.waitFor("</solo>")
	s.typeText("y") // (enter: its containers)
	scr = s.waitFor("kind: Pod", "name: solo", "image: nginx:1.27", "managedFields hidden")
	if strings.Contains(scr, "managedFields:") {
		t.Errorf("YAML shows managedFields by default:\n%s", scr)
	}
	s.typeText("/nginx")
	s.keys("Enter")
	s.waitFor("</nginx> 1/")
	s.keys("Escape") // clears the search
	s.waitGone("</nginx>")
	s.keys("Escape") // back to the table
	s.waitFor("pods(" + ns + ")[1] </solo>")
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// TestUILiveChanges shows, without any key press, pods appearing and disappearing, a label change and the
// deletion in the YAML view, and a Deployment scaling.
func TestUILiveChanges(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods(" + ns + ")[3]")
	kubectl(t, "-n", ns, "run", "late", "--image=nginx:1.27")
	s.waitFor("pods("+ns+")[4]", "late ")
	kubectl(t, "-n", ns, "delete", "pod", "late", "--grace-period=0", "--force", "--wait=false")
	s.waitFor("pods(" + ns + ")[3]")
	s.waitGone("late ")

	s.typeText("/solo")
	s.keys("Enter")
	s.waitFor("</solo>")
	s.typeText("y")                                       // (enter: its containers)
	s.waitFor("name: solo", "live  managedFields hidden") // the YAML view's status line: the object is watched
	kubectl(t, "-n", ns, "label", "pod", "solo", "color=blue")
	s.waitFor("color: blue")
	kubectl(t, "-n", ns, "delete", "pod", "solo", "--grace-period=0", "--force", "--wait=false")
	s.waitFor("(deleted)")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[0] </solo>")

	s.typeText(":deploy")
	s.keys("Enter")
	s.waitFor("deployments(" + ns + ")[1]")
	kubectl(t, "-n", ns, "scale", "deployment", "web", "--replicas=4")
	s.waitUntil("web with 4 replicas", func(scr string) bool {
		return strings.Contains(lineWith(scr, "web "), "/4")
	})
}

// TestUIDeleteWithConfirmation deletes a pod through the confirmation modal; Cancel first sends nothing.
func TestUIDeleteWithConfirmation(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods(" + ns + ")[3]")
	s.typeText("/solo")
	s.keys("Enter")
	s.waitFor("</solo>")
	s.keysUntilUID("C-d", "Delete pods solo?")
	s.waitFor("Delete pods solo?", "namespace: "+ns)
	s.keys("Enter") // Cancel has the focus
	s.waitGone("Delete pods")
	if out := kubectl(t, "-n", ns, "get", "pod", "solo", "-o", "name"); strings.TrimSpace(out) != "pod/solo" {
		t.Fatalf("Cancel deleted the pod: %q", out)
	}
	s.keys("C-d")
	s.waitFor("Delete pods solo?", "namespace: "+ns)
	s.keys("Tab", "Enter")
	s.waitFor("deleted pods " + ns + "/solo")
	// The delete was accepted: the pod is gone or terminating (kwok finishes graceful deletion when it gets to it).
	out := kubectl(t, "-n", ns, "get", "pods", "--field-selector=metadata.name=solo",
		"-o", "jsonpath={.items[*].metadata.deletionTimestamp}")
	if n := kubectl(t, "-n", ns, "get", "pods", "--field-selector=metadata.name=solo", "-o", "name"); strings.TrimSpace(n) != "" && out == "" {
		t.Fatal("pod solo is neither gone nor terminating after the delete")
	}
}

// TestUIReadOnlyRefusesDelete shows the read-only mark and refuses ctrl-d without a request.
func TestUIReadOnlyRefusesDelete(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	s := startUI(t, "--readonly", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[3]", "READ-ONLY")
	s.typeText("/solo")
	s.keys("Enter")
	s.waitFor("</solo>")
	s.keys("C-d")
	scr := s.waitFor("read-only mode: refusing to delete pods " + ns + "/solo")
	if strings.Contains(scr, "Delete pods") {
		t.Errorf("read-only mode asked for confirmation:\n%s", scr)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0") // kscope can send nothing more: a delete it sent would have reached the server
	if out := kubectl(t, "-n", ns, "get", "pod", "solo", "-o", "jsonpath={.metadata.deletionTimestamp}"); out != "" {
		t.Errorf("pod solo is being deleted in read-only mode")
	}
}

// TestUIUnknownResource: an unknown name in the command bar is a one-line message with suggestions; on the
// command line it is an error before the screen is taken, with a non-zero exit.
func TestUIUnknownResource(t *testing.T) {
	parallel(t)
	s := startUI(t, "-n", "shop", "pods")
	s.waitFor("pods(shop)")
	s.typeText(":deploymnts")
	s.keys("Enter")
	s.waitUntil("a one-line message naming deploymnts and suggesting deployments", func(scr string) bool {
		return strings.Contains(lineWith(scr, `"deploymnts"`), "deployments")
	})
	s.waitFor("pods(shop)") // still on the table

	cli := startUI(t, "nosuchthing")
	scr := cli.waitFor("KSCOPE-EXIT=1")
	if !strings.Contains(scr, "error: ") || !strings.Contains(scr, "nosuchthing") {
		t.Errorf("unknown resource on the command line:\n%s", scr)
	}
}

// TestUIPickerAndCRD: the picker lists every resource; a CRD created while kscope runs appears without a
// restart and opens as a live table with its printer columns.
func TestUIPickerAndCRD(t *testing.T) {
	serial(t, "creates a CRD (cluster-wide discovery) and an object in the seeded namespace shop")
	s := startUI(t, "-n", "shop")
	s.waitFor("resources[", "NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND", "configmaps")
	s.typeText("widgets")
	s.waitFor("widgets", "shop.example.com/v1", "Widget")
	s.keys("Enter")
	s.waitFor("widgets(shop)[", "synced", "SIZE", "WEIGHT", "COLOR", "READY", "BUILT", "flux-capacitor")

	group := "e2e" + randomSuffix() + ".example.com"
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.` + group + `
spec:
  group: ` + group + `
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo, shortNames: [gz]}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    additionalPrinterColumns:
    - {name: Flavor, type: string, jsonPath: .spec.flavor}
`
	apply := func(what, doc string) {
		cmd := exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "apply", "-f", "-")
		cmd.Stdin = strings.NewReader(doc)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("create %s: %v\n%s", what, err, out)
		}
	}
	apply("CRD", crd)
	t.Cleanup(func() { kubectl(t, "delete", "crd", "gizmos."+group, "--wait=false") })
	s.keys("Escape")
	s.waitFor("resources[1] </widgets>")
	s.keys("Escape") // clear the typed filter
	s.waitGone("</widgets>")
	s.typeText("gizmos")
	s.waitFor(group + "/v1")
	// The new kind opens with its own printer columns.
	waitForSeen(t, 60*time.Second, "the gizmo CRD serves objects", func() (bool, string) {
		cmd := exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "apply", "-f", "-")
		cmd.Stdin = strings.NewReader("apiVersion: " + group + "/v1\nkind: Gizmo\nmetadata: {name: g1, namespace: shop}\nspec: {flavor: mint}\n")
		out, err := cmd.CombinedOutput()
		return err == nil, string(out)
	})
	t.Cleanup(func() {
		kubectl(t, "-n", "shop", "delete", "gizmos."+group, "g1", "--ignore-not-found", "--wait=false")
	})
	s.keys("Enter")
	s.waitFor("gizmos(shop)[1]", "synced", "FLAVOR", "mint")
}

// TestUIEventsOwnerNamespaces: `shift-j` walks pod → ReplicaSet → Deployment, `shift-e` lists a pod's events live, `0`
// switches to all namespaces and the `:ns` picker back to one.
func TestUIEventsOwnerNamespaces(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods(" + ns + ")[3]")
	s.typeText("/web")
	s.keys("Enter")
	s.waitFor("pods(" + ns + ")[2] </web>")
	s.typeText("J")
	s.waitFor("replicasets("+ns+")[1]", "<pods> <replicasets>")
	s.typeText("J")
	s.waitFor("deployments("+ns+")[1]", "<replicasets> <deployments>")
	s.keys("Escape")
	s.waitFor("replicasets(" + ns + ")[1]")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[2] </web>")

	s.typeText("E")
	s.waitFor("<pods> <events(web-", "Scheduled")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[2] </web>")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[3]")

	// All namespaces on deployments (pods across a benchmark-loaded cluster can take long to list).
	s.typeText(":deploy")
	s.keys("Enter")
	s.waitFor("deployments(" + ns + ")[1]")
	s.typeText("0")
	s.waitFor("deployments(all)[", "NAMESPACE", "Namespace: all", "synced")
	s.typeText(":ns")
	s.keys("Enter")
	s.waitFor("namespaces[", "kube-system")
	s.typeText("/" + ns)
	s.keys("Enter")
	s.waitFor("namespaces[1]")
	s.keys("Enter")
	s.waitFor("deployments("+ns+")[1]", "Namespace: "+ns)
}

// TestUIContextSwitchAndResize: `:ctx viewer` rebuilds the clients (the viewer may not list pods: the table
// says so), and the screen is redrawn for a smaller terminal.
func TestUIContextSwitchAndResize(t *testing.T) {
	parallel(t)
	s := startUI(t, "-n", "shop", "pods")
	s.waitFor("Context: admin", "pods(shop)[", "synced")
	s.typeText(":ctx viewer")
	s.keys("Enter")
	s.waitFor("Context: viewer", "switched to context viewer", "resources[")
	s.typeText(":pods")
	s.keys("Enter")
	s.waitFor("forbidden: ", `User "viewer" cannot list resource "pods"`)
	s.typeText(":ctx nosuchcontext")
	s.keys("Enter")
	s.waitFor("context nosuchcontext:", "Context: viewer")

	if out, err := exec.Command("tmux", "resize-window", "-t", s.name, "-x", "80", "-y", "24").CombinedOutput(); err != nil {
		t.Fatalf("tmux resize-window: %v %s (the resize is what this test checks: it fails rather than skips)", err, out)
	}
	scr := s.waitUntil("a 24-line screen with the status line at the bottom", func(scr string) bool {
		lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
		return len(lines) == 24 && strings.HasPrefix(lines[23], "forbidden")
	})
	for i, l := range strings.Split(scr, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line %d is wider than 80 columns: %q", i, l)
		}
	}
}
