package helm

import (
	"context"
	"fmt"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/helm"
	"kscope/ui"
	"kscope/ui/screenlife"
	"kscope/watch"
)

// Guard is the checks a Helm write makes before it asks, as every object verb's (ui.Session's WriteGuard):
// read-only mode refuses it with kscope's message, the server's answer to an access review of apiVerb on the
// object a revision is stored in refuses it on the prompt line. Nil: the screens offer no write.
type Guard func(rev helm.Revision, apiVerb string) ui.WriteGuard

// storageResource is the resource the objects of driver d are, for the access checks.
func storageResource(d helm.Driver) discovery.Resource {
	gvr := d.GVR()
	kind := "Secret"
	if d == helm.ConfigMaps {
		kind = "ConfigMap"
	}
	return discovery.Resource{Version: gvr.Version, Name: gvr.Resource, Kind: kind, Namespaced: true,
		Verbs: []string{"create", "delete", "get", "list", "patch", "update", "watch"}}
}

// storageRow is the row of the object rev is stored in, for the access checks and their messages.
func storageRow(rev helm.Revision) *watch.Row {
	return &watch.Row{Key: rev.Namespace + "/" + rev.Object, Namespace: rev.Namespace, Name: rev.Object, UID: rev.UID,
		ResourceVersion: rev.ResourceVersion}
}

// release is what a write names of the release whose latest revision is latest.
func release(latest helm.Revision) cluster.HelmRelease {
	return cluster.HelmRelease{Namespace: latest.Namespace, Name: latest.Release, Driver: string(latest.Driver),
		Latest: latest.Number}
}

// rollback asks, then rolls the release whose latest revision is latest back to revision to, through c, saying
// how it went on the prompt line; life guards what comes back. UI goroutine.
func rollback(nav ui.Navigator, life *screenlife.Life, c cluster.Interface, guard ui.WriteGuard, latest, to helm.Revision, toChart, latestChart string) {
	key := latest.Key()
	what := fmt.Sprintf("roll back release %s to revision %d", key, to.Number)
	guard.Permitted(what, func() {
		q := fmt.Sprintf("Roll back release %s from revision %d%s to revision %d%s? Helm applies revision %d's manifest "+
			"and values as revision %d and runs its hooks in the cluster.", key, latest.Number, chartWords(latestChart),
			to.Number, chartWords(toChart), to.Number, latest.Number+1)
		nav.Confirm(q, "Roll back", func() {
			nav.Message(fmt.Sprintf("rolling back release %s to revision %d …", key, to.Number))
			life.Go(func(ctx context.Context) {
				err := c.HelmRollback(ctx, release(latest), to.Number)
				life.Update(func() {
					if err != nil {
						nav.Errorf("%s", err.Error())
						return
					}
					nav.Message(fmt.Sprintf("rolled back release %s to revision %d (now revision %d)", key, to.Number, latest.Number+1))
				})
			})
		})
	})
}

// uninstall asks whether and how (keeping the release's history or not, Cancel first), then uninstalls the
// release whose latest revision is latest through c, saying how it went on the prompt line. UI goroutine.
func uninstall(nav ui.Navigator, life *screenlife.Life, c cluster.Interface, guard ui.WriteGuard, latest helm.Revision) {
	key := latest.Key()
	guard.Permitted("uninstall release "+key, func() {
		items := []string{"Cancel", "Uninstall: delete its objects and its history",
			"Uninstall: delete its objects, keep its history (--keep-history)"}
		nav.Choose(fmt.Sprintf("Uninstall release %s (revision %d)?", key, latest.Number), items, 0, func(i int) {
			if i <= 0 {
				return
			}
			keep := i == 2
			nav.Message(fmt.Sprintf("uninstalling release %s …", key))
			life.Go(func(ctx context.Context) {
				info, err := c.HelmUninstall(ctx, release(latest), keep)
				life.Update(func() {
					if err != nil {
						nav.Errorf("%s", err.Error())
						return
					}
					msg := "uninstalled release " + key
					if keep {
						msg += " (history kept)"
					}
					if info != "" {
						msg += ": " + info
					}
					nav.Message(msg)
				})
			})
		})
	})
}

// chartWords names a chart in a question (" (web-1.2.0)"), or nothing when it is not known yet.
func chartWords(chart string) string {
	if chart == "" || chart == "<error>" {
		return ""
	}
	return " (" + chart + ")"
}
