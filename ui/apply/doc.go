// Package apply is kscope's `kubectl apply --server-side` with `kubectl diff` before it: `:apply FILE|DIR|-`
// and the table's "new from this object" key read YAML or JSON documents (a file, a folder's *.yaml, *.yml
// and *.json files in name order, or a document written in the user's editor), check every one of them
// (it parses, names apiVersion, kind and metadata.name, and a kind the catalog knows: else nothing is
// applied), ask the server whether the user may (SelfSubjectAccessReview: patch, or create for an object
// that does not exist yet), dry-run the apply of each (dryRun=All, field manager kscope), and show per
// object whether it would be created, changed or left unchanged, with the diff of the live object against
// the dry run's result. Only on the user's confirmation (Cancel focused) is the apply sent. A field another
// manager owns is a conflict, named with that manager; force (force=true) is offered only on a further
// request, again dry-run first and confirmed.
//
// `:apply PATH` reads off the UI goroutine (Host.Go), behind an apply screen saying what it reads, and esc
// there (or quitting) cancels the read: the path is opened non-blocking and checked after the open, so that
// a FIFO, a device or a socket is refused unread, and at most MaxFiles files and MaxBytes bytes in all are
// read (Limits); each refusal is one line.
//
// ui registers it with one call each (the command and the key); the package never imports ui: its View has
// the methods of ui.Screen, and Host is what it asks of the app. UI goroutine only, but for the requests
// and the read of a path, which run on goroutines of their own (Host.Go).
package apply
