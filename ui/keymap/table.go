package keymap

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/gdamore/tcell/v2"
)

// KeyDef is one of kscope's own keys in Keys: its name (the help's NAME column, what keys.yaml rebinds),
// its default key, and what it does (the help's DESCRIPTION). The views build their bindings from it
// (bind), so the table is the only place a key and its description are written.
type KeyDef struct {
	Name        string
	Key         Binding // Key, Rune and Label; no action
	Description string
	// Fixed keys cannot be rebound in keys.yaml.
	Fixed bool
}

// NewKey is the key table's entry for the key k called name, doing what description says: the core's
// (Keys) and those a screen in a package of its own declares in its family.
func NewKey(name string, k Binding, description string) KeyDef {
	return KeyDef{Name: name, Key: k, Description: description}
}

// newKey is NewKey, as Keys writes it.
func newKey(name string, k Binding, description string) KeyDef { return NewKey(name, k, description) }

// fixed returns d that keys.yaml cannot rebind.
func (d KeyDef) fixed() KeyDef {
	d.Fixed = true
	return d
}

// Bind returns d's key, named and described as the table says, running run (nil: a key the focused widget
// handles itself).
func (d KeyDef) Bind(run func()) Binding { return d.Key.Does(d.Name, d.Description, run) }

// Keys is every key kscope binds itself (not the configured plugins and hotkeys), by the views they
// belong to. README.md's key tables are generated from it and the registered screens' families (cli's TestREADMEKeys), and keys.yaml may rebind
// every name in it but the fixed ones (Names). A view decides which of its family's keys it
// offers, and in which order (the help lists them so). Never written: it is read by the screens of every
// package, which build their bindings with Bind.
var Keys = KeyFamilies{
	Global: globalKeys{
		Command: newKey("command", Char(':'), "command bar: a resource (pods, deploy, widgets.shop.example.com) [@CTX,@CTX…] [NS,NS…], ns [NAME], ctx [NAME] (alone: the contexts), apply FILE|DIR|- (server-side, after a dry run's diff), q"),
		Back:    newKey("back", Key(tcell.KeyEscape, "esc"), "clear the filter or search, else go back"),
		Move:    newKey("move", Binding{Label: "↑↓ j k pgup pgdn g G"}, "move the selection / scroll").fixed(),
		Quit:    newKey("quit", Key(tcell.KeyCtrlC, "ctrl-c"), "quit kscope"),
	},
	Views: viewsKeys{
		Help: newKey("help", Char('?'), "show the keys of this view"),
		Quit: newKey("quit", Char('q'), "quit kscope"),
	},
	Picker: pickerKeys{
		Filter: newKey("filter", Char('/'), "filter the resources (as typing does)"),
		Open:   newKey("open", Key(tcell.KeyEnter, "enter"), "open the selected resource's live table"),
		Wide:   newKey("wide", Key(tcell.KeyCtrlW, "ctrl-w"), "show or hide VERBS and CATEGORIES"),
	},
	Table: tableKeys{
		Filter:        newKey("filter", Char('/'), "filter rows (regex or -l label selector)"),
		Open:          newKey("open", Key(tcell.KeyEnter, "enter"), "pods of workload/service/node, jobs of cronjob, containers of pod, objects of CRD; ns: switch, its last resource; else YAML"),
		YAML:          newKey("yaml", Char('y'), "show the selected object's YAML, live"),
		History:       newKey("history", Char('h'), "the versions seen of the selected object: who changed what (enter: diff)"),
		Copy:          newKey("copy", Char('c'), "copy the selected object's name to the clipboard"),
		Save:          newKey("save", Key(tcell.KeyCtrlS, "ctrl-s"), "save every row of the table as shown (filter and sort applied) to CSV or JSON"),
		Wide:          newKey("wide", Char('w'), "show or hide the wide columns"),
		SortName:      newKey("sort name", Shifted('N'), "sort by NAME; again: reverse"),
		SortAge:       newKey("sort age", Shifted('A'), "sort by AGE; again: reverse"),
		SortNext:      newKey("sort next", Char('>'), "sort by the next column (was s)"),
		Reverse:       newKey("reverse", Char('!'), "reverse the sort direction (was r)"),
		AllNamespaces: newKey("all namespaces", Char('0'), "show every namespace"),
		Favorite1:     favorite(1),
		Favorite2:     favorite(2),
		Favorite3:     favorite(3),
		Favorite4:     favorite(4),
		Favorite5:     favorite(5),
		Favorite6:     favorite(6),
		Favorite7:     favorite(7),
		Favorite8:     favorite(8),
		Favorite9:     favorite(9),
		Faults:        newKey("faults", Key(tcell.KeyCtrlZ, "ctrl-z"), "show only the rows that are not healthy, live (pods: not Running/Completed, restarts, not ready; other kinds: kstatus, HEALTH on meanwhile); again: all"),
		Mark:          newKey("mark", Binding{Key: tcell.KeyRune, Rune: ' ', Label: "space"}, "mark or unmark the selected row: delete, kill, scale, restart and plugins act on every marked row (one confirmation)"),
		MarkRange:     newKey("mark range", Key(tcell.KeyCtrlSpace, "ctrl-space"), "mark the rows from the last one marked to the selected one"),
		MarkClear:     newKey("clear marks", Key(tcell.KeyCtrlBackslash, "ctrl-\\"), "unmark every row"),
		MarkAll:       newKey("mark all", Char('*'), "mark every row shown (under a filter: the rows it shows)"),
		NewFrom:       newKey("new from", Key(tcell.KeyCtrlN, "ctrl-n"), "new from this object: its YAML in $KUBE_EDITOR or $EDITOR without status, uid, resourceVersion, managedFields, ownerReferences…; saved, a server-side dry run and its diff, then apply (asks first; :apply)"),
	},
	Opened: openedKeys{
		Back:     newKey("back", Char('['), "the resource opened before this one (history)"),
		Forward:  newKey("forward", Char(']'), "the resource opened after this one (history)"),
		LastView: newKey("last view", Char('-'), "the resource opened before this one; again: back here"),
	},
	Object: objectKeys{
		Describe:    newKey("describe", Char('d'), "the object as kubectl describe prints it, live"),
		Edit:        newKey("edit", Char('e'), "edit the object in $KUBE_EDITOR or $EDITOR (kubectl edit)"),
		Scale:       newKey("scale", Char('s'), "set the object's replicas (asks first)"),
		Shell:       newKey("shell", Char('s'), "a shell in the pod (bash, else sh); exit returns here"),
		Attach:      newKey("attach", Char('a'), "attach to the process the pod's container runs: its output, and its input when it reads some (kubectl attach -it); ctrl-p ctrl-q detaches"),
		Restart:     newKey("restart", Char('r'), "rollout restart: replace the pods (asks first)"),
		Delete:      newKey("delete", Key(tcell.KeyCtrlD, "ctrl-d"), "delete the object (asks first)"),
		Logs:        newKey("logs", Char('l'), "the logs of the pod, or of the workload's pods, live (last 200 lines, then new ones)"),
		PrevLogs:    newKey("previous logs", Char('p'), "the logs of the previous instance of the containers (kubectl logs -p)"),
		PortForward: newKey("port-forward", Shifted('F'), "forward a local port to the pod, in the background (:pf)"),
		Owner:       newKey("owner", Shifted('J'), "jump to the object's controller (was o)"),
		Events:      newKey("events", Shifted('E'), "the object's events, live (was e)"),
		Labels:      newKey("labels", Shifted('L'), "set or remove the object's labels or annotations: KEY=VALUE, KEY- (kubectl label / annotate --overwrite; asks first)"),
	},
	Workload: workloadKeys{
		Trigger:  newKey("trigger", Shifted('T'), "trigger: create a Job from the cronjob now, as kubectl create job --from=cronjob/… (asks first)"),
		Suspend:  newKey("suspend", Char('s'), "suspend the cronjob's schedule, or resume it (asks first)"),
		Kill:     newKey("kill", Key(tcell.KeyCtrlK, "ctrl-k"), "kill: delete the pod at once, grace period 0 (asks first)"),
		SetImage: newKey("set image", Shifted('I'), "set a container's image, as kubectl set image (pods, workloads, cronjobs; asks first)"),
	},
	Node: nodeKeys{
		Cordon:   newKey("cordon", Shifted('C'), "cordon: mark the node unschedulable, as kubectl cordon (asks first)"),
		Uncordon: newKey("uncordon", Char('u'), "uncordon: mark the node schedulable again, as kubectl uncordon (asks first)"),
		Drain:    newKey("drain", Char('r'), "drain: cordon, then evict the node's pods as kubectl drain does (its flags in a dialog; asks first, progress on the prompt line)"),
	},
	Debug: debugKeys{
		Debug: newKey("debug", Shifted('B'), "debug: on a pod, an ephemeral container (image, target, profile: kubectl debug -it), attached once it runs; on a node, a debug pod on it (kubectl debug node/… -it), attached once it runs (asks first)"),
	},
	Health: healthKeys{
		Column: newKey("health", Shifted('H'), "show or hide the HEALTH column (kstatus; lists the objects themselves while shown)"),
		Panel:  newKey("health", Shifted('H'), "show or hide the object's conditions under its health (kstatus)"),
	},
	YAML: yamlKeys{
		Search:        newKey("search", Char('/'), "search the YAML (n: next match)"),
		NextMatch:     newKey("next match", Char('n'), "go to the next search match"),
		Copy:          newKey("copy", Char('c'), "copy the YAML as shown to the clipboard"),
		ManagedFields: newKey("managedFields", Char('m'), "show or hide metadata.managedFields"),
		Reveal:        newKey("reveal", Char('x'), "reveal or mask Secret data"),
		History:       newKey("history", Char('h'), "the versions seen of the object: who changed what (enter: diff)"),
		Blame:         newKey("blame", Char('b'), "each line's field manager and the time of its last write (managedFields)"),
	},
	Describe: describeKeys{
		Search:    newKey("search", Char('/'), "search the text (n: next match)"),
		NextMatch: newKey("next match", Char('n'), "go to the next search match"),
		YAML:      newKey("yaml", Char('y'), "show the object's YAML, live"),
		Copy:      newKey("copy", Char('c'), "copy the text to the clipboard"),
	},
	Logs: logsKeys{
		Search:     newKey("search", Char('/'), "search the lines (a regular expression; n N: next, previous match)"),
		Filter:     newKey("filter", Char('&'), "show only the lines matching a regular expression, new ones too (!REGEX: those not matching; esc: all)"),
		NextMatch:  newKey("next match", Char('n'), "go to the next matching line"),
		PrevMatch:  newKey("previous match", Shifted('N'), "go to the previous matching line"),
		Follow:     newKey("follow", Char('s'), "follow new lines at the bottom, or stay where you are (autoscroll)"),
		Timestamps: newKey("timestamps", Char('t'), "show or hide each line's timestamp"),
		Wrap:       newKey("wrap", Char('w'), "wrap long lines, or cut them at the edge"),
		JSON:       newKey("json", Shifted('J'), "show JSON lines as read → indented → as the fields chosen → as read (copy and save keep them as read)"),
		Tail:       newKey("tail", Char('0'), "read the logs again from their last lines (200, or the logger's tail), then new ones"),
		Since1m:    newKey("since 1m", Char('1'), "read the logs again from a minute ago (sinceSeconds), then new ones"),
		Since5m:    newKey("since 5m", Char('2'), "read the logs again from 5 minutes ago, then new ones"),
		Since15m:   newKey("since 15m", Char('3'), "read the logs again from 15 minutes ago, then new ones"),
		Since30m:   newKey("since 30m", Char('4'), "read the logs again from 30 minutes ago, then new ones"),
		Since1h:    newKey("since 1h", Char('5'), "read the logs again from an hour ago, then new ones"),
		All:        newKey("all lines", Char('6'), "read the logs again from their first line, then new ones (the view keeps its last lines)"),
		Copy:       newKey("copy", Char('c'), "copy the lines on screen to the clipboard (as read, not as J shows them; timestamps as shown)"),
		Save:       newKey("save", Key(tcell.KeyCtrlS, "ctrl-s"), "save the lines kept that the filter shows to a file (as read, not as J shows them; timestamps as shown)"),
	},
	Versions: versionsKeys{
		// Diff was never among the names keys.yaml accepts; it stays so until that is decided.
		Diff:   newKey("diff", Key(tcell.KeyEnter, "enter"), "the selected version's changes from the one before").fixed(),
		Reveal: newKey("reveal", Char('x'), "reveal or mask Secret data"),
	},
	Contexts: contextsKeys{
		Use: newKey("use", Key(tcell.KeyEnter, "enter"), "switch to the selected context"),
	},
	Containers: containersKeys{
		Logs:        newKey("logs", Char('l'), "the logs of the selected container, live"),
		PrevLogs:    newKey("previous logs", Char('p'), "the logs of the selected container's previous instance (kubectl logs -p -c)"),
		Shell:       newKey("shell", Char('s'), "a shell in the selected container (bash, else sh); exit returns here"),
		Attach:      newKey("attach", Char('a'), "attach to the process the selected container runs: its output, and its input when it reads some (kubectl attach -it); ctrl-p ctrl-q detaches"),
		PortForward: newKey("port-forward", Shifted('F'), "forward a local port to one of the selected container's ports, in the background (:pf)"),
	},
	Apply: applyKeys{
		Apply: newKey("apply", Char('a'), "apply the objects as the dry run shows them, server-side, field manager kscope (asks first)"),
		Force: newKey("force", Shifted('F'), "on a conflict: dry-run again with force, taking the fields other managers own (asks first; then a to apply)"),
	},
	Help: helpKeys{
		Back: newKey("back", Char('?'), "close the help"),
	},
}

