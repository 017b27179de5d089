//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kscope/kube"
)

// clusterKubectl runs the kubectl built from the cluster's Kubernetes version (devcluster build --kubectl):
// the same describers as kscope's k8s.io/kubectl, so their texts can be compared.
func clusterKubectl(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(env.cache, "bin", "kubectl"), append([]string{"--kubeconfig", env.kubeconfig}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// describeAge matches what changes in a describe between two moments: ages (5s, 3m2s, 2d4h) and the
// spaces that align the columns around them.
var describeAge = regexp.MustCompile(`\b(\d+(s|m|h|d|y))+\b`)

// normalizeDescribe drops ages and column alignment from a describe's text.
func normalizeDescribe(text string) string {
	var lines []string
	for _, l := range strings.Split(describeAge.ReplaceAllString(text, "<age>"), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

// TestVerbsDescribeMatchesKubectl: the describe text of a pod, a deployment, a service, a node, a secret and
// an instance of the seeded CRD is kubectl describe's (v1.37.2), ages apart; the Secret shows sizes only;
// the describe view shows that text.
func TestVerbsDescribeMatchesKubectl(t *testing.T) {
	serial(t, "describes a node, whose pods of every namespace the parallel tests change")
	ns := testNamespace(t)
	seedPods(t, ns)
	kubectl(t, "-n", ns, "create", "service", "clusterip", "web", "--tcp=80:80")
	kubectl(t, "-n", ns, "create", "secret", "generic", "creds", "--from-literal=password=hunter2-verbs")
	apply := exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "apply", "-f", "-")
	apply.Stdin = strings.NewReader("apiVersion: shop.example.com/v1\nkind: Widget\nmetadata: {name: cog, namespace: " + ns +
		", labels: {line: classic}}\nspec: {size: 4, weight: 0.75, color: green, owner: team-c}\n")
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply widget: %v\n%s", err, out)
	}
	node := strings.TrimPrefix(strings.Fields(kubectl(t, "get", "nodes", "-o", "name"))[0], "node/")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cluster, err := kube.Connect(ctx, configFlags(t, "admin", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	for _, o := range []struct{ resource, ns, name string }{
		{"pods", ns, "solo"}, {"deployments", ns, "web"}, {"services", ns, "web"}, {"nodes", "", node},
		{"secrets", ns, "creds"}, {"widgets.shop.example.com", ns, "cog"},
	} {
		res, err := cluster.Catalog().Resolve(ctx, o.resource)
		if err != nil {
			t.Fatalf("resolve %s: %v", o.resource, err)
		}
		args := []string{"describe", res.FullName(), o.name}
		if o.ns != "" {
			args = append(args, "-n", o.ns)
		}
		var got string
		// Events can land between the two describes: compare until both saw the same ones.
		waitForSeen(t, 60*time.Second, "kscope's describe of "+o.resource+" equals kubectl's", func() (bool, string) {
			text, err := cluster.Describe(ctx, res, o.ns, o.name)
			if err != nil {
				return false, err.Error()
			}
			got = text
			want := clusterKubectl(t, args...)
			return normalizeDescribe(text) == normalizeDescribe(want), "kscope:\n" + text + "\nkubectl:\n" + want
		})
		if o.resource == "secrets" && (strings.Contains(got, "hunter2") || !strings.Contains(got, "password:  13 bytes")) {
			t.Errorf("the Secret's describe shows more than sizes:\n%s", got)
		}
	}

	s := startUI(t, "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web", "synced")
	s.typeText("d")
	want := strings.Split(clusterKubectl(t, "describe", "deployments.apps", "web", "-n", ns), "\n")
	scr := s.waitFor("describe deployments "+ns+"/web", "Selector:", "live (described again")
	for _, line := range want[:12] {
		if line = strings.TrimSpace(line); line != "" && !strings.Contains(scr, line) {
			t.Errorf("the describe view lacks kubectl's line %q:\n%s", line, scr)
		}
	}
	s.typeText("/")
	s.typeText("replicas")
	s.keys("Enter")
	s.waitFor("</replicas> 1/")
}
