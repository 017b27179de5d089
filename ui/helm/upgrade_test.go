package helm

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"helm.sh/helm/v4/pkg/release/common"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/helm"
	"kscope/helm/helmtest"
	"kscope/history"
	"kscope/ui/apply"
)

// upgradeManifest is what the fake's upgrade renders: the config map with the values' replicas.
func upgradeManifest(vals map[string]any) string {
	return fmt.Sprintf("---\n# Source: shop/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-config\ndata:\n  replicas: %q\n",
		fmt.Sprint(vals["replicas"]))
}

func (c *releases) HelmUpgrade(_ context.Context, r cluster.HelmRelease, vals map[string]any, dryRun bool) (cluster.HelmUpgraded, error) {
	c.helm.add(fmt.Sprintf("upgrade %s/%s %s dry-run=%v latest=%d values=%v", r.Namespace, r.Name, r.Driver, dryRun, r.Latest, vals))
	return cluster.HelmUpgraded{Revision: r.Latest + 1, Manifest: upgradeManifest(vals)}, nil
}

func (c *releases) Can(context.Context, cluster.AccessQuery) (cluster.AccessAnswer, error) {
	return cluster.AccessAnswer{Allowed: true}, nil
}

// Apply is the server's dry run: the object as sent.
func (c *releases) Apply(_ context.Context, _ schema.GroupVersionResource, _ string, obj *unstructured.Unstructured, opts cluster.ApplyOptions) (*unstructured.Unstructured, error) {
	c.helm.add(fmt.Sprintf("apply %s dry-run=%v force=%v", obj.GetName(), opts.DryRun, opts.Force))
	return obj.DeepCopy(), nil
}

func (c *releases) Catalog() cluster.Catalog {
	return discovery.NewStaticCatalog(
		discovery.Resource{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: []string{"get", "list", "patch"}},
		discovery.Resource{Version: "v1", Name: "secrets", Kind: "Secret", Namespaced: true, Verbs: []string{"get", "list", "patch"}})
}

// installWeb installs web's revision 1 (replicas 3), whose manifest names its config map and a secret, and
// puts the live config map.
func installWeb(t *testing.T, c *releases) {
	rel := helmtest.Release("web", "shop", 1, common.StatusDeployed, "1.1.0")
	rel.Manifest = upgradeManifest(rel.Config) + "---\n# Source: shop/templates/secret.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: web-old\n"
	key := c.store.Install(t, helm.Secrets, rel)
	c.sources.Part("secrets").Put(c.store.Row(helm.Secrets, "shop", key, "web-"+key, "1"))
	c.store.Put(t, "configmaps", &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: "web-config"}, Data: map[string]string{"replicas": "3"}}, "shop", "web-config")
}

