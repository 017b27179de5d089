//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
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
	s.waitFor("revisions(" + ns + "/web)[3]")
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

// TestUIHelmRollbackAndUninstall: r on web's first revision asks (Cancel first), then Helm's rollback makes
// revision 3 from it (the SDK's storage and the cluster's ConfigMap say so); ctrl-d on web, asked how,
// uninstalls it with its history (its Secrets and its ConfigMap gone). Read-only mode refuses both before any
// question, api left as it was.
func TestUIHelmRollbackAndUninstall(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	client := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	for _, r := range []helmtest.Revision{
		{Name: "web", Number: 1, ChartVersion: "1.0.0", Status: common.StatusSuperseded, Values: map[string]any{"replicas": 1}},
		{Name: "web", Number: 2, ChartVersion: "1.1.0", Status: common.StatusDeployed, Values: map[string]any{"replicas": 2}},
		{Name: "api", Number: 1, ChartVersion: "0.1.0", Status: common.StatusSuperseded, Values: map[string]any{"replicas": 1}},
		{Name: "api", Number: 2, ChartVersion: "0.2.0", Status: common.StatusDeployed, Values: map[string]any{"replicas": 2}},
	} {
		r.Namespace, r.Driver, r.Description, r.Deployed = ns, helm.Secrets, "Upgrade complete", time.Now().Add(-time.Hour)
		if _, _, err := helmtest.WriteRevision(client, r); err != nil {
			t.Fatal(err)
		}
		if r.Status == common.StatusDeployed { // the deployed revision's objects, as Helm would have applied them
			kubectl(t, "-n", ns, "create", "configmap", r.Name+"-config", "--from-literal=replicas="+fmt.Sprint(r.Values["replicas"]))
			kubectl(t, "-n", ns, "label", "configmap", r.Name+"-config", "app.kubernetes.io/managed-by=Helm")
			kubectl(t, "-n", ns, "annotate", "configmap", r.Name+"-config", "meta.helm.sh/release-name="+r.Name, "meta.helm.sh/release-namespace="+ns)
		}
	}

	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":helm")
	s.keys("Enter")
	s.waitUntil("web's chart", func(scr string) bool { return strings.Contains(scr, "web-1.1.0") && strings.Contains(scr, "api-0.2.0") })
	s.keys("/")
	s.typeText("web")
	s.keys("Enter")
	s.waitFor("</web>")
	s.keys("Enter")
	s.waitFor("revisions("+ns+"/web)[2]", "web-1.0.0")
	s.keys("Down", "r")
	question := "Roll back release " + ns + "/web from revision 2 (web-1.1.0) to revision 1 (web-1.0.0)?"
	s.waitUntil("the question", func(scr string) bool { return strings.Contains(dialogText(scr), dialogText(question)) })
	s.keys("Tab", "Enter")
	s.waitFor("rolled back release " + ns + "/web to revision 1 (now revision 3)")
	latest := sdkRelease(t, client, ns, "web")
	if latest.Version != 3 || latest.Info.Status != common.StatusDeployed || fmt.Sprint(latest.Config["replicas"]) != "1" {
		t.Errorf("after the rollback, the SDK's latest web: revision %d %s values %v", latest.Version, latest.Info.Status, latest.Config)
	}
	if got := kubectl(t, "-n", ns, "get", "configmap", "web-config", "-o", "jsonpath={.data.replicas}"); got != "1" {
		t.Errorf("after the rollback, web-config replicas %q, want revision 1's", got)
	}
	s.waitFor("revisions(" + ns + "/web)[3]") // live: the new revision shows

	s.keys("Escape")
	s.waitFor("helm(" + ns + ")")
	s.keys("C-d")
	s.waitFor("Uninstall release "+ns+"/web (revision 3)?", "Uninstall: delete its objects and its history")
	s.keys("Down", "Enter")
	s.waitFor("uninstalled release " + ns + "/web")
	waitGoneBy(t, func() string {
		return kubectl(t, "-n", ns, "get", "secrets,configmaps", "-l", "owner=helm,name=web", "-o", "name") +
			kubectl(t, "-n", ns, "get", "configmaps", "--field-selector=metadata.name=web-config", "-o", "name")
	})

	ro := startUI(t, "--readonly", "-n", ns, "configmaps")
	ro.waitFor("configmaps(" + ns + ")")
	ro.typeText(":helm")
	ro.keys("Enter")
	ro.waitFor("api-0.2.0")
	ro.keys("C-d")
	ro.waitFor("read-only mode: refusing to uninstall release " + ns + "/api")
	ro.keys("Enter")
	ro.waitFor("revisions(" + ns + "/api)[2]")
	ro.keys("Down", "r")
	ro.waitFor("read-only mode: refusing to roll back release " + ns + "/api to revision 1")
	if rel := sdkRelease(t, client, ns, "api"); rel.Version != 2 || rel.Info.Status != common.StatusDeployed {
		t.Errorf("read-only: api at revision %d %s, want 2 deployed still", rel.Version, rel.Info.Status)
	}
}

