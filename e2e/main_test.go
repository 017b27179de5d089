//go:build e2e

// Package e2e holds kscope's end-to-end tests. They run against the real control plane from devcluster/:
// TestMain brings it up (or reuses a running one), seeds it and builds bin/kscope-e2e (with -race). Run them with `make test`,
// or `go test -tags e2e ./e2e` once `make devcluster` has built the cluster binaries.
//
// The tests run in two groups, so that the suite's time grows slower than the suite:
//
//   - The parallel group: a test whose first line is parallel(t). It may only read the seeded content and read
//     or write in namespaces of its own (testNamespace), with its own tmux session (startUI names it after
//     the test), temp dirs (t.TempDir) and ports (from the kernel, 127.0.0.1:0). go test runs at most -parallel
//     of them at once (GOMAXPROCS by default; `make e2e` passes E2E_PARALLEL, sized for a 2-core machine).
//   - The serial group: every other test; it starts with serial(t, "what it shares"), naming the resource that
//     keeps it out of the parallel group. A test belongs here when it stops, kills or restarts a component,
//     compacts etcd, creates or changes cluster-wide objects (CRDs, APIServices, ClusterRoleBindings),
//     compares the whole cluster (discovery, all namespaces) with kubectl, counts requests in the audit log
//     (any other kscope of the same user would add to them), writes to the log of every pod's container of a
//     name (devcluster log), reads the tmux clipboard buffer, or measures time, memory or goroutines.
//
// go test runs the serial tests first, one at a time, and the parallel group only once they have all ended,
// so a serial test never shares the cluster with a parallel one. A new test joins the parallel group by
// calling parallel(t) first, once it keeps to the rules above; when in doubt it stays serial.
package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// suite is what TestMain prepared; read-only once tests run.
type suite struct {
	root       string // repository root
	kubeconfig string // devcluster kubeconfig (contexts admin, viewer)
	kscope     string // the kscope binary under test (built with -race unless KSCOPE_E2E_RACE=0)
	plain      string // the same binary without the race detector, for measurements (memory, CPU)
	cli        string // the devcluster CLI
	cache      string // the devcluster cache folder (bin/, state/)
	// raceLogs is where the race detector of a -race kscope writes its reports ("" when not built so).
	raceLogs string
}

var env suite

func TestMain(m *testing.M) {
	if err := setup(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e setup: %v\n", err)
		os.Exit(1)
	}
	stopTmux := privateTmuxServer()
	code := m.Run()
	stopTmux()
	if races := raceReports(); races != "" {
		fmt.Fprintf(os.Stderr, "e2e: the race detector reported data races in kscope sessions:\n%s", races)
		code = 1
	}
	os.Exit(code)
}

// raceReports returns what the race detector of the kscope binary under test wrote, "" for nothing.
func raceReports() string {
	if env.raceLogs == "" {
		return ""
	}
	files, _ := filepath.Glob(filepath.Join(env.raceLogs, "race*"))
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "%s:\n%s\n", f, data)
	}
	return b.String()
}

// privateTmuxServer points every tmux command of the tests at a server of their own, kept alive by an anchor
// session: otherwise a test starting a session while the previous test kills the server's last one races the
// server's exit ("server exited unexpectedly"). It returns the function that ends that server.
func privateTmuxServer() (stop func()) {
	dir, err := os.MkdirTemp("", "kscope-e2e-tmux-")
	if err != nil {
		return func() {}
	}
	os.Setenv("TMUX_TMPDIR", dir)
	os.Unsetenv("TMUX")
	if err := exec.Command("tmux", "new-session", "-d", "-s", "e2e-anchor", "sleep 86400").Run(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: tmux anchor session: %v\n", err)
	}
	// What kscope copies (OSC 52) becomes a tmux buffer the tests can read.
	_ = exec.Command("tmux", "set-option", "-s", "set-clipboard", "on").Run()
	return func() {
		_ = exec.Command("tmux", "kill-server").Run()
		os.RemoveAll(dir)
	}
}

