//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
)

// podServerReply is what the devcluster's pod server answers to GET path through a port-forward.
func podServerReply(path string) string { return "kscope devcluster pod server: GET " + path }

// labelledPod creates a Running pod app=web with one container serving port 8080 (named http) on a fake
// node, and a Service web (port 80 → target port http) selecting it.
func labelledPod(t *testing.T, ns string) {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns, Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{NodeName: "kwok-node-0", Containers: []corev1.Container{{
			Name: "web", Image: "registry.example.com/web:1.0",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
		}}},
	}
	createRunningPod(t, pod)
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}}},
	}
	if _, err := cs.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create service: %v", err)
	}
}

// ageCells matches the AGE column's values, which move on while a shell runs.
var ageCells = regexp.MustCompile(`\b\d+[smhd]\b`)

// tableScreen is the screen without the prompt line (the last but one) and without the live cells: AGE
// blanked, and of each table line only its first five columns (NAME … AGE; the metrics columns arrive on
// their own, whenever metrics-server has scraped the pod).
func tableScreen(scr string) string {
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	if len(lines) >= 2 {
		lines = append(lines[:len(lines)-2], lines[len(lines)-1])
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "║") {
			f := strings.Fields(strings.Trim(l, "║"))
			lines[i] = "║" + strings.Join(f[:min(5, len(f))], " ")
		}
	}
	return ageCells.ReplaceAllString(strings.Join(lines, "\n"), "AGE")
}

// TestUIShell: s on a running pod suspends the TUI for a shell in its container; what is typed there runs in
// the container, the terminal's size and its changes reach it, and after exit the TUI is back as it was (at
// the terminal's new size when it was resized meanwhile).
func TestUIShell(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	pod := streamsPod(t, ns)
	s := startUI(t, "-n", ns, "pods")
	before := s.waitFor("pods("+ns+")[1]", pod, "synced  1/1", "Running")
	enterShell(s, ns)
	// The terminal's size, and a change of it, reach the shell. A change reaches it a moment after the
	// terminal's (signal, resize stream, kubelet): ask again until it has.
	sttySize := func(want string) {
		t.Helper()
		deadline := time.Now().Add(uiScreenTimeout)
		for {
			s.keys("C-l") // a clean screen: an earlier answer is not this one
			s.typeText("stty size")
			s.keys("Enter")
			time.Sleep(500 * time.Millisecond)
			scr := s.screen()
			if slices.ContainsFunc(strings.Split(scr, "\n"), func(l string) bool { return strings.TrimSpace(l) == want }) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("stty size in the shell never printed %s:\n%s", want, scr)
			}
		}
	}
	sttySize("45 160")
	s.resize(120, 40)
	sttySize("40 120")
	s.resize(160, 45)
	sttySize("45 160")
	s.typeText("exit")
	s.keys("Enter")
	after := s.waitFor("pods("+ns+")[1]", "shell in "+ns+"/"+pod+" (streams-e2e) ended")
	if tableScreen(after) != tableScreen(before) {
		t.Errorf("the screen after the shell is not the one before:\n--- before\n%s--- after\n%s", before, after)
	}

	// A terminal resized while the shell runs: the TUI comes back at the new size.
	s.typeText("s")
	s.waitGone("pods(" + ns + ")[1]")
	s.resize(120, 40)
	sttySize("40 120")
	s.typeText("exit")
	s.keys("Enter")
	s.waitUntil("the table drawn 120 columns wide", func(scr string) bool {
		bottom := lineWith(scr, "╚")
		return strings.Contains(scr, "pods("+ns+")[1]") && len([]rune(strings.TrimRight(bottom, " "))) == 120
	})
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// TestUIPortForward: shift-f on a pod and on a service forwards a local port to the pod server (a local port
// in use is one line); :pf lists both; ctrl-d stops one and frees its port; the other, once its only pod is
// deleted, says it is reconnecting; shift-f on a deployment reaches one of its pods.
func TestUIPortForward(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	labelledPod(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "web ", "synced  1/1", "Running")

	podPort := forwardFromUI(t, s, "F", ns+"/web:8080", ns+"/web:8080")
	getThrough(t, podPort, "/kscope-e2e-pod")
	typeForward(t, s, "F", ns+"/web:8080", podPort) // the same local port again: in use
	s.waitFor(fmt.Sprintf("port-forward %s/web:8080: unable to listen on port %d", ns, podPort))

	s.typeText(":svc")
	s.keys("Enter")
	s.waitFor("services("+ns+")[1]", "web ")
	svcPort := forwardFromUI(t, s, "F", ns+"/web:8080", "service "+ns+"/web:80 (now pod web:8080)")
	getThrough(t, svcPort, "/kscope-e2e-svc")

	s.typeText(":pf")
	s.keys("Enter")
	scr := s.waitFor("portforwards[2]", fmt.Sprintf("127.0.0.1:%d", podPort), fmt.Sprintf("127.0.0.1:%d", svcPort))
	if n := len(regexp.MustCompile(`\d\d:\d\d:\d\d +forwarding to web:8080 +0`).FindAllString(scr, -1)); n != 2 {
		t.Errorf("%d active forwards listed, want 2:\n%s", n, scr)
	}
	s.keys("C-d") // the first: the pod's
	s.waitFor("Stop the port-forward?", fmt.Sprintf("from 127.0.0.1:%d", podPort))
	s.keys("Tab", "Enter")
	s.waitFor(fmt.Sprintf("stopped the port-forward 127.0.0.1:%d", podPort), "portforwards[1]")
	waitForSeen(t, 10*time.Second, fmt.Sprintf("local port %d is free again", podPort), func() (bool, string) {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", podPort))
		if err != nil {
			return false, err.Error()
		}
		l.Close()
		return true, ""
	})
	getThrough(t, svcPort, "/still-forwarded")

	kubectl(t, "-n", ns, "delete", "pod", "web", "--grace-period=0", "--force", "--wait=false")
	s.waitFor("reconnecting since ")

	// A deployment reaches one of its running pods.
	kubectl(t, "-n", ns, "create", "deployment", "api", "--image=registry.example.com/api:1.0", "--port=8080")
	kubectl(t, "-n", ns, "wait", "--for=condition=Available", "deployment/api", "--timeout=60s")
	s.typeText(":deploy")
	s.keys("Enter")
	s.waitFor("deployments("+ns+")[1]", "api ")
	deployPort := forwardFromUI(t, s, "F", ns+"/api-", "deployment "+ns+"/api:8080 (now pod api-")
	getThrough(t, deployPort, "/kscope-e2e-deploy")
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// typeForward presses key on the selected object, accepts the only port and types the local port port
// (0: a free one) in the prompt for target (its start, "ns/pod:8080" or "ns/api-"); it returns the port.
func typeForward(t *testing.T, s *tmuxUI, key, target string, port int) int {
	t.Helper()
	s.typeText(key)
	s.waitFor("port-forward " + target)
	s.waitFor("from local port:")
	if port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	s.keys("C-u")
	s.typeText(fmt.Sprint(port))
	s.keys("Enter")
	return port
}

// forwardFromUI is typeForward to a free port, then waits until kscope says it forwards it to what (the
// start of what it names: "ns/pod:8080", "service ns/web:80 (now pod web:8080)").
func forwardFromUI(t *testing.T, s *tmuxUI, key, target, what string) int {
	t.Helper()
	port := typeForward(t, s, key, target, 0)
	s.waitFor(fmt.Sprintf("forwarding 127.0.0.1:%d → %s", port, what))
	return port
}

// resize sets the tmux window's size (a terminal resized by its user).
func (s *tmuxUI) resize(width, height int) {
	s.t.Helper()
	out, err := exec.Command("tmux", "resize-window", "-t", s.name, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height)).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux resize-window: %v\n%s", err, out)
	}
}