// sdkRelease is the latest revision of release name in ns as Helm's storage reads it.
func sdkRelease(t *testing.T, client kubernetes.Interface, ns, name string) *rspb.Release {
	t.Helper()
	last, err := storage.Init(driver.NewSecrets(client.CoreV1().Secrets(ns))).Last(name)
	if err != nil {
		t.Fatal(err)
	}
	return last.(*rspb.Release)
}

// waitGoneBy waits until list prints nothing.
func waitGoneBy(t *testing.T, list func() string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		out := strings.TrimSpace(list())
		if out == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still there: %s", out)
		}
	}
}

// dialogText is scr's text without the spaces and the frame lines a dialog wraps its question between, so
// that a question reads the same wherever the dialog broke its lines.
func dialogText(scr string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\n', '║', '│':
			return -1
		}
		return r
	}, scr)
}

// TestUIHelmUpgrade: o on web opens the live table of its objects (web-config, healthy), t there its tree; e on web opens its user values in $EDITOR (a script changes replicas 2 → 7), then the
// server's dry run of the upgrade shows the config map's change against the live one; a asks (Cancel first),
// then Helm's upgrade makes revision 2 with the edited values (the SDK's storage and the live ConfigMap say so).
// Read-only mode (started as `kscope helm`) refuses e before the editor opens.
func TestUIHelmUpgrade(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	client := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	r := helmtest.Revision{Name: "web", Namespace: ns, Driver: helm.Secrets, Number: 1, ChartVersion: "1.0.0",
		Status: common.StatusDeployed, Description: "Install complete", Values: map[string]any{"replicas": 2},
		Deployed: time.Now().Add(-time.Hour)}
	rel, _, err := helmtest.WriteRevision(client, r)
	if err != nil {
		t.Fatal(err)
	}
	// The revision's objects, as Helm would have applied them.
	applyYAML(t, rel.Manifest)

	marker := filepath.Join(t.TempDir(), "edited")
	editor := editorScript(t, "values.sh", "touch "+marker+"\nsed -i 's/^replicas: 2$/replicas: 7/' \"$1\"")
	s := startTmuxEnv(t, []string{"EDITOR=" + editor}, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600", "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":helm")
	s.keys("Enter")
	s.waitFor("web-1.0.0")
	// o: the release's objects, live, with their health; t on one: its tree.
	s.keys("o")
	s.waitUntil("web-config with its health", func(scr string) bool {
		f := strings.Fields(strings.Trim(lineWith(scr, "web-config"), "║ "))
		return strings.Contains(scr, "objects("+ns+"/web)") && len(f) >= 3 && f[0] == "configmap" && f[2] == "Current"
	})
	s.typeText("t")
	s.waitFor("tree configmaps "+ns+"/web-config", "ConfigMap web-config")
	s.keys("Escape")
	s.waitFor("objects(" + ns + "/web)[1]") // the table's title, not its crumb
	s.keys("Escape")
	s.waitFor("helm(" + ns + ")[1]")
	s.keys("e")
	s.waitFor("upgrade", ns+"/web", "revision 1 → 2 (dry run)", "change    configmaps "+ns+"/web-config",
		`- replicas: 2`, `+ replicas: 7`, `-   replicas: "2"`, `+   replicas: "7"`, "0 to create  1 to change  0 to delete")
	s.keys("a")
	question := "Upgrade release " + ns + "/web from revision 1 to revision 2 with the edited values?"
	s.waitUntil("the question", func(scr string) bool { return strings.Contains(dialogText(scr), dialogText(question)) })
	s.keys("Tab", "Enter")
	s.waitFor("upgraded release " + ns + "/web to revision 2")
	latest := sdkRelease(t, client, ns, "web")
	if latest.Version != 2 || latest.Info.Status != common.StatusDeployed || fmt.Sprint(latest.Config["replicas"]) != "7" {
		t.Errorf("after the upgrade, the SDK's latest web: revision %d %s values %v", latest.Version, latest.Info.Status, latest.Config)
	}
	if got := kubectl(t, "-n", ns, "get", "configmap", "web-config", "-o", "jsonpath={.data.replicas}"); got != "7" {
		t.Errorf("after the upgrade, web-config replicas %q, want the edited 7", got)
	}
	s.keys("Escape")
	s.waitFor("helm("+ns+")", "web ") // live: revision 2 shows
	s.waitUntil("revision 2 in the table", func(scr string) bool {
		f := strings.Fields(strings.Trim(lineWith(scr, "web "), "║ "))
		return len(f) > 2 && f[1] == "2" && f[2] == "deployed"
	})

	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	// `kscope helm` starts on the releases, as `:helm` opens them.
	ro := startTmuxEnv(t, []string{"EDITOR=" + editor}, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600", "--readonly", "-n", ns, "helm")
	ro.waitFor("helm("+ns+")[1]", "web-1.0.0")
	ro.keys("e")
	ro.waitFor("read-only mode: refusing to upgrade release " + ns + "/web")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("read-only: the editor ran")
	}
	if rel := sdkRelease(t, client, ns, "web"); rel.Version != 2 {
		t.Errorf("read-only: web at revision %d, want 2 still", rel.Version)
	}
}

