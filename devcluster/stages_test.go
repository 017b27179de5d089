package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	corev1 "k8s.io/api/core/v1"
	kwokv1 "sigs.k8s.io/kwok/pkg/apis/v1alpha1"
	"sigs.k8s.io/yaml"
)

// TestKwokConfigMarksEphemeralContainersRunning: the kwok configuration `devcluster up` writes holds the
// podEphemeralRunning stage; its selector stops matching once its status is written (the ephemeral
// containers counted against their statuses), and its template renders a running status per ephemeral
// container (rendered here with text/template and kwok's Now and Quote).
func TestKwokConfigMarksEphemeralContainersRunning(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // writeKwokConfig's exec root
	l := newLayout(t.TempDir())
	if err := os.MkdirAll(l.stateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeKwokConfig(l, ports{Kwok: 1, PodServer: 2}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(l.state("kwok.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var stage *kwokv1.Stage
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var s kwokv1.Stage
		if err := yaml.Unmarshal([]byte(doc), &s); err == nil && s.Kind == "Stage" && s.Name == "pod-ephemeral-containers-running" {
			stage = &s
		}
	}
	if stage == nil {
		t.Fatalf("kwok.yaml has no stage pod-ephemeral-containers-running:\n%s", data)
	}
	var keys []string
	for _, e := range stage.Spec.Selector.MatchExpressions {
		keys = append(keys, e.Key+" "+string(e.Operator)+" "+strings.Join(e.Values, ","))
	}
	want := ".metadata.deletionTimestamp DoesNotExist |.status.phase In Running|" +
		"(.spec.ephemeralContainers // [] | length) > (.status.ephemeralContainerStatuses // [] | length) In true"
	if got := strings.Join(keys, "|"); got != want {
		t.Errorf("selector %q, want %q", got, want)
	}

	tpl, err := template.New("status").Funcs(template.FuncMap{
		"Now":   func() string { return "2026-01-02T03:04:05Z" },
		"Quote": func(s string) string { return strconv.Quote(s) },
	}).Parse(stage.Spec.Next.StatusTemplate)
	if err != nil {
		t.Fatal(err)
	}
	pod := map[string]any{"spec": map[string]any{"ephemeralContainers": []any{
		map[string]any{"name": "debugger-abcde", "image": "busybox"},
		map[string]any{"name": "debugger-fghij", "image": "alpine"},
	}}, "status": map[string]any{"ephemeralContainerStatuses": []any{
		map[string]any{"name": "debugger-abcde", "state": map[string]any{"running": map[string]any{"startedAt": "2025-01-01T00:00:00Z"}}},
	}}}
	var out bytes.Buffer
	if err := tpl.Execute(&out, map[string]any{"spec": pod["spec"]}); err != nil { // no status yet
		t.Fatalf("a pod without a status: %v", err)
	}
	out.Reset()
	if err := tpl.Execute(&out, pod); err != nil {
		t.Fatal(err)
	}
	var status corev1.PodStatus
	if err := yaml.UnmarshalStrict(out.Bytes(), &status); err != nil {
		t.Fatalf("rendered status: %v\n%s", err, out.String())
	}
	if len(status.EphemeralContainerStatuses) != 2 {
		t.Fatalf("statuses %+v, want 2", status.EphemeralContainerStatuses)
	}
	for i, want := range []struct{ name, started string }{{"debugger-abcde", "2025-01-01T00:00:00Z"}, {"debugger-fghij", "2026-01-02T03:04:05Z"}} {
		s := status.EphemeralContainerStatuses[i]
		if s.Name != want.name || s.State.Running == nil || s.Ready || s.State.Running.StartedAt.UTC().Format(time.RFC3339) != want.started {
			t.Errorf("status %d: %+v, want %s running since %s (the one running already keeps its start), not ready", i, s, want.name, want.started)
		}
	}
}