// getThrough GETs path from the local port and checks the pod server's reply.
func getThrough(t *testing.T, port int, path string) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
	if err != nil {
		t.Fatalf("GET through the port-forward on %d: %v", port, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if want := podServerReply(path); resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != want {
		t.Errorf("GET through the port-forward on %d: %s %q, want 200 %q", port, resp.Status, body, want)
	}
}

// TestUIReadOnlyRefusesShellAndPortForward: with --readonly, s, a and shift-f are refused on screen, and the
// audit log holds no exec, attach or port-forward request of the session (nor any other write).
func TestUIReadOnlyRefusesShellAndPortForward(t *testing.T) {
	serial(t, "counts the tester's kscope requests in the audit log")
	ns := testNamespace(t)
	labelledPod(t, ns)
	from := time.Now()
	s := startUI(t, "--context", "tester", "--readonly", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "READ-ONLY", "synced  1/1")
	s.typeText("s")
	s.waitFor("read-only mode: refusing to shell pods " + ns + "/web")
	s.typeText("a")
	s.waitFor("read-only mode: refusing to attach pods " + ns + "/web")
	s.typeText("F")
	s.waitFor("read-only mode: refusing to port-forward pods " + ns + "/web")
	s.typeText(":svc")
	s.keys("Enter")
	s.waitFor("services("+ns+")[1]", "web ")
	s.typeText("F")
	s.waitFor("read-only mode: refusing to port-forward services " + ns + "/web")
	s.keys("C-c")
	s.waitFor("KSCOPE-EXIT=0")
	to := time.Now()
	waitAuditLogged(t, "tester")
	reqs := auditRequests(t, "tester", "kscope", from, to)
	if len(reqs) == 0 {
		t.Fatal("no request of tester's kscope in the audit log: the check proves nothing")
	}
	for _, ev := range reqs {
		sub := ""
		if ev.ObjectRef != nil {
			sub = ev.ObjectRef.Subresource
		}
		if sub == "exec" || sub == "attach" || sub == "portforward" || ev.Verb == "create" ||
			strings.Contains(ev.URI, "/exec") || strings.Contains(ev.URI, "/attach") || strings.Contains(ev.URI, "/portforward") {
			t.Errorf("read-only kscope sent %s %s", ev.Verb, ev.URI)
		}
	}
	t.Logf("tester's kscope requests: %d (%s)", len(reqs), describeRequests(reqs))
}

// TestUIShellPortForwardNotPermitted: the viewer may read pods but not exec into them, attach to them nor
// forward to them: the status line says so once the server has answered, the keys say why and send nothing
// (audit log).
func TestUIShellPortForwardNotPermitted(t *testing.T) {
	serial(t, "counts the viewer's kscope requests in the audit log")
	ns := testNamespace(t)
	labelledPod(t, ns)
	kubectl(t, "-n", ns, "create", "role", "pod-reader", "--verb=get,list,watch", "--resource=pods")
	kubectl(t, "-n", ns, "create", "rolebinding", "viewer-reads-pods", "--role=pod-reader", "--user=viewer")
	from := time.Now()
	s := startUI(t, "--context", "viewer", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "synced  1/1")
	s.waitUntil("the status line naming shell, attach and port-forward as not permitted", func(scr string) bool {
		l := lineWith(scr, "not permitted: ")
		return strings.Contains(l, "shell") && strings.Contains(l, "attach") && strings.Contains(l, "port-forward")
	})
	s.typeText("s")
	s.waitFor("not permitted: you may not shell pods " + ns + "/web")
	s.typeText("a")
	s.waitFor("not permitted: you may not attach pods " + ns + "/web")
	s.typeText("F")
	s.waitFor("not permitted: you may not port-forward pods " + ns + "/web")
	s.keys("C-c")
	s.waitFor("KSCOPE-EXIT=0")
	to := time.Now()
	waitAuditLogged(t, "viewer")
	reqs := auditRequests(t, "viewer", "kscope", from, to)
	reviews := 0
	for _, ev := range reqs {
		if ev.ObjectRef != nil && slices.Contains([]string{"exec", "attach", "portforward"}, ev.ObjectRef.Subresource) {
			t.Errorf("kscope sent %s %s though not permitted", ev.Verb, ev.URI)
		}
		if strings.Contains(ev.URI, "selfsubjectaccessreviews") || strings.Contains(ev.URI, "selfsubjectrulesreviews") {
			reviews++
		}
	}
	if reviews == 0 {
		t.Errorf("no access or rules review in the audit log (%s): the server was not asked", describeRequests(reqs))
	}
}

// TestUIShellPortForwardPodNotRunning: a pod that is not running gets neither a shell, an attachment nor a
// forward: one line each, and the TUI stays.
func TestUIShellPortForwardPodNotRunning(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "stuck", Namespace: ns},
		Spec: corev1.PodSpec{NodeSelector: map[string]string{"kscope-e2e/no-such-node": "true"},
			Containers: []corev1.Container{{Name: "c", Image: "registry.example.com/c:1.0",
				Ports: []corev1.ContainerPort{{ContainerPort: 8080}}}}},
	}
	if _, err := cs.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod: %v", err)
	}
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "stuck", "Pending", "synced  1/1")
	s.typeText("s")
	s.waitFor("shell " + ns + "/stuck: the pod is Pending, not running")
	s.typeText("a")
	s.waitFor("attach " + ns + "/stuck: the pod is Pending, not running")
	s.typeText("F")
	s.waitFor("port-forward pods " + ns + "/stuck: pod stuck is Pending, not running")
	scr := s.waitFor("pods(" + ns + ")[1]")
	if strings.Contains(scr, "goroutine ") || strings.Contains(scr, "KSCOPE-EXIT") {
		t.Errorf("kscope failed:\n%s", scr)
	}
}

// enterShell opens a shell in the one pod of the table of pods(ns) (s) and waits until a command's output in
// it shows.
func enterShell(s *tmuxUI, ns string) {
	s.t.Helper()
	s.typeText("s")
	s.waitGone("pods(" + ns + ")[1]") // the TUI gave the terminal to the shell
	marker := "kscope-" + randomSuffix()
	s.typeText("echo " + marker)
	s.keys("Enter")
	s.waitUntil("the shell's output "+marker, func(scr string) bool {
		return slices.ContainsFunc(strings.Split(scr, "\n"), func(l string) bool { return strings.TrimSpace(l) == marker })
	})
}