// Names are the names keys.yaml may rebind among families' keys (Keys's families, and those of the screens
// registered), but the fixed ones, sorted, in a new slice each call.
func Names(families []Family) []string {
	var names []string
	for _, f := range families {
		for _, d := range f.Defs {
			if !d.Fixed {
				names = append(names, d.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Family is one family of Keys: its title (as README.md shows it), the package of the screen that binds
// its keys when that screen lives in a package of its own (the `screen` tag; its tests check them), and its
// keys, in order.
type Family struct {
	Title, Screen string
	Defs          []KeyDef
}

// Families lists the table's families and their keys in the order they are written.
func (t KeyFamilies) Families() []Family {
	v := reflect.ValueOf(t)
	out := make([]Family, 0, v.NumField())
	for i := range v.NumField() {
		tag := v.Type().Field(i).Tag
		f := Family{Title: tag.Get("title"), Screen: tag.Get("screen")}
		for j := range v.Field(i).NumField() {
			f.Defs = append(f.Defs, v.Field(i).Field(j).Interface().(KeyDef))
		}
		out = append(out, f)
	}
	return out
}

// KeyFamilies is the type of Keys: a family per group of views, titled as README.md shows it; a family whose
// screen lives in a package of its own names that package (tag screen).
type KeyFamilies struct {
	Global     globalKeys     `title:"Everywhere"`
	Views      viewsKeys      `title:"Every view (but quit in the resource picker, where letters filter)"`
	Picker     pickerKeys     `title:"The resource picker (the first screen)"`
	Table      tableKeys      `title:"Live tables (:pods, :deploy,sts, :all, …)"`
	Opened     openedKeys     `title:"Live tables: back and forth through the resources opened"`
	Object     objectKeys     `title:"The selected object, in tables, YAML and describe (s: shell on a pod, suspend on a cronjob, scale elsewhere; a: attach on a pod; r: drain on a node; port-forward on pods, services, deployments)"`
	Workload   workloadKeys   `title:"Workloads: cronjobs (trigger; suspend in place of scale), pods (kill), images"`
	Node       nodeKeys       `title:"Nodes: their table and the views of one node (drain in place of restart)"`
	Debug      debugKeys      `title:"Debugging (kubectl debug): pods and nodes"`
	Health     healthKeys     `title:"Health (kstatus): the column in tables, the panel in YAML and describe"`
	YAML       yamlKeys       `title:"YAML view"`
	Describe   describeKeys   `title:"Describe view"`
	Logs       logsKeys       `title:"Logs view"`
	Versions   versionsKeys   `title:"History view (diff), blame and diff views (reveal)" screen:"ui/versions"`
	Contexts   contextsKeys   `title:"Contexts view (:ctx)" screen:"ui/contexts"`
	Containers containersKeys `title:"Containers view (enter on a pod)" screen:"ui/containers"`
	Apply      applyKeys      `title:"Apply view (:apply PATH, ctrl-n on a row): the server-side dry run's diff; :apply reads regular files only, at most 1000 files and 16 MiB in all" screen:"ui/apply"`
	Help       helpKeys       `title:"Help view"`
}

// globalKeys work in every view, after the view's own (globalBindings).
type globalKeys struct{ Command, Back, Move, Quit KeyDef }

// viewsKeys are in every view's bindings (helpBinding, quitBinding).
type viewsKeys struct{ Help, Quit KeyDef }

// pickerKeys are the resource picker's.
type pickerKeys struct{ Filter, Open, Wide KeyDef }

// tableKeys are a live table's (ui/livetable/keys.go and ui's tableHost, ui/tablehost.go).
type tableKeys struct {
	Filter, Open, YAML, History, Copy, Save, Wide, SortName, SortAge, SortNext, Reverse, AllNamespaces, Faults KeyDef
	Mark, MarkRange, MarkClear, MarkAll                                                                        KeyDef
	NewFrom                                                                                                    KeyDef
	Favorite1, Favorite2, Favorite3, Favorite4, Favorite5, Favorite6, Favorite7, Favorite8, Favorite9          KeyDef
}

// Favorites are the favourite-namespace keys, 1 to 9, in order.
func (k tableKeys) Favorites() []KeyDef {
	return []KeyDef{k.Favorite1, k.Favorite2, k.Favorite3, k.Favorite4, k.Favorite5, k.Favorite6, k.Favorite7,
		k.Favorite8, k.Favorite9}
}

// favorite is the key of the n-th favourite namespace (1 to 9): the digit n.
func favorite(n int) KeyDef {
	ordinal := []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"}[n]
	return newKey(fmt.Sprintf("namespace %d", n), Char(rune('0'+n)),
		"switch to the "+ordinal+" favourite namespace (the header's "+fmt.Sprint(n)+"; a namespace switched to is added in front, as k9s keeps them)")
}

// openedKeys move through the resources opened (historyBindings).
type openedKeys struct{ Back, Forward, LastView KeyDef }

// objectKeys act on one object (objectBindings).
type objectKeys struct {
	Describe, Edit, Scale, Shell, Attach, Restart, Delete, Logs, PrevLogs, PortForward, Owner, Events, Labels KeyDef
}

// workloadKeys are the verbs of cronjobs (Trigger, Suspend), pods (Kill) and pod templates (SetImage).
type workloadKeys struct{ Trigger, Suspend, Kill, SetImage KeyDef }

// nodeKeys are the node verbs, bound where the object is a node.
type nodeKeys struct{ Cordon, Uncordon, Drain KeyDef }

// debugKeys are kubectl debug's, bound where the object is a pod or a node.
type debugKeys struct{ Debug KeyDef }

// healthKeys show or hide an object's health: a table's column, a YAML or describe view's panel.
type healthKeys struct{ Column, Panel KeyDef }

// yamlKeys are the YAML view's own.
type yamlKeys struct {
	Search, NextMatch, Copy, ManagedFields, Reveal, History, Blame KeyDef
}

// describeKeys are the describe view's own.
type describeKeys struct{ Search, NextMatch, YAML, Copy KeyDef }

// logsKeys are the logs view's.
type logsKeys struct {
	Search, Filter, NextMatch, PrevMatch, Follow, Timestamps, Wrap, JSON KeyDef
	Tail, Since1m, Since5m, Since15m, Since30m, Since1h, All, Copy, Save KeyDef
}

// versionsKeys are the history view's (Diff) and the blame and diff views' (Reveal).
type versionsKeys struct{ Diff, Reveal KeyDef }

// contextsKeys are the contexts view's.
type contextsKeys struct{ Use KeyDef }

// containersKeys are the containers view's: they act on the selected container of the pod.
type containersKeys struct{ Logs, PrevLogs, Shell, Attach, PortForward KeyDef }

// applyKeys are the apply view's: they act on the objects its dry run shows.
type applyKeys struct{ Apply, Force KeyDef }

// helpKeys are the help screen's.
type helpKeys struct{ Back KeyDef }
