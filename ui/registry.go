package ui

import (
	"context"
	"slices"
	"strings"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/forwards"
	"kscope/history"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/prompt"
	"kscope/ui/verbs"
	"kscope/watch"
)

// ScreenSpec is what a screen in a package of its own declares of itself, in that package: the family of
// its keys (shown by `?`, README's key tables and keys.yaml's names) and the commands of the command bar
// that open it. The program lists the screens it registers in one place (Options.Registered, one line
// each); the core names none of them. A plain value, not changed once registered.
type ScreenSpec struct {
	// Keys is the screen's family of the key table: its title, its package (Screen) and its keys.
	Keys keymap.Family
	// Commands are the command bar's commands that open the screen.
	Commands []Command
	// Objects are the keys that open the screen of the selected object, in the tables and the views of one
	// object (after kscope's own object keys, in order).
	Objects []ObjectKey
	// Tables are the keys that open the screen of a live table itself (its source), in every table.
	Tables []TableKey
	// Hidden are the rows of other tables the screen is the view of, hidden there until a key shows them.
	Hidden []HiddenRows
	// Plays are the roles the screen plays for kscope's own keys and the other screens (the YAML of an
	// object, its history, …): what they open it with.
	Plays Roles
}

// HiddenRows are rows a screen hides in the tables of a resource (the storage of what it shows: Helm's
// release Secrets), until the tables' key shows them.
type HiddenRows struct {
	// Applies tells whether the rows are hidden in the tables of res.
	Applies func(res discovery.Resource) bool
	// Rows are the rows, their key (one of the screen's family) and their name.
	Rows livetable.Hidden
}

// TableKey is a key a screen declares on live tables: it opens the screen of the table's rows. Open runs on
// the UI goroutine.
type TableKey struct {
	// Key is the key, one of the screen's family (ScreenSpec.Keys).
	Key keymap.KeyDef
	// Open opens the screen of src, the rows of the table titled title (Session.Push).
	Open func(s Session, title string, src cluster.RowSource)
}

// ObjectKey is a key a screen declares on the selected object: in the tables (a table of several clusters:
// the row's cluster's Session) and in the views of one object. Applies and Open run on the UI goroutine.
type ObjectKey struct {
	// Key is the key, one of the screen's family (ScreenSpec.Keys).
	Key keymap.KeyDef
	// Applies tells whether the key is offered on the objects of res (nil: on every resource's).
	Applies func(res discovery.Resource) bool
	// Open opens the screen of row, an object of res (Session.Push), or says why it cannot.
	Open func(s Session, res discovery.Resource, row *watch.Row)
}

// Command is one command of the command bar that a screen declares. Run and Candidates run on the UI
// goroutine.
type Command struct {
	// Names are the command's words: the first is the one the help shows, the others its aliases. It has at
	// least one.
	Names []string
	// Usage is what follows the name in the `:` key's description: its words and what it opens
	// ("[NS,NS…] (the live feed of changes)").
	Usage string
	// Args tells whether it takes words after its name; Candidates, if set, is what Tab offers for them.
	Args       bool
	Candidates func(s Session) []string
	// Run opens the screen (Session.Push) or says on the prompt line why it cannot; args are the words
	// after the name.
	Run func(s Session, args []string)
}

