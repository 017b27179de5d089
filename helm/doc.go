// Package helm is the model of Helm releases as kscope shows them: the revisions Helm stores in a namespace's
// Secrets (type helm.sh/release.v1) or ConfigMaps, read from their labels alone (revision.go), grouped into
// releases (releases.go), kept live as a table of the latest revision of each release (source.go), and a
// revision's payload (chart, values, manifest, notes) decoded by Helm's own storage drivers (decode.go), once
// per revision and only when it is asked for.
//
// It reads through the cluster port (cluster.Sources for the live rows, cluster.Objects for one stored
// revision), so every request goes through kscope's connection and its read-only transport; it writes
// nothing. It never downloads a chart and never runs a hook.
package helm
