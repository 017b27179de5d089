// Package ui owns kscope's terminal interface, built on tview and tcell: the resource picker, the live tables
// (package ui/livetable) and what opens them, the events views, the command and filter bars, the help
// screen; the object verbs (edit, scale, restart, delete, a pod's shell and attach, port-forward, …) are
// package ui/verbs, which the app hosts. All drawing
// happens on the one tview goroutine; data arrives from package watch and is applied in batched QueueUpdate
// calls.
//
// What the screens ask of the cluster is declared in package cluster: cluster.Interface and its roles
// (Objects, Streams, Metrics, Access, Sources), the values they take and return, and the optional capabilities
// of a row source (cluster.Settler, Pulser, Versioner). Package kube implements them without importing ui;
// ui and its screens name them as package cluster does (cluster.Interface, cluster.RowSource, …).
//
// What the views show but do not draw lives in packages of its own, which never import ui: package logs (the
// lines a logs view keeps, the followers that read them), package history (the versions of objects, who
// made them, their diffs), package changes (the live feed's model). This package holds what ties them to the
// App.
//
// Most screens live in packages of their own under ui/, which ui never imports. They implement Screen and ask
// the app only what Navigator offers plus what they are opened with. A screen declares itself in its package
// (a ScreenSpec, registry.go: its commands and Tab's words for them, its keys on the selected object and
// which resources they apply to, its family of keys, the roles it plays) and the program lists it in
// Options.Registered (cli/screens.go, one line): ui/portforwards (`:pf`), ui/changes (`:changes`),
// ui/rollouts (shift-r on a workload), ui/treeview (`t` on any object), ui/pulse (`i` on a live table:
// ScreenSpec.Tables) and ui/helm (`:helm`, which also hides Helm's release Secrets in Secrets tables until
// shift-z: ScreenSpec.Hidden). The screens kscope's own keys open play a role (ScreenSpec.Plays, Roles in
// roles.go, named by what they show): ui/objectview the YAML and the description of an object, ui/versions
// its history and blame, ui/logview its logs, ui/containers a pod's containers, ui/contexts the kubeconfig's
// contexts; a key whose role no registered screen plays is not bound. ui's tests register stubs.
//
// # Layers
//
// The packages under ui/ are layered, each importing only those before it:
//
//  1. the leaves ui/keymap (the one key table, Keys, and Binding), ui/theme (the colors, a k9s skin's over
//     kscope's) and ui/host (Core: what every part asks of the app alike, which the Host interfaces below and
//     Navigator embed), which every ui package uses; ui/files (the saved files and the clipboard), which the
//     core uses for Navigator's SaveFile and CopyToClipboard;
//  2. the parts of the app in packages of their own, each asking the app only through a Host interface it
//     declares (client-go style), which ui implements or adapts in one file; ui's own tests drive them
//     through the app, which they can since ui imports them:
//     ui/livetable, the live table: rows, sort, filter, flashes, its HEALTH and metrics columns, views.yaml
//     layouts, save; ui's tableHost (tablehost.go) is its host and adds the app's part (help, the object
//     verbs and their access checks, the screens a table opens, enter's drill-down, plugins);
//     ui/drill, what Enter opens below a row (jumps.yaml's rules, the built-in drill-downs); drillHost
//     (drilldown.go) is its host;
//     ui/verbs, the object verbs (edit, scale, restart, delete, shell, attach, port-forward, the node and
//     workload verbs, debug), their access checks (verbs.Access) and the object keys that bind them (Verbs.Bindings);
//     ui's verbHost (verbhost.go) is its host;
//     ui/plugins, the configured keys: plugins (their scopes, variables, inputs, runs) and hotkeys; ui's
//     pluginHost (pluginhost.go) is its host, and ui gives their keys out among kscope's (keyconflicts.go);
//     it imports ui/livetable (a table is a plugins.Subject), the one import within this layer;
//     ui/picker, the start screen (the catalog's resources, filtered as typed); ui's pickerHost
//     (pickerhost.go) is its host;
//     ui/apply, the :apply screen (the server-side dry run's diff, then the apply); ui's applyHost
//     (applyhost.go) is its host;
//  3. ui, the core: App, the stack, the prompt and status lines, the dialogs, commands, the
//     opening of screens (the registered ScreenSpecs: registry.go, and the roles they play: roles.go), the
//     terminal handed to a child (suspend.go);
//  4. the screens (ui/pulse, ui/logview, ui/treeview, ui/versions, ui/objectview, ui/contexts,
//     ui/containers, ui/portforwards, ui/rollouts, ui/changes, ui/helm), which import ui (Screen, Navigator,
//     Session, ScreenSpec) and which ui never imports; ui/screenlife, the lifecycle they keep, and
//     ui/searchtext, the searchable text the object and Helm views show, are among them.
//
// # Structure
//
// App is the hub: the header, a stack of views, the command bar, the status line, and the few keys that work
// everywhere (globalBindings: `:`, esc, ctrl-c). Everything else belongs to a view. Parts of the session
// are services of their own, each a type the session embeds: prompts (prompts.go: the prompt line's messages
// and errors, its questions, the dialogs over the views, the notices of kscope's standard error), userFiles
// (clipboard.go: the clipboard and the saved files) and terminal (lifecycle.go, suspend.go: the terminal
// handed to a child, the end of the UI on a signal); App's methods of Navigator and host.Prompts are theirs.
// A view (the Screen interface in app.go, its methods exported so that a view can live in a package of its
// own) draws one screen and returns its own keys from Bindings(), as closures over itself; it also gives
// its status-line text, what esc clears before the app goes back, the keys no binding took (the picker
// types them into its filter), and how it follows a namespace switch. BaseScreen gives the
// defaults. A live screen keeps a screenlife.Life (package ui/screenlife): started in its first Activate
// under a context of its own, stopped in Close, and every update its goroutines hand back goes through
// Life.Update, dropped once the screen is closed. The help screen is generated from the same bindings: the
// top view's, then the global ones.
// The prompt line (the command and filter bars) is a prompt.Bar: package ui/prompt holds the widget and what
// it does with typed text (command-line words, Tab completion) apart from client-go, so that its fuzz
// targets run fast; newCommandBar connects it to the app's focus and status line.
//
// # A key press
//
//  1. tview hands every key to App.capture on the UI goroutine.
//  2. While the command bar or a dialog is open, the key goes to it (ctrl-c still quits).
//  3. Otherwise App.viewKeys gives out the keys (keyremap.go, keyconflicts.go): the top view's bindings()
//     and globalBindings() as keys.yaml remaps them, the plugins that apply to the view (plugins.Subject),
//     and the hotkeys; a plugin or hotkey on a key taken already is left out (with override: true it takes the
//     key from kscope's binding instead), said once on the prompt line and listed in the help. The binding
//     whose key matches runs, and the key goes no further.
//  4. A key no binding took is offered to the view's typed(), then to the focused widget (scrolling).
//
// A binding that needs the server (resolve a name, get an owner, delete) starts the request with Go
// and applies the answer with QueueUpdateDraw, so the UI goroutine never waits on the network. The
// exceptions are edit, shell and attach: the TUI is suspended (tview's Suspend, through verbs.Host) for the
// editor, and the update is sent before it resumes; or for the shell (ui/verbs/shell.go: an exec with a TTY,
// the terminal in raw mode) until it exits; or for an attachment (ui/verbs/attach.go, kubectl attach -it, the
// terminal handed over as for the shell) until the user detaches (ctrl-p ctrl-q) or the process ends. A
// port-forward (ui/verbs) runs in the background until it is stopped in the :pf screen (package
// ui/portforwards, over the app's forwards.List), its pod goes away, the context switches or kscope quits.
//
// # Streams
//
// The logs screen is package ui/logview, registered in Options.Registered (it plays Roles.Logs): `l` and `p`
// (objectBindings) are bound only when it is, and ui hands it the Options of the logs (LogSettings). It reads
// what package logs holds; ui gives it a Navigator (its dialogs, clipboard and saved files, the spacing of
// redraws) and runs the plugins of its logs of one pod (plugins.Subject).
//
// # Tables of several namespaces or kinds
//
// `:pods shop,web` and `:deploy,sts,ds` / `:all` are live tables like any other, over a union source (package
// union) that runs one source per namespace or per kind and gathers their rows
// into a watch.StaticSource, so that sorting, filtering and change marks are the table's usual ones. A table
// of several kinds has a KIND column first ("deployment.apps", as kubectl prefixes names) and the kinds' own
// columns when they all have the same ones, else NAME, NAMESPACE and AGE; its rows name their own resource,
// which the object keys act on (kindstable.go opens it, ui/livetable/kinds.go reads a row's kind), and its
// state names the kind that failed.
//
// # Writes
//
// The object keys (objectBindings in actions.go, over verbs.Verbs.Bindings) are shared by every view that
// shows one object. A write is a verb (package ui/verbs): the resources it applies to, the permission it
// needs, and how it starts. Before a write is offered the view's verbs.Access asks the server (a SelfSubjectAccessReview, once per verb,
// resource and namespace for the view's life); the status line and the help name what is not permitted,
// and pressing such a key sends nothing. Read-only mode refuses every write before any question, and the
// read-only transport (package kube/readonly) refuses what would still get through. Each write asks first
// (confirm: Cancel focused) and reports its outcome on the prompt line. Shell, attach and port-forward are
// verbs too (create on pods/exec, pods/attach and pods/portforward, asked about pods even from a service or
// a deployment); they ask nothing first, since the container or port picker comes before them. The keys
// objectBindings gives depend on the resource (`s` is shell on pods, scale elsewhere; shift-f only where port-forward applies),
// so the help shows the right one. In a live table, rows marked (space, ctrl-space, *; ctrl-\ clears:
// ui/livetable/marks.go) are what delete, kill, scale, restart and the plugins act on (tablemarks.go hands
// them to verbs.Verbs.TableBindings): one question lists them, each row keeps its own precondition.
//
// # History and blame
//
// kscope keeps the versions of what it watches; package history holds them and the comparisons, package
// ui/versions the screens (history, diff, blame), registered in Options.Registered (they play
// Roles.History and Blame). The YAML views' watches record each full object in the app's history.Book (50
// versions an object, 32 MB estimated in all), and each table's source keeps its rows' versions
// (watch.Source.Versions: 50 a row, 5000 a table). `h` opens the history screen with a function over both
// for one object (historyentries.go: historyOf, history.Entries); `b` the blame screen with the object the
// YAML view shows.
//
// # Views of one object
//
// The YAML and describe views, their search and health panel, are package ui/objectview, registered in
// Options.Registered (Roles.YAML, Describe); openYAML (roles.go) is ui's one way to the YAML view.
// ui hands each view an ObjectView: the object keys above (objectBindings, the view telling which UID it
// shows and whether it was deleted: verbs.ShownRow), the openers of history, blame and YAML, and
// the recording of its watch in the versions book.
//
// # Rollouts
//
// shift-r on a deployment, statefulset or daemonset (the tables and the views of one object) opens the
// rollouts screen (package ui/rollouts, registered: rollouts.Spec's object key): its revisions, a revision's
// diff, and the undo to one. The undo is a write of the screen's own, over cluster.Rollouts; the session hands
// the screen a WriteGuard (Session.WriteGuard, rollouts.go) so that it is checked as the object verbs are
// (verbs.Verbs.WriteCheck: read-only mode refuses it, the server's access review of patch on the workload is
// asked first) before the screen asks.
//
// # Enter: drilling down
//
// Enter on a row opens what is below it, as in k9s: package ui/drill decides (drill.Down, hosted by
// drillHost in drilldown.go): a rule of jumps.yaml for the row's resource first (Options.Jumps: the object
// read, the rule's field references resolved over it by config.Jump.Select, refused or escaped, the target
// resolved through the catalog, a live table of it opened with the selectors sent to the server, titled
// after the object); else a workload's or a service's pods (its selector), a node's pods (spec.nodeName), a
// CRD's objects, a cronjob's jobs (union.NewOwned: the namespace's jobs kept by the ownerReferences a
// metadata watch of them reads, both live), a pod's containers (the registered screen, package
// ui/containers, handed a ContainerView: Keys.Containers acting on the selected container, checked and
// refused as the object keys); else the YAML. On a namespace it switches (enterNamespace): the table below
// reopens there, or the last namespaced resource of the history, else the pods.
//
// # Adding a screen
//
// A new screen is a package of its own under ui/ (ui/portforwards and ui/changes are the examples of one a
// command opens, ui/rollouts and ui/treeview of one a key on the selected object opens) plus one registration
// line. Its type embeds BaseScreen and implements Crumb, Primitive,
// Activate, Close and Bindings (plus Status, Escape, Typed or NamespaceChanged where it needs them); it asks
// the app only through the Navigator it is given (push, prompt and status lines, goroutines, the theme, the
// clock, the cluster) and through the values it is opened with; its package declares it:
//
//	var keys = struct{ Stop keymap.KeyDef }{Stop: keymap.NewKey("stop", keymap.Key(tcell.KeyCtrlD, "ctrl-d"), "…")}
//
//	var Spec = ui.ScreenSpec{
//		Keys:     keymap.Family{Title: "Port-forwards view (:pf)", Screen: "ui/portforwards", Defs: []keymap.KeyDef{keys.Stop}},
//		Commands: []ui.Command{{Names: []string{"pf", "portforwards"}, Usage: "(port-forwards)",
//			Run: func(s ui.Session, _ []string) { s.Push(New(s, s.Forwards())) }}},
//	}
//
// and the program lists `portforwards.Spec` in cli/screens.go. Its command joins the command bar (with its
// aliases and Tab's words), its usage the `:` key's description, its keys the key table: the help, keys.yaml's
// names (keymap.Names over KeyFamilies) and README.md's key tables (cli's TestREADMEKeys fails until
// `go generate ./cli` rewrites them). What a command needs of the session beyond Navigator (the view's
// namespace and clusters, connections to other contexts, the history and YAML screens, a write's guard, the
// forwards) is Session's. A key on the selected object is a ScreenSpec.Objects entry (its key, the resources
// it applies to, how it opens), bound after kscope's own object keys in the tables and the views of one
// object. A command name or key that kscope or an earlier registered screen has in the same views is said on
// the prompt line at start (ScreenCollisions, keyconflicts.go), and kscope's command, or the earlier screen's,
// is the one that runs; cli's TestRegisteredScreensCollideWithNothing keeps the program's screens clear of
// them. The screen's own tests check it binds its family's keys (ui/navtest's Nav and Session are what
// those tests use).
//
// A screen that kscope's own keys open (Enter's last resort, `y`, `h`, `d`, `l`) plays a role instead: the
// role is named by what the screen shows (Roles: the YAML of an object, its history …), its keys are written
// in keymap.Keys (ui/keymap/table.go) in the family of the view they are pressed in, and they are bound only
// when a registered screen plays it; the screen's package declares the role with its constructor:
//
//	var Spec = ui.ScreenSpec{Keys: keymap.Family{Screen: "ui/versions"},
//		Plays: ui.Roles{History: NewHistory, Blame: NewBlame}}
//
// A screen opened from another screen's key asks for it through what it is handed (ObjectView's openers,
// Session.OpenHistory and OpenYAML), never through a type assertion on the view on top. Two screens playing
// one role are said at start as the collisions above are, and the first registered is the one opened.
//
// ui's own tests register stub screens in their harness (they cannot import a package that imports ui); the
// e2e tests run the real ones. TestNoKeyBoundTwice checks that the keys collide with none of the view's or the
// global ones and that every key bound is Keys's.
//
// # Keys and colors from the configuration
//
// keys.yaml's remaps are applied where the bindings are consulted (App.keys: the key handling and the help
// both go through it), so the one key table stays the truth: a remap onto a key the view already has is
// not applied in that view, and said once. A k9s skin becomes a theme (package ui/theme) that the views read their
// colors from; without one the theme is kscope's own look.
package ui
