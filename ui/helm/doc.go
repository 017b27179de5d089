// Package helm is the Helm screens: `:helm` (aliases `:hr`, `:releases`), the live table of a namespace's
// releases (or every namespace's), one row per release, its latest revision; enter, a release's revisions;
// on a release or a revision, its values (the user's, or every value computed), its manifest, its notes and
// the release as YAML, each searchable and copyable, and read again when the revision's object changes.
//
// The rows come from package helm's Source: the labels of the objects Helm stores revisions in, listed and
// watched, and each latest revision decoded once by Helm's own storage drivers. Nothing here writes, runs a
// hook or downloads a chart. The screens declare themselves (Spec) and ask only ui.Session and ui.Navigator.
package helm