// Session is what a registered screen's command may ask of the app beyond Navigator: the view's namespace
// and clusters, the session's connections and port-forwards, and the other screens it opens. *App
// implements it; UI goroutine only, but for Connect.
type Session interface {
	Navigator
	// Namespace is the view's namespace ("" = all); Namespaces the names Tab offers for one.
	Namespace() string
	Namespaces() []string
	// Clusters reads the @-words of args (`@prod,@stg`, `@*`): the contexts they name and the other words;
	// without any, the contexts of the table on top when it shows several clusters (nil: the view's cluster
	// alone). An @-word naming no context of the kubeconfig is an error.
	Clusters(args []string) (contexts, rest []string, err error)
	// Connect connects to a context of the kubeconfig: the session's connection of it (the one the tables
	// of several clusters use; the view's own for its context). It blocks: call it off the UI goroutine.
	Connect(ctx context.Context, context string) (cluster.Interface, error)
	// OpenHistory opens the history view of row, an object of res in conn's cluster (nil: the view's;
	// context names conn's context): the versions kscope keeps of it, with extra's where none is kept
	// (extra may be nil). It tells whether a history screen is registered (false: it opened none).
	OpenHistory(conn cluster.Interface, context string, res discovery.Resource, row *watch.Row,
		extra func() []history.FeedChange) bool
	// Forwards is the session's port-forwards; changed on the UI goroutine.
	Forwards() *forwards.List
	// WriteGuard is the checks every object verb makes before it asks, for a write of a screen to row, an
	// object of res, of apiVerb ("patch", "create", "delete"…: what the access review asks; one access cache
	// for the guard's life).
	WriteGuard(res discovery.Resource, row *watch.Row, apiVerb string) WriteGuard
	// OpenYAML opens the live YAML view of row, an object of res (nothing when none is registered).
	OpenYAML(res discovery.Resource, row *watch.Row)
	// ResourceForKind finds the catalog's resource of an apiVersion and kind (an ownerReference's).
	ResourceForKind(apiVersion, kind string) (discovery.Resource, error)
	// Edit opens content in the user's editor as the `e` key does ($KUBE_EDITOR, $EDITOR, else vi; the
	// terminal given to it, taken back when it quits) and returns the saved text and its temporary file's
	// path (also on error, when there is one; the caller removes it). UI goroutine; it blocks until the editor
	// quits.
	Edit(content []byte) (edited []byte, path string, err error)
	// OpenTable pushes a live table of res over src (built, not started: the table starts and stops it),
	// titled title, kept in its namespace when the user switches. The rows of a source of several kinds
	// (union.Kinds, union.Named) act on their own kinds.
	OpenTable(res discovery.Resource, src cluster.RowSource, title string)
}

// screenSession is the Session of an App: what a registered screen asks beyond Navigator, kept off App's own
// methods. UI goroutine only, but for Connect and Navigator's.
type screenSession struct{ *App }

var _ Session = screenSession{}

// KeyFamilies is the whole key table as an app with screens registered shows it: keymap.Keys's families,
// the `:` key's description naming the registered screens' commands, then each registered screen's family.
// README's key tables are generated from it. A pure function; safe from any goroutine.
func KeyFamilies(screens []ScreenSpec) []keymap.Family {
	return withScreens(keymap.Keys.Families(), screens)
}

// withScreens is families (which it changes) with the `:` key described as commandKey describes it, in the
// family that holds it (found by its name, wherever the key table puts it), then each of screens' families.
func withScreens(families []keymap.Family, screens []ScreenSpec) []keymap.Family {
	name := keymap.Keys.Global.Command.Name
	for _, f := range families {
		if i := slices.IndexFunc(f.Defs, func(d keymap.KeyDef) bool { return d.Name == name }); i >= 0 {
			f.Defs[i] = commandKey(screens)
			break
		}
	}
	for _, s := range screens {
		if len(s.Keys.Defs) > 0 { // a screen whose keys are kscope's (keymap.Keys) adds no family
			families = append(families, s.Keys)
		}
	}
	return families
}

// commandKey is the `:` key with the registered screens' commands in its description.
func commandKey(screens []ScreenSpec) keymap.KeyDef {
	d := keymap.Keys.Global.Command
	var usages []string
	for _, s := range screens {
		for _, c := range s.Commands {
			usages = append(usages, strings.TrimSpace(c.Names[0]+" "+c.Usage))
		}
	}
	if len(usages) > 0 {
		d.Description += ", " + strings.Join(usages, ", ")
	}
	return d
}

// hiddenRows are the rows the registered screens hide in a table of res.
func (a *App) hiddenRows(res discovery.Resource) []livetable.Hidden {
	var out []livetable.Hidden
	for _, s := range a.opts.Registered {
		for _, h := range s.Hidden {
			if h.Applies(res) {
				out = append(out, h.Rows)
			}
		}
	}
	return out
}

// registeredCommands are the command bar's commands of the registered screens.
func (a *App) registeredCommands() []prompt.Command {
	var out []prompt.Command
	for _, s := range a.opts.Registered {
		for _, c := range s.Commands {
			cmd := prompt.Command{Names: c.Names, Args: c.Args, Run: func(args []string) { c.Run(screenSession{a}, args) }}
			if c.Candidates != nil {
				cmd.ArgCandidates = func() []string { return c.Candidates(screenSession{a}) }
			}
			out = append(out, cmd)
		}
	}
	return out
}

