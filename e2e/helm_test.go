//go:build e2e

package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/release/common"
	rspb "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/storage"
	"helm.sh/helm/v4/pkg/storage/driver"
	"k8s.io/client-go/kubernetes"

	"kscope/helm"
	"kscope/helm/helmtest"
)

// TestUIHelmReleases: releases written into the test's namespace by Helm's own SDK (two revisions of web, a
// failed api, cache stored in ConfigMaps) show in `:helm` as the SDK's storage lists them (the latest revision
// of each: revision, status, chart, app version); a new revision of web shows live; enter lists web's
// revisions, v shows the values of the selected one; the Secrets table hides Helm's until shift-z. The viewer, who may read ConfigMaps but not Secrets,
// sees cache and is told the releases stored in Secrets are not shown, in the server's words.
func TestUIHelmReleases(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	client := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	now := time.Now()
	write := func(r helmtest.Revision) {
		t.Helper()
		r.Namespace, r.Deployed = ns, now.Add(-time.Hour)
		if _, ok, err := helmtest.WriteRevision(client, r); err != nil || !ok {
			t.Fatalf("write %s revision %d: written %v, %v", r.Name, r.Number, ok, err)
		}
	}
	for _, r := range []helmtest.Revision{
		{Name: "web", Driver: helm.Secrets, Number: 1, ChartVersion: "1.0.0", Status: common.StatusSuperseded, Description: "Install complete", Values: map[string]any{"replicas": 1}},
		{Name: "web", Driver: helm.Secrets, Number: 2, ChartVersion: "1.1.0", Status: common.StatusDeployed, Description: "Upgrade complete", Values: map[string]any{"replicas": 2}},
		{Name: "api", Driver: helm.Secrets, Number: 1, ChartVersion: "0.3.0", Status: common.StatusFailed, Description: "Install failed", Values: map[string]any{"replicas": 4}},
		{Name: "cache", Driver: helm.ConfigMaps, Number: 1, ChartVersion: "2.5.1", Status: common.StatusDeployed, Description: "Install complete"},
	} {
		write(r)
	}

	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":helm")
	s.keys("Enter")
	scr := s.waitUntil("the releases with their charts", func(scr string) bool {
		return strings.Contains(scr, "helm("+ns+")[3]") && strings.Contains(scr, "web-1.1.0") &&
			strings.Contains(scr, "api-0.3.0") && strings.Contains(scr, "cache-2.5.1")
	})
	for _, rel := range sdkLatest(t, client, ns) {
		want := []string{rel.Name, fmt.Sprint(rel.Version), rel.Info.Status.String(),
			rel.Chart.Metadata.Name + "-" + rel.Chart.Metadata.Version, rel.Chart.Metadata.AppVersion}
		if got := strings.Fields(strings.Trim(lineWith(scr, rel.Name+" "), "║ ")); len(got) < 5 || strings.Join(got[:5], " ") != strings.Join(want, " ") {
			t.Errorf("release %s: row %q, want %q as the SDK's storage lists it", rel.Name, got, want)
		}
	}

	// A new revision shows live.
	write(helmtest.Revision{Name: "web", Driver: helm.Secrets, Number: 3, ChartVersion: "1.2.0", Status: common.StatusDeployed,
		Description: "Upgrade complete", Values: map[string]any{"replicas": 3}})
	s.waitUntil("web's revision 3", func(scr string) bool {
		f := strings.Fields(strings.Trim(lineWith(scr, "web "), "║ "))
		return len(f) >= 4 && f[1] == "3" && f[3] == "web-1.2.0"
	})

	// enter: web's revisions; v: the values of the newest.
	s.keys("/")
	s.typeText("web")
	s.keys("Enter")
	s.waitFor("</web>")
	s.keys("Enter")
	s.waitFor("revisions("+ns+"/web)[3]", "web-1.0.0", "Install complete", "superseded")
	s.keys("v")
	s.waitFor("values "+ns+"/web #3", "replicas: 3")
	s.keys("a")
	s.waitFor("all values "+ns+"/web #3", "repository: example/web")

	// The Secrets table hides the four Secrets Helm stores web's and api's revisions in until shift-z.
	s.keys("Escape")
	s.typeText(":secrets")
	s.keys("Enter")
	scr = s.waitFor("secrets("+ns+")[0] <4 hidden>", "4 Helm release Secrets hidden (shift-z: show)")
	s.keys("Z")
	scr = s.waitFor("secrets("+ns+")[4]", "sh.helm.release.v1.web.v3", "sh.helm.release.v1.api.v1")

	// The viewer may read ConfigMaps, not Secrets: cache shows, and why the others do not.
	kubectl(t, "-n", ns, "create", "role", "configmap-reader", "--verb=get,list,watch", "--resource=configmaps")
	kubectl(t, "-n", ns, "create", "rolebinding", "viewer-reads-configmaps", "--role=configmap-reader", "--user=viewer")
	v := startUI(t, "--context", "viewer", "-n", ns, "configmaps")
	v.waitFor("configmaps(" + ns + ")")
	v.typeText(":helm")
	v.keys("Enter")
	scr = v.waitFor("helm("+ns+")[1]", "cache-2.5.1", "releases stored in secrets not shown",
		`secrets is forbidden: User "viewer" cannot list resource "secrets"`)
	if strings.Contains(scr, "web-") {
		t.Errorf("the viewer sees a release stored in a Secret:\n%s", scr)
	}
}

// sdkLatest is what Helm's own storage lists in ns (both drivers): the latest revision of each release,
// sorted by name, as `helm list` shows them.
func sdkLatest(t *testing.T, client kubernetes.Interface, ns string) []*rspb.Release {
	t.Helper()
	latest := map[string]*rspb.Release{}
	for _, d := range []driver.Driver{driver.NewSecrets(client.CoreV1().Secrets(ns)), driver.NewConfigMaps(client.CoreV1().ConfigMaps(ns))} {
		all, err := storage.Init(d).ListReleases()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range all {
			rel := r.(*rspb.Release)
			if cur, ok := latest[rel.Name]; !ok || rel.Version > cur.Version {
				latest[rel.Name] = rel
			}
		}
	}
	var out []*rspb.Release
	for _, r := range latest {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if len(out) != 3 {
		t.Fatalf("the SDK lists %d releases in %s, want 3", len(out), ns)
	}
	return out
}
