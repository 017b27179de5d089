package helm

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"time"

	rspb "helm.sh/helm/v4/pkg/release/v1"
	"sigs.k8s.io/yaml"

	"kscope/cluster"
	"kscope/helm"
	"kscope/history"
	"kscope/ui"
	"kscope/ui/apply"
	"kscope/ui/screenlife"
)

// upgradeHeader is the comment above the values the upgrade key opens in the editor.
const upgradeHeader = `# The values the user supplied to release %s (revision %d, chart %s).
# Change them, save and quit: kscope renders the upgrade with the server (helm upgrade --dry-run=server,
# with the chart stored in the release: nothing is downloaded) and shows its diff against the live objects
# before anything is written. What you save becomes the release's user-supplied values, the chart's
# defaults under them. Lines beginning with '#' are ignored; unchanged values upgrade nothing.
`

// Editor opens content in the user's editor (ui.Session.Edit): the saved text and the editor's file.
type Editor func(content []byte) (edited []byte, path string, err error)

// upgrading is an upgrade being prepared from a screen: its session's parts, the release's latest revision
// and what the screen's life guards. UI goroutine, but for what its goroutines read.
type upgrading struct {
	nav    ui.Navigator
	life   *screenlife.Life
	c      cluster.Interface
	edit   Editor
	latest helm.Revision
}

// start reads the latest revision's values, opens them in the editor, then dry-runs the upgrade with what
// was saved and pushes its plan; or says on the prompt line why nothing is upgraded. UI goroutine.
func (u upgrading) start() {
	key := u.latest.Key()
	u.nav.Message(fmt.Sprintf("reading the values of release %s …", key))
	u.life.Go(func(ctx context.Context) {
		rctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
		rel, err := helm.Decode(rctx, u.c, u.latest)
		cancel()
		var text string
		if err == nil {
			text, err = helm.Values(rel, false)
		}
		u.life.Update(func() {
			if err != nil {
				u.nav.Errorf("helm upgrade %s: %s", key, err.Error())
				return
			}
			u.editValues(rel, text)
		})
	})
}

// editValues opens the values text of rel in the editor and, when the user changed them, dry-runs the
// upgrade. UI goroutine: it blocks while the editor runs, as every editor kscope starts.
func (u upgrading) editValues(rel *rspb.Release, text string) {
	key := u.latest.Key()
	header := fmt.Sprintf(upgradeHeader, key, rel.Version, helm.Summarize(rel).Chart)
	edited, path, err := u.edit([]byte(header + text))
	if err != nil {
		u.nav.Errorf("helm upgrade %s: the editor failed: %s%s", key, err.Error(), apply.KeptIn(path))
		return
	}
	vals, err := parseValues(edited)
	if err != nil {
		u.nav.Errorf("helm upgrade %s: nothing upgraded: %s%s", key, err.Error(), apply.KeptIn(path))
		return
	}
	apply.RemoveFile(path)
	if sameValues(vals, rel.Config) {
		u.nav.Message(fmt.Sprintf("helm upgrade %s: the values are unchanged, nothing upgraded", key))
		return
	}
	u.nav.Message(fmt.Sprintf("dry run of the upgrade of release %s …", key))
	u.life.Go(func(ctx context.Context) {
		p, err := planUpgrade(ctx, u.c, u.latest, rel, vals)
		u.life.Update(func() {
			if err != nil {
				u.nav.Errorf("helm upgrade %s: nothing upgraded: %s", key, err.Error())
				return
			}
			u.nav.Push(NewUpgrade(u.nav, u.c, p))
		})
	})
}

// parseValues reads the values the user saved: a YAML (or JSON) map, '#' lines being comments; nothing
// (every line removed) is no value.
func parseValues(text []byte) (map[string]any, error) {
	vals := map[string]any{}
	if len(bytes.TrimSpace(apply.StripComments(text))) == 0 {
		return vals, nil
	}
	if err := yaml.Unmarshal(text, &vals); err != nil {
		return nil, fmt.Errorf("the values are not a YAML map: %w", err)
	}
	if vals == nil {
		vals = map[string]any{}
	}
	return vals, nil
}

// sameValues tells whether the values saved are those the revision holds, as YAML compares them (numbers
// read back as the same number).
func sameValues(saved, stored map[string]any) bool {
	if len(saved) == 0 && len(stored) == 0 {
		return true
	}
	a, err := yaml.Marshal(saved)
	if err != nil {
		return false
	}
	b, err := yaml.Marshal(stored)
	if err != nil {
		return false
	}
	return bytes.Equal(a, b) || reflect.DeepEqual(saved, stored)
}

// UpgradePlan is the dry run of an upgrade: the release's latest revision, the values to upgrade it with
// (their diff against the revision's), the revision Helm would make, each object of its manifest as the
// server would make it (apply.Plan, its diff against the live object), and the objects of the latest
// revision the new manifest no longer names (Helm deletes them). A plain value.
type UpgradePlan struct {
	Latest     helm.Revision
	Values     map[string]any
	ValuesDiff []history.FoldedLine
	Revision   int
	Results    []apply.Result
	Deleted    []helm.Object
}

// planUpgrade renders the upgrade of latest (decoded as rel) with vals by Helm's dry run on the server,
// then dry-runs the apply of each object of its manifest (forced: Helm owns their fields, not kscope) to
// diff it against the live one. Off the UI goroutine.
func planUpgrade(ctx context.Context, c cluster.Interface, latest helm.Revision, rel *rspb.Release, vals map[string]any) (UpgradePlan, error) {
	p := UpgradePlan{Latest: latest, Values: vals}
	before, err := yaml.Marshal(rel.Config)
	if err != nil {
		return p, fmt.Errorf("the revision's values: %w", err)
	}
	after, err := yaml.Marshal(vals)
	if err != nil {
		return p, fmt.Errorf("the values saved: %w", err)
	}
	p.ValuesDiff = history.FoldDiff(history.DiffLines(history.TextLines(string(before)), history.TextLines(string(after))), diffContext)
	up, err := c.HelmUpgrade(ctx, release(latest), vals, true)
	if err != nil {
		return p, err
	}
	p.Revision = up.Revision
	items, err := apply.Items([]apply.Source{{Name: "the rendered manifest", Data: []byte(up.Manifest)}},
		c.Catalog().Resources(), latest.Namespace)
	if err != nil {
		return p, err
	}
	pctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout*time.Duration(max(len(items), 1)))
	defer cancel()
	if p.Results, err = apply.Plan(pctx, c, items, true); err != nil {
		return p, err
	}
	old, err := helm.ManifestObjects(rel.Manifest, latest.Namespace)
	if err != nil {
		return p, fmt.Errorf("the revision's manifest: %w", err)
	}
	rendered, err := helm.ManifestObjects(up.Manifest, latest.Namespace)
	if err != nil {
		return p, fmt.Errorf("the rendered manifest: %w", err)
	}
	p.Deleted = deletedObjects(old, rendered)
	return p, nil
}

// deletedObjects are the objects of old that rendered does not name (by kind, namespace and name).
func deletedObjects(old, rendered []helm.Object) []helm.Object {
	kept := map[string]bool{}
	for _, o := range rendered {
		kept[o.Kind+" "+o.Namespace+"/"+o.Name] = true
	}
	var out []helm.Object
	for _, o := range old {
		if !kept[o.Kind+" "+o.Namespace+"/"+o.Name] {
			out = append(out, o)
		}
	}
	return out
}
