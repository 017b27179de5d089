// Package changes is the model of the live feed of changes (`:changes`): what changed, of which object,
// by which field manager, in which top-level fields, as the metadata-only watches of every listable kind
// report it, newest first. It draws nothing (the screen is package ui/changes) and never imports the
// terminal interface.
//
// Model is the feed: a ring of the latest changes (Capacity, 2,000: the oldest goes first) and, per object
// watched, the least needed to tell who made the next change: its resourceVersion's hash and, per
// managedFields entry, the entry's manager, operation and subresource (shared strings), time (seconds) and
// a hash of its fieldsV1. No object and no field set is kept. The first list of a watch is not a change: it
// only fills that state; later lists (a relist after the watch expired) are compared with it, and what
// differs is reported as created, updated or deleted.
//
// Who made a change (Writer) follows history.LastWriter over the kept state: the entry that is new or
// changed since the version before (a changed hash at the entry's old time means it lost fields to
// another manager: a candidate only when no entry wrote), the newest if several are; where none changed, or
// for a creation, the newest entry, not sure when another is as new. A deletion names no manager (the
// server stamps none). FIELDS are the top-level fields of that entry's fieldsV1 (metadata's one level
// deeper: metadata.labels), decoded with structured-merge-diff.
//
// Bound: the ring holds at most Capacity changes (strings shared with the state); the state grows with the
// objects watched, not with the changes. BenchmarkFeed (50k objects listed with two managedFields entries
// each, then 100k updates, -benchtime=100000x): 7.5 MB held after GC in all, 151 B per object, ~2.8 µs and
// 4.7 kB allocated per update (mostly decoding the writer's fieldsV1).
//
// Source runs the watches: one reflector per kind and namespace (cluster-scoped kinds only when all
// namespaces are watched), over a metadata client (PartialObjectMetadata, managedFields kept), writing
// straight into the Model (no informer store). A kind the user may not list or watch (403), or that is not
// served, stops for good and is named in Progress; the others go on.
//
// Goroutine contracts: Model and Source are safe for concurrent use (the reflectors write, the UI reads);
// Change and Progress are plain values.
package changes
