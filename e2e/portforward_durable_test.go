//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// forwardingTo matches a :pf row's STATE and MOVES: the pod forwarded to and the moves.
var forwardingTo = regexp.MustCompile(`forwarding to (\S+):8080 +(\d+)`)

// pfRow returns the pod and the moves of the one forward :pf shows forwarding ("" when none is).
func pfRow(scr string) (pod, moves string) {
	m := forwardingTo.FindStringSubmatch(scr)
	if m == nil {
		return "", ""
	}
	return m[1], m[2]
}

// getVia GETs path through the local port on a connection of its own, within timeout, and checks the pod
// server's reply.
func getVia(port int, path string, timeout time.Duration) error {
	client := &http.Client{Timeout: timeout, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if want := podServerReply(path); resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != want {
		return fmt.Errorf("%s %q, want 200 %q", resp.Status, body, want)
	}
	return nil
}

// keptAlive is an HTTP connection through a forward kept open after a first GET (a connection in flight).
type keptAlive struct {
	conn net.Conn
	r    *bufio.Reader
}

// getKeptAlive GETs path through the local port on a connection it keeps open.
func getKeptAlive(t *testing.T, port int, path string) *keptAlive {
	t.Helper()
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 10*time.Second)
	if err != nil {
		t.Fatalf("connect to the forward: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	k := &keptAlive{conn: conn, r: bufio.NewReader(conn)}
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: pod\r\n\r\n", path)
	resp, err := http.ReadResponse(k.r, nil)
	if err != nil {
		t.Fatalf("GET %s on a kept connection: %v", path, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.TrimSpace(string(body)) != podServerReply(path) {
		t.Fatalf("GET %s on a kept connection: %q", path, body)
	}
	return k
}

// closed tells whether the kept connection was closed by the forward (its next read ends at once, not after
// the deadline).
func (k *keptAlive) closed() error {
	_ = k.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err := k.r.ReadByte()
	if err == nil {
		return fmt.Errorf("the connection read a byte")
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return fmt.Errorf("the connection was left open")
	}
	return nil
}

// TestUIPortForwardMovesToAnotherPod: a forward of a deployment of two replicas serves a GET; when the pod it
// forwards to (read from :pf) is deleted, the connection in flight on it is closed, :pf shows the forward on
// the other pod with one move, and a GET after succeeds through the same local port.
func TestUIPortForwardMovesToAnotherPod(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "deployment", "api", "--image=registry.example.com/api:1.0", "--port=8080", "--replicas=2")
	waitKubectl(t, "2", "-n", ns, "get", "deployment", "api", "-o", "jsonpath={.status.readyReplicas}")
	s := startUI(t, "-n", ns, "deploy")
	s.waitFor("deployments("+ns+")[1]", "api ")
	port := forwardFromUI(t, s, "F", ns+"/api-", "deployment "+ns+"/api:8080 (now pod api-")
	if err := getVia(port, "/before", 10*time.Second); err != nil {
		t.Fatalf("GET through the forward: %v", err)
	}
	inFlight := getKeptAlive(t, port, "/kept")

	s.typeText(":pf")
	s.keys("Enter")
	scr := s.waitUntil("the forward's pod in :pf", func(scr string) bool { pod, _ := pfRow(scr); return pod != "" })
	first, moves := pfRow(scr)
	if moves != "0" || !strings.Contains(scr, "→ deployment "+ns+"/api:8080") {
		t.Errorf("before the pod goes: moves %q, want 0:\n%s", moves, scr)
	}
	kubectl(t, "-n", ns, "delete", "pod", first, "--wait=false")
	scr = s.waitUntil("the forward on another pod, one move", func(scr string) bool {
		pod, moves := pfRow(scr)
		return pod != "" && pod != first && moves == "1"
	})
	if err := inFlight.closed(); err != nil {
		t.Errorf("the connection in flight on the deleted pod %s: %v", first, err)
	}
	if err := getVia(port, "/after", 10*time.Second); err != nil {
		t.Errorf("GET after the pod %s was deleted: %v\n%s", first, err, scr)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// TestUIPortForwardStatefulSetPod: a forward of a StatefulSet's pod resumes on the pod of that name once it is
// deleted and re-created (one move); while the set has no pod the forward says it waits for it, and a GET made
// then is answered once the pod is back.
func TestUIPortForwardStatefulSetPod(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	statefulSet(t, ns, "db", 8080)
	waitKubectl(t, "Running", "-n", ns, "get", "pod", "db-0", "-o", "jsonpath={.status.phase}")
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "db-0", "Running")
	port := forwardFromUI(t, s, "F", ns+"/db-0:8080", ns+"/db-0:8080")
	if err := getVia(port, "/before", 10*time.Second); err != nil {
		t.Fatalf("GET through the forward: %v", err)
	}
	s.typeText(":pf")
	s.keys("Enter")
	s.waitUntil("the forward on db-0", func(scr string) bool { pod, moves := pfRow(scr); return pod == "db-0" && moves == "0" })
	uid := kubectl(t, "-n", ns, "get", "pod", "db-0", "-o", "jsonpath={.metadata.uid}")
	kubectl(t, "-n", ns, "delete", "pod", "db-0", "--wait=false")
	waitForSeen(t, 90*time.Second, "db-0 re-created and running", func() (bool, string) {
		out := kubectl(t, "-n", ns, "get", "pod", "db-0", "--ignore-not-found", "-o", "jsonpath={.metadata.uid} {.status.phase}")
		return !strings.HasPrefix(out, uid+" ") && strings.HasSuffix(out, " Running"), out
	})
	s.waitUntil("the forward on the new db-0, one move", func(scr string) bool { pod, moves := pfRow(scr); return pod == "db-0" && moves == "1" })
	if err := getVia(port, "/after-delete", 10*time.Second); err != nil {
		t.Errorf("GET after db-0 was re-created: %v", err)
	}

	kubectl(t, "-n", ns, "scale", "statefulset", "db", "--replicas=0")
	s.waitFor("waiting for pod db-0 since ")
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 10*time.Second) // accepted: it waits
	if err != nil {
		t.Fatalf("connect while waiting for db-0: %v", err)
	}
	defer conn.Close()
	answered := make(chan error, 1)
	go func() {
		_ = conn.SetDeadline(time.Now().Add(90 * time.Second))
		fmt.Fprintf(conn, "GET /during-the-wait HTTP/1.1\r\nHost: pod\r\nConnection: close\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- err
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if got := strings.TrimSpace(string(body)); got != podServerReply("/during-the-wait") {
			answered <- fmt.Errorf("answered %q", got)
			return
		}
		answered <- nil
	}()
	kubectl(t, "-n", ns, "scale", "statefulset", "db", "--replicas=1")
	if err := <-answered; err != nil {
		t.Errorf("the GET made while waiting for db-0: %v", err)
	}
	s.waitUntil("the forward on the third db-0, two moves", func(scr string) bool { pod, moves := pfRow(scr); return pod == "db-0" && moves == "2" })
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// statefulSet creates a StatefulSet name of one replica whose container declares port.
func statefulSet(t *testing.T, ns, name string, port int32) {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	one := int32(1)
	labels := map[string]string{"app": name}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: appsv1.StatefulSetSpec{
		Replicas: &one, ServiceName: name, Selector: &metav1.LabelSelector{MatchLabels: labels},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: "registry.example.com/" + name + ":1.0",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: port}}}}}}}}
	if _, err := cs.AppsV1().StatefulSets(ns).Create(ctx, sts, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create statefulset %s: %v", name, err)
	}
}
