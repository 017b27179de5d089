//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestStreamsDevcluster checks, through kubectl, what the devcluster serves for pod streams: logs (and a
// line appended while following), exec, port-forward to the local pod server, and kubectl top from
// metrics-server scraping kwok. It proves the cluster side that kscope's logs, shell, port-forward and
// metrics use.
func TestStreamsDevcluster(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	pod := streamsPod(t, ns)

	out := kubectl(t, "-n", ns, "logs", pod, "--tail", "5")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 5 || lines[0] == "" {
		t.Errorf("kubectl logs --tail 5 printed %d lines, want 5:\n%s", len(lines), out)
	}
	followShowsAppendedLine(t, ns, pod)

	if out := kubectl(t, "-n", ns, "exec", pod, "--", "sh", "-c", "echo kscope-ok"); strings.TrimSpace(out) != "kscope-ok" {
		t.Errorf("kubectl exec … sh -c 'echo kscope-ok' printed %q", out)
	}
	portForwardReachesPodServer(t, ns, pod)

	waitForSeen(t, metricsTimeout, "kubectl top pods lists the pod", func() (bool, string) {
		r := runKubectl(t, "-n", ns, "top", "pods", "--no-headers")
		return r.code == 0 && strings.HasPrefix(r.stdout, pod+" "), r.stdout + r.stderr
	})
	r := runKubectl(t, "top", "nodes", "--no-headers")
	if r.code != 0 || !regexp.MustCompile(`(?m)^kwok-node-0 +\d+m +\d+% +\d+Mi +\d+%`).MatchString(r.stdout) {
		t.Errorf("kubectl top nodes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// streamsPod creates a Running pod with one container (whose logs are the devcluster's default pod log)
// on a fake node, and returns its name.
func streamsPod(t *testing.T, ns string) string {
	t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "streams", Namespace: ns,
			Annotations: map[string]string{"kwok.x-k8s.io/usage-cpu": "42m", "kwok.x-k8s.io/usage-memory": "42Mi"}},
		Spec: corev1.PodSpec{NodeName: "kwok-node-0", Containers: []corev1.Container{{
			Name: "streams-e2e", Image: "registry.example.com/streams:1.0",
			Ports: []corev1.ContainerPort{{ContainerPort: 8080}},
		}}},
	}
	createRunningPod(t, pod)
	return pod.Name
}

// createRunningPod creates pod (as admin) and waits up to 30 s until it is Running.
func createRunningPod(t *testing.T, pod *corev1.Pod) {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cs.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod %s: %v", pod.Name, err)
	}
	waitForSeen(t, 30*time.Second, "pod "+pod.Name+" is Running", func() (bool, string) {
		p, err := cs.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return p.Status.Phase == corev1.PodRunning, string(p.Status.Phase)
	})
}

// followShowsAppendedLine starts `kubectl logs -f`, appends a line once it has printed the last one, and
// waits for it.
func followShowsAppendedLine(t *testing.T, ns, pod string) {
	t.Helper()
	lines := make(chan string, 100)
	stdout, stop := startKubectl(t, "-n", ns, "logs", "-f", pod, "--tail", "1")
	defer stop()
	go func() {
		defer close(lines)
		for sc := bufio.NewScanner(stdout); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	marker := "kscope-follow-" + randomSuffix()
	timeout := time.After(20 * time.Second)
	for appended := false; ; {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("kubectl logs -f ended before showing %q", marker)
			}
			if line == marker {
				return
			}
			if !appended {
				devcluster(t, "log", "streams-e2e", marker)
				appended = true
			}
		case <-timeout:
			t.Fatalf("kubectl logs -f did not show the line %q appended after it started, within 20s", marker)
		}
	}
}

// portForwardReachesPodServer forwards a free local port to the pod's port 8080 and GETs through it.
func portForwardReachesPodServer(t *testing.T, ns, pod string) {
	t.Helper()
	stdout, stop := startKubectl(t, "-n", ns, "port-forward", "--address", "127.0.0.1", "pod/"+pod, ":8080")
	defer stop()
	forwarding := regexp.MustCompile(`^Forwarding from 127\.0\.0\.1:(\d+) -> 8080`)
	sc := bufio.NewScanner(stdout)
	var port string
	for port == "" && sc.Scan() {
		if m := forwarding.FindStringSubmatch(sc.Text()); m != nil {
			port = m[1]
		}
	}
	if port == "" {
		t.Fatalf("kubectl port-forward printed no local port")
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%s/kscope-e2e", port))
	if err != nil {
		t.Fatalf("GET through the port-forward: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if want := "kscope devcluster pod server: GET /kscope-e2e"; resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != want {
		t.Errorf("GET through the port-forward: %s %q, want 200 %q", resp.Status, body, want)
	}
}

// startKubectl starts a long-running kubectl against the devcluster and returns its standard output and the
// function that ends it.
func startKubectl(t *testing.T, args ...string) (io.Reader, func()) {
	t.Helper()
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", kubeconfig()}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("kubectl %s: %v", strings.Join(args, " "), err)
	}
	return stdout, func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
}