// TestUIHelmClusters: `:helm @admin,@second` shows each cluster's releases with its context (the second
// cluster's written there by Helm's SDK); enter on the second's lists its revisions; uninstalling it is refused
// (the view is admin's), nothing written.
func TestUIHelmClusters(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	secondNamespace(t, ns)
	for _, w := range []struct {
		context string
		r       helmtest.Revision
	}{
		{"admin", helmtest.Revision{Name: "web", Number: 1, ChartVersion: "1.0.0", Status: common.StatusDeployed}},
		{"second", helmtest.Revision{Name: "api", Number: 1, ChartVersion: "0.1.0", Status: common.StatusSuperseded}},
		{"second", helmtest.Revision{Name: "api", Number: 2, ChartVersion: "0.2.0", Status: common.StatusDeployed}},
	} {
		w.r.Namespace, w.r.Driver, w.r.Description, w.r.Deployed = ns, helm.Secrets, "Install complete", time.Now().Add(-time.Hour)
		if _, _, err := helmtest.WriteRevision(kubernetes.NewForConfigOrDie(restConfig(t, w.context)), w.r); err != nil {
			t.Fatal(err)
		}
	}
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":helm @admin,@second")
	s.keys("Enter")
	scr := s.waitUntil("both clusters' releases", func(scr string) bool {
		return strings.Contains(scr, "helm("+ns+" @admin,@second)[2]") &&
			hasFields(lineWith(scr, " web "), "admin", "web", "1", "deployed", "web-1.0.0") &&
			hasFields(lineWith(scr, " api "), "second", "api", "2", "deployed", "api-0.2.0")
	})
	if !strings.Contains(scr, "CONTEXT") {
		t.Errorf("no CONTEXT column:\n%s", scr)
	}
	s.keys("/")
	s.typeText("api")
	s.keys("Enter")
	s.waitFor("</api>")
	s.keys("C-d")
	s.waitFor("refusing to uninstall release " + ns + "/api: it is in context second, not the view's")
	s.keys("Enter")
	s.waitFor("revisions("+ns+"/api)[2]", "api-0.1.0")
	second := kubernetes.NewForConfigOrDie(restConfig(t, "second"))
	if rel := sdkRelease(t, second, ns, "api"); rel.Version != 2 || rel.Info.Status != common.StatusDeployed {
		t.Errorf("the second cluster's api: revision %d %s, want 2 deployed still", rel.Version, rel.Info.Status)
	}
}
