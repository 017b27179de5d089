package helm

import (
	"fmt"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/helm"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/union"
	"kscope/watch"
)

// keys are the Helm screens' keys: their family of the key table (Spec.Keys).
var keys = struct {
	Revisions, History, Objects, Filter, Diff, Describe, Values, AllValues, Manifest, Notes, YAML, Search, NextMatch, Copy, Rollback, Uninstall, Upgrade, Apply, Storage keymap.KeyDef
}{
	Revisions: keymap.NewKey("release revisions", keymap.Key(tcell.KeyEnter, "enter"),
		"the selected release's revisions (helm history): status, chart, app version, description"),
	History: keymap.NewKey("release history", keymap.Char('h'),
		"the selected release's revisions, as enter (helm history; h is history on every object)"),
	Objects: keymap.NewKey("release objects", keymap.Char('o'),
		"a live table of the objects the selected release's manifest names, with their HEALTH (kstatus); the object keys act on each (t: its tree)"),
	Diff: keymap.NewKey("revision diff", keymap.Key(tcell.KeyEnter, "enter"),
		"in the revisions: the selected revision's values and manifest against the latest's"),
	Filter: keymap.NewKey("filter", keymap.Char('/'),
		"show only the releases matching a regular expression (any cell; esc: all)"),
	Describe: keymap.NewKey("describe", keymap.Char('d'),
		"the selected release or revision as kubectl describe would print it: status, chart, times, values, the objects it made, hooks, notes"),
	Values: keymap.NewKey("values", keymap.Char('v'),
		"the values the user supplied to the selected release or revision (helm get values)"),
	AllValues: keymap.NewKey("all values", keymap.Char('a'),
		"in the values: every value the chart was rendered with, its defaults included (helm get values --all), or the user's again"),
	Manifest: keymap.NewKey("manifest", keymap.Char('m'), "the manifest the selected release or revision rendered (helm get manifest)"),
	Notes:    keymap.NewKey("notes", keymap.Char('n'), "the notes of the selected release or revision (helm get notes)"),
	YAML:     keymap.NewKey("yaml", keymap.Char('y'), "the selected release or revision as Helm stores it, as YAML (its chart's metadata, not its files)"),
	Search:   keymap.NewKey("search", keymap.Char('/'), "in a text: search it (n: next match)"),
	NextMatch: keymap.NewKey("next match", keymap.Char('n'),
		"in a text: go to the next search match"),
	Copy: keymap.NewKey("copy", keymap.Char('c'), "in a text: copy it to the clipboard"),
	Rollback: keymap.NewKey("rollback", keymap.Char('r'),
		"in the revisions: roll the release back to the selected revision, as helm rollback (asks first)"),
	Uninstall: keymap.NewKey("uninstall", keymap.Key(tcell.KeyCtrlD, "ctrl-d"),
		"uninstall the selected release, as helm uninstall, keeping its history or not (asks first)"),
	Upgrade: keymap.NewKey("upgrade", keymap.Char('e'),
		"edit the selected release's values in $KUBE_EDITOR or $EDITOR, then a server dry run of the upgrade (the chart stored in the release, nothing downloaded) and its diff against the live objects"),
	Apply: keymap.NewKey("upgrade apply", keymap.Char('a'),
		"in an upgrade's dry run: upgrade the release with the edited values, as helm upgrade (asks first)"),
	Storage: keymap.NewKey("helm storage", keymap.Shifted('Z'),
		"in a Secrets table: show the Secrets Helm stores releases in (type helm.sh/release.v1, hidden: :helm shows them), or hide them again"),
}

// Spec declares the Helm screens to the app (ui.Options.Registered): `:helm [NS|all]` opens the releases of
// NS (else the view's namespace); Tab after it offers all and the namespaces.
var Spec = ui.ScreenSpec{
	Keys: keymap.Family{Title: "Helm releases (:helm)", Screen: "ui/helm", Defs: []keymap.KeyDef{
		keys.Revisions, keys.History, keys.Objects, keys.Filter, keys.Diff, keys.Describe, keys.Values, keys.AllValues, keys.Manifest, keys.Notes, keys.YAML,
		keys.Search, keys.NextMatch, keys.Copy, keys.Rollback, keys.Uninstall, keys.Upgrade, keys.Apply, keys.Storage}},
	Commands: []ui.Command{{
		Names:      []string{"helm", "hr", "releases"},
		Usage:      "[NS|NS,NS…|all] [@CTX,…] (the Helm releases, live)",
		Args:       true,
		Candidates: func(s ui.Session) []string { return append([]string{"all"}, s.Namespaces()...) },
		Run:        open,
	}},
	Hidden: []ui.HiddenRows{{
		Applies: func(res discovery.Resource) bool { return res.Group == "" && res.Name == "secrets" },
		Rows:    livetable.Hidden{Key: keys.Storage, What: "Helm release Secrets", Hide: releaseSecret},
	}},
}

// releaseSecret tells whether row, a row of a Secrets table with columns, is a Secret Helm stores a revision
// in (its TYPE helm.sh/release.v1).
func releaseSecret(columns []watch.Column, row *watch.Row) bool {
	for i, c := range columns {
		if c.Name == "Type" || c.Name == "TYPE" {
			return i < len(row.Cells) && row.Cells[i] == "helm.sh/release.v1"
		}
	}
	return false
}

// open is the command: the releases of the namespaces args name (all: every namespace; NS,NS…: several;
// none: the view's), in the clusters of its @-words (none: the view's, or those of the table of several on
// top), pushed; or why they cannot be, on the prompt line.
func open(s ui.Session, args []string) {
	contexts, rest, err := s.Clusters(args)
	if err != nil {
		s.Errorf("helm: %s", err.Error())
		return
	}
	ns := s.Namespace()
	var namespaces []string
	switch {
	case len(rest) > 1:
		s.Errorf("helm: one word for the namespaces (NS, NS,NS… or all), not %d", len(rest))
		return
	case len(rest) == 1 && rest[0] == "all":
		ns = ""
	case len(rest) == 1:
		if namespaces, err = union.ParseNamespaces(rest[0]); err != nil {
			s.Errorf("helm: %s", err.Error())
			return
		}
		ns = namespaces[0]
	}
	rows, err := releasesSource(s, contexts, ns, namespaces)
	if err != nil {
		s.Errorf("helm: %s", err.Error())
		return
	}
	s.Push(NewReleases(s, rows, title(ns, namespaces, contexts), func(rev helm.Revision, apiVerb string) ui.WriteGuard {
		return s.WriteGuard(storageResource(rev.Driver), storageRow(rev), apiVerb)
	}))
}

// where names a namespace for the titles: "all" for every one.
func where(ns string) string {
	if ns == "" {
		return "all"
	}
	return ns
}

// revisionTitle names a revision for the titles: "shop/web" (latest) or "shop/web #3".
func revisionTitle(key string, number int) string {
	if number == 0 {
		return key
	}
	return fmt.Sprintf("%s #%d", key, number)
}
