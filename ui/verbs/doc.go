// Package verbs holds kscope's object verbs, the writes a key makes on the object a view shows: edit (the
// object in the user's editor, as kubectl edit), scale, restart, delete, a pod's shell, port-forward (kept
// in the session's forwards.List until stopped), the node verbs (cordon, uncordon, drain with its dialog
// and progress), the workload verbs (trigger a cronjob, suspend or resume it, kill a pod, set a
// container's image), attach (kubectl attach -it: to the process a container runs) and debug (kubectl
// debug -it: an ephemeral container in a pod, a debug pod on a node, then attached to it; debug.go,
// debugnode.go); and Bindings, the keys of one object that bind them (with the app's openers of the
// object's screens among them, in the help's order).
//
// Every write asks first (Cancel focused) and carries its precondition (the UID shown, or the version
// read): a change since is a conflict said on the prompt line, never overwritten. Before a write is offered
// its permission is asked of the server (a SelfSubjectAccessReview, once per verb, resource and namespace
// for the view's life: Access); a key the server refuses says so in the help and on the status line
// (NotPermitted) and sends nothing. Read-only mode refuses every write before any question.
//
// On a table's marked rows (TableBindings, marked.go), delete, kill, scale and restart act on every row
// marked: each row's own precondition (its UID) and access (asked once per resource and namespace), one
// question listing them, one outcome line naming what failed and why ("deleted 5 of 6 pods; failed: …").
//
// It sits under ui: ui imports it, and it imports only the leaves (ui/keymap, ui/theme) and the models
// (cluster, discovery, watch, forwards, logs), never ui. What it needs of the app is the Host it is made
// with (host.go): the app's services (goroutines, the UI goroutine's queue, the prompt line, dialogs, the
// cluster of the moment), the terminal it suspends for a shell, an attachment or an editor, and the owner's
// table. ui's verbHost is that host; ui's tests drive the verbs through the app on a fake cluster, this
// package's tests drive them over a fake host (bindings_test.go).
//
// Verbs, Access and every function here run on the UI goroutine unless said otherwise; a request goes
// out on a goroutine of its own (Host.Go) and its answer comes back through Host.Update.
package verbs