func setup() error {
	_, file, _, _ := runtime.Caller(0)
	env.root = filepath.Dir(filepath.Dir(file))
	// KSCOPE_DEVCLUSTER_CACHE runs the tests on a cluster of another cache folder (e.g. a private copy for
	// fault tests); KSCOPE_DEVCLUSTER names another devcluster CLI.
	env.cache = os.Getenv("KSCOPE_DEVCLUSTER_CACHE")
	if env.cache == "" {
		env.cache = filepath.Join(env.root, ".cache", "devcluster")
	}
	env.cli = os.Getenv("KSCOPE_DEVCLUSTER")
	if env.cli == "" {
		env.cli = filepath.Join(env.cache, "bin", "devcluster")
	}
	if _, err := os.Stat(env.cli); err != nil {
		return fmt.Errorf("devcluster CLI not found at %s: run `make devcluster` (or `make test`) first", env.cli)
	}
	// kubectl of the cluster's version (v1.37.2, built once) is what describe is compared with.
	for _, args := range [][]string{{"build", "--kubectl"}, {"up"}, {"seed"}} {
		cmd := devclusterCommand(args...)
		cmd.Dir = env.root
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("devcluster %s: %w", args[0], err)
		}
	}
	env.kubeconfig = filepath.Join(env.cache, "state", "kubeconfig")
	// The binary under test is built with the race detector (KSCOPE_E2E_RACE=0 builds it without): a data
	// race in a real session fails the suite. Its reports go to files (GORACE log_path, inherited by the tmux
	// server and every kscope started), not over the screen; TestMain fails when any was written.
	env.kscope = filepath.Join(env.root, "bin", "kscope-e2e")
	args := []string{"build", "-o", env.kscope, "."}
	if os.Getenv("KSCOPE_E2E_RACE") != "0" {
		dir, err := os.MkdirTemp("", "kscope-e2e-race-")
		if err != nil {
			return err
		}
		env.raceLogs = dir
		os.Setenv("GORACE", "log_path="+filepath.Join(dir, "race"))
		args = []string{"build", "-race", "-o", env.kscope, "."}
	}
	env.plain = filepath.Join(env.root, "bin", "kscope-e2e-plain")
	for _, args := range [][]string{args, {"build", "-o", env.plain, "."}} {
		build := exec.Command("go", args...)
		build.Dir = env.root
		if !slices.Contains(args, "-race") { // built as `make build` builds bin/kscope (the race detector needs cgo)
			build.Env = append(os.Environ(), "CGO_ENABLED=0")
		}
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("build kscope: %v\n%s", err, out)
		}
	}
	return nil
}

// parallel puts t in the parallel group (see the package comment): it must keep to its own namespaces,
// tmux session, temp dirs and ports.
func parallel(t *testing.T) {
	t.Helper()
	t.Parallel()
}

// serial keeps t in the serial group; shared names what t uses or changes that a test running beside it
// would see (logged with -v).
func serial(t *testing.T, shared string) {
	t.Helper()
	t.Logf("serial: %s", shared)
}

// devclusterCommand returns the devcluster CLI command for args, on the suite's cache folder.
func devclusterCommand(args ...string) *exec.Cmd {
	if os.Getenv("KSCOPE_DEVCLUSTER_CACHE") != "" {
		args = append([]string{"--cache", env.cache}, args...)
	}
	return exec.Command(env.cli, args...)
}

// kubeconfig returns the path of the devcluster's kubeconfig.
func kubeconfig() string { return env.kubeconfig }

// restConfig returns a client configuration for the named kubeconfig context ("admin" or "viewer").
func restConfig(t testing.TB, contextName string) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: env.kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: contextName},
	).ClientConfig()
	if err != nil {
		t.Fatalf("kubeconfig context %s: %v", contextName, err)
	}
	return cfg
}

// testNamespace creates a namespace unique to t and deletes it when t ends.
// It waits for the namespace's default ServiceAccount, so pods can be created at once.
func testNamespace(t testing.TB) string {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	name := "e2e-" + strings.ToLower(sanitize(t.Name()))
	if len(name) > 50 {
		name = name[:50]
	}
	name = strings.TrimRight(name, "-") + "-" + randomSuffix()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kscope-e2e": "true"}}}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := cs.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("delete namespace %s: %v", name, err)
		}
	})
	for {
		if _, err := cs.CoreV1().ServiceAccounts(name).Get(ctx, "default", metav1.GetOptions{}); err == nil {
			return name
		}
		select {
		case <-ctx.Done():
			t.Fatalf("namespace %s: default ServiceAccount never appeared", name)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// kubectl runs kubectl against the devcluster and returns its standard output; it fails t on error.
func kubectl(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", env.kubeconfig}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// runKscope runs the built kscope binary against the devcluster and returns its output and exit code.
func runKscope(t testing.TB, args ...string) (stdout, stderr string, exitCode int) {
	t.Helper()
	return runKscopeEnv(t, nil, args...)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, s)
}

func randomSuffix() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