// Namespace implements Session.
func (a screenSession) Namespace() string { return a.namespace }

// Namespaces implements Session.
func (a screenSession) Namespaces() []string { return a.namespaces.names() }

// Clusters implements Session.
func (a screenSession) Clusters(args []string) (contexts, rest []string, err error) {
	contexts, rest, found, err := a.contextWords(args)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		contexts = a.viewContexts()
	}
	return contexts, rest, nil
}

// Connect implements Session.
func (a screenSession) Connect(ctx context.Context, context string) (cluster.Interface, error) {
	return a.connectMember(a.cluster)(ctx, context)
}

// OpenHistory implements Session.
func (a screenSession) OpenHistory(conn cluster.Interface, context string, res discovery.Resource, row *watch.Row,
	extra func() []history.FeedChange) bool {
	open := a.roles().History
	if open == nil {
		return false
	}
	on := a.App
	if conn != nil {
		on = a.memberApp(conn, context)
	}
	on.Push(open(on, row, func() []history.Entry {
		if extra == nil {
			return on.historyOf(res, row)
		}
		return history.WithFeed(on.historyOf(res, row), extra())
	}))
	return true
}

// Forwards implements Session.
func (a screenSession) Forwards() *forwards.List { return &a.forwards }

// WriteGuard implements Session.
func (a screenSession) WriteGuard(res discovery.Resource, row *watch.Row, apiVerb string) WriteGuard {
	return a.writeGuard(res, row, apiVerb)
}

// OpenYAML implements Session.
func (a screenSession) OpenYAML(res discovery.Resource, row *watch.Row) { a.openYAML(res, row) }

// ResourceForKind implements Session.
func (a screenSession) ResourceForKind(apiVersion, kind string) (discovery.Resource, error) {
	return a.resourceForKind(apiVersion, kind)
}

// Edit implements Session: Options.Edit, else kubectl's editor as a child of kscope, the terminal suspended.
func (a screenSession) Edit(content []byte) (edited []byte, path string, err error) {
	h := verbHost{a.App}
	launch := h.Editor()
	if launch == nil {
		launch = verbs.ChildEditor(h)
	}
	if !h.Suspend(func() { edited, path, err = launch(content) }) {
		edited, path, err = launch(content) // no screen to suspend (tests)
	}
	return edited, path, err
}

// RegisteredCommand tells whether word is the name (or an alias) of a command one of screens declares: what
// `kscope WORD` opens at start, as `:WORD` would, instead of a resource.
func RegisteredCommand(screens []ScreenSpec, word string) bool {
	for _, s := range screens {
		for _, c := range s.Commands {
			if slices.Contains(c.Names, word) {
				return true
			}
		}
	}
	return false
}

// OpenTable implements Session.
func (a screenSession) OpenTable(res discovery.Resource, src cluster.RowSource, title string) {
	drillHost{verbHost{a.App}}.OpenTable(res, src, title, true)
}

// objectOpeners are the registered screens' object keys for the object keys (verbs.Screens.More), opening
// through a's Session.
func (a *App) objectOpeners() []verbs.Opener {
	var out []verbs.Opener
	for _, s := range a.opts.Registered {
		for _, k := range s.Objects {
			out = append(out, verbs.Opener{Key: k.Key, Applies: k.Applies,
				Open: func(res discovery.Resource, row *watch.Row) { k.Open(screenSession{a}, res, row) }})
		}
	}
	return out
}

// viewContexts are the contexts of the table on top when it shows several clusters (its source tells its
// Contexts, as union.Clusters does); nil otherwise.
func (a *App) viewContexts() []string {
	t, ok := a.top().(interface{ Source() cluster.RowSource })
	if !ok {
		return nil
	}
	if s, ok := t.Source().(interface{ Contexts() []string }); ok {
		return s.Contexts()
	}
	return nil
}

// tableOpeners are the registered screens' table keys, bound to open t's screen through a's Session.
func (a *App) tableOpeners(title func() string, src func() cluster.RowSource) []keymap.Binding {
	var out []keymap.Binding
	for _, s := range a.opts.Registered {
		for _, k := range s.Tables {
			out = append(out, k.Key.Bind(func() { k.Open(screenSession{a}, title(), src()) }))
		}
	}
	return out
}