func TestUpgradeEditsTheValuesDryRunsThenUpgrades(t *testing.T) {
	c, s := newReleases(t)
	var shown string
	s.Editor = func(content []byte) ([]byte, error) {
		shown = string(content)
		return []byte(strings.Replace(string(content), "replicas: 3", "replicas: 5", 1)), nil
	}
	s.UI(func() { Spec.Commands[0].Run(s, nil) })
	v := s.Pushed()[0].(*Releases)
	installWeb(t, c)
	s.UI(v.Activate)
	waitFor(t, s, "web", func() bool { return len(v.content.Rows()) == 1 })

	s.Press(v, tcell.NewEventKey(tcell.KeyRune, 'e', 0))
	waitFor(t, s, "the dry run's view", func() bool { return len(s.Pushed()) == 2 })
	if !strings.Contains(shown, "# The values the user supplied to release shop/web (revision 1, chart shop-1.1.0).") ||
		!strings.Contains(shown, "\nreplicas: 3\n") {
		t.Errorf("the editor was given %q", shown)
	}
	if g := s.Guarded(); len(g) == 0 || g[len(g)-1] != "create secrets shop/sh.helm.release.v1.web.v1" {
		t.Errorf("guards asked %q", g)
	}
	want := []string{"upgrade shop/web secret dry-run=true latest=1 values=map[replicas:5]", "apply web-config dry-run=true force=true"}
	if calls := c.helm.all(); strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Fatalf("calls %q, want %q", calls, want)
	}
	up := s.Pushed()[1].(*Upgrade)
	p := up.plan
	if p.Revision != 2 || len(p.Results) != 1 || p.Results[0].State != apply.Change ||
		len(p.Deleted) != 1 || p.Deleted[0] != (helm.Object{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "web-old"}) {
		t.Fatalf("plan: revision %d, results %+v, deleted %+v", p.Revision, p.Results, p.Deleted)
	}
	if got := changed(p.ValuesDiff); got != "-replicas: 3 +replicas: 5" {
		t.Errorf("values diff %q", got)
	}
	if got := changed(p.Results[0].Diff); got != "-  replicas: \"3\" +  replicas: \"5\"" {
		t.Errorf("object diff %q", got)
	}
	s.UI(up.Activate)
	if txt := up.text.GetText(true); !strings.Contains(txt, "change    configmaps shop/web-config") || !strings.Contains(txt, "delete    Secret shop/web-old") {
		t.Errorf("view:\n%s", txt)
	}

	s.Press(up, tcell.NewEventKey(tcell.KeyRune, 'a', 0))
	conf := s.Confirmations()
	if len(conf) != 1 || conf[0].Action != "Upgrade" ||
		!strings.Contains(conf[0].Question, "Upgrade release shop/web from revision 1 to revision 2 with the edited values?") ||
		!strings.Contains(conf[0].Question, "(0 to create, 1 to change, 1 to delete)") {
		t.Fatalf("confirmations %+v", conf)
	}
	if n := len(c.helm.all()); n != 2 {
		t.Fatalf("wrote before the answer: %q", c.helm.all())
	}
	s.UI(conf[0].Do)
	waitFor(t, s, "the upgrade", func() bool { return len(c.helm.all()) == 3 })
	if got := c.helm.all()[2]; got != "upgrade shop/web secret dry-run=false latest=1 values=map[replicas:5]" {
		t.Errorf("call %q", got)
	}
	waitFor(t, s, "its message", func() bool {
		m := s.Messages()
		return len(m) > 0 && m[len(m)-1] == "upgraded release shop/web to revision 2"
	})
	s.UI(func() {
		if !strings.Contains(up.Status(), "upgraded: revision 2") || len(up.Bindings()) != 2 {
			t.Errorf("after the upgrade: status %q, %d keys", up.Status(), len(up.Bindings()))
		}
	})
}

func TestUpgradeUnchangedOrBadValuesOrRefusedUpgradesNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		saved  func(content string) string
		denied bool
		want   string // the last message or error
	}{
		{name: "unchanged", saved: func(c string) string { return c + "\n# a comment more\n" },
			want: "helm upgrade shop/web: the values are unchanged, nothing upgraded"},
		{name: "not YAML", saved: func(string) string { return "replicas: [5\n" },
			want: "helm upgrade shop/web: nothing upgraded: the values are not a YAML map"},
		{name: "read-only", denied: true, want: "read-only mode: refusing to upgrade release shop/web"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, s := newReleases(t)
			edited := 0
			s.Editor = func(content []byte) ([]byte, error) {
				edited++
				return []byte(tc.saved(string(content))), nil
			}
			if tc.denied {
				s.Guard.Permitted = func(what string, _ func()) { s.Errorf("read-only mode: refusing to %s", what) }
			}
			s.UI(func() { Spec.Commands[0].Run(s, nil) })
			v := s.Pushed()[0].(*Releases)
			installWeb(t, c)
			s.UI(v.Activate)
			waitFor(t, s, "web", func() bool { return len(v.content.Rows()) == 1 })
			s.Press(v, tcell.NewEventKey(tcell.KeyRune, 'e', 0))
			waitFor(t, s, "the outcome", func() bool {
				out := append(s.Messages(), s.Errors()...)
				return len(out) > 0 && strings.HasPrefix(out[len(out)-1], tc.want)
			})
			if len(c.helm.all()) != 0 || len(s.Pushed()) != 1 {
				t.Errorf("calls %q, %d screens", c.helm.all(), len(s.Pushed()))
			}
			if tc.denied && edited != 0 {
				t.Errorf("the editor opened in read-only mode")
			}
		})
	}
}

// changed is a diff's changed lines, "-old +new", joined by spaces.
func changed(lines []history.FoldedLine) string {
	var out []string
	for _, l := range lines {
		switch l.Op {
		case history.DiffRemoved:
			out = append(out, "-"+l.Text)
		case history.DiffAdded:
			out = append(out, "+"+l.Text)
		}
	}
	return strings.Join(out, " ")
}
