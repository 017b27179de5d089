package ui

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/forwards"
	"kscope/history"
	"kscope/spawn"
	"kscope/ui/keymap"
	"kscope/ui/picker"
	"kscope/ui/plugins"
	"kscope/ui/theme"
	"kscope/ui/verbs"
)

// Screen is one screen of the navigation stack. Every method runs on the UI goroutine. Embed BaseScreen for the
// optional parts.
type Screen interface {
	// Crumb names the view in the breadcrumbs.
	Crumb() string
	Primitive() tview.Primitive
	// Activate runs when the view becomes the top of the stack (again).
	Activate()
	// Close releases the view's watches; the view is not used afterwards.
	Close()
	// Bindings returns the view's own keys, closures over the view; the app's global keys come after them.
	Bindings() []keymap.Binding
	// Status returns the view's text for the status line.
	Status() string
	// Escape is esc before the app goes back: it tells whether the view used it (cleared a filter).
	Escape() bool
	// Typed gets a key no binding took and tells whether the view used it.
	Typed(ev *tcell.EventKey) bool
	// NamespaceChanged tells the view on top that the current namespace is now ns ("" = all).
	NamespaceChanged(ns string)
}

// BaseScreen is what a view without the optional behaviour does: no status text, esc goes back, other keys
// go to the widget, the namespace does not concern it.
type BaseScreen struct{}

func (BaseScreen) Status() string             { return "" }
func (BaseScreen) Escape() bool               { return false }
func (BaseScreen) Typed(*tcell.EventKey) bool { return false }
func (BaseScreen) NamespaceChanged(string)    {}

// App is kscope's terminal UI: header, a stack of views (picker, live tables, YAML, help), the prompt line
// and the status line. Every method except Run and Stop must run on the tview goroutine (the callers are key
// handlers and QueueUpdate functions).
//
// An App value is the session seen from one cluster: the one New returns acts on the session's connection
// (a context switch replaces it); in a table of several clusters, the keys on a row act through an App of
// the row's cluster (member), which shares everything else with it.
type App struct {
	*session
	cluster cluster.Interface
	// verbs are the object verbs (edit, scale, delete, shell, port-forward, drain, …), hosted by this App.
	verbs *verbs.Verbs
	// context names the member cluster's kubeconfig context; "" for the session's own connection.
	context string
	// versions keeps the full versions of the objects of this App's cluster shown in YAML views (history):
	// a cluster's own, so that a same-named object of another cluster never shows in its history.
	versions *history.Book
	// plugins are plugins.yaml's and the contexts' plugins acting through this App (its cluster's context,
	// connection and children's kubeconfig); a member's share the session's reading and background runs.
	plugins *plugins.Set
}

// session is what every App value of one UI shares: the terminal, the stack, the settings and the state
// of the session.
type session struct {
	opts Options
	tv   *tview.Application
	// home is the App New returned: the session's own connection.
	home *App
	// members are the connections of the other contexts shown in tables of several clusters, by context
	// (memberApp), connected when first needed and closed when the session ends. UI goroutine.
	members *memberSet
	// memberApps are the Apps of the clusters of tables of several (memberApp), by connection. UI goroutine.
	memberApps map[cluster.Interface]*App
	// screenOf records, for a screen pushed by a member's App, that App: the header names its context.
	screenOf map[Screen]*App

	// screen is the terminal (or a test's screen) as tview draws on it; skipDraw skips the draw that follows
	// a key with more input behind it (burstScreen). UI goroutine.
	screen   *burstScreen
	skipDraw bool
	// draws counts the draws made; drawLater is set while a fallback draw waits (keyburst.go). UI goroutine.
	draws     uint64
	drawLater bool

	// prompts are the prompt line (bar) and the dialogs over the views' pages (body): a service of its own.
	*prompts
	// userFiles are the clipboard and the saved files: a service of its own.
	*userFiles
	header *Header
	status *StatusLine
	root   *tview.Flex

	stack       []Screen
	namespace   string              // "" = all namespaces
	favs        map[string][]string // favourite namespaces by kubeconfig context (withFavorite)
	unsubscribe func()
	namespaces  *namespaceNames // for :ns completion
	// startNamespace is the start's namespace while its check waits for a table to settle (namespacecheck.go).
	startNamespace string
	history        viewHistory // the resources opened from the top ([ ] -)
	// hotkeys are the configured keys: those that override the views' keys, and the others (after them).
	hotkeysFirst, hotkeys []keymap.Binding
	remaps                keyRemaps    // keys.yaml
	theme                 *theme.Theme // the skin's colors, else kscope's

	ctx    context.Context
	cancel context.CancelFunc

	// sup starts every goroutine of the UI (goSafe) and of the connection (Options.Supervisor); its first
	// panic stops the UI.
	sup *spawn.Supervisor
	// pending counts the requests (request) and access questions (verbs.Access, through verbHost.Pending) whose answer has not been
	// handled on the UI goroutine yet, so that a test can wait until every answer of its earlier keys, or of
	// a view's opening, has been shown. Safe for any goroutine.
	pending atomic.Int64
	// refusals are the children's writes the read-only proxy refused (ChildRefused).
	refusals childRefusals
	// terminal hands the terminal to a child and ends the UI on a signal: a service of its own.
	*terminal

	// stopMu guards uiEnded: tview's Run has been told to stop, or has returned (see Stop).
	stopMu  sync.Mutex
	uiEnded bool

	// settleMu guards settleRunning (Options.Settled is running) and settleAgain (call it once more then).
	settleMu                   sync.Mutex
	settleRunning, settleAgain bool

	// forwards are the port-forwards started in this session, for :pf (stopped with the connection).
	forwards forwards.List
	// shellIn and shellOut, when set (tests), are the terminal a shell runs on instead of stdin and stdout.
	shellIn  io.Reader
	shellOut io.Writer
}

// New builds the UI for opts.Cluster. Nothing runs, and nothing reaches the cluster, until Run.
func New(opts Options) *App {
	opts.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	a := &App{session: &session{opts: opts, tv: tview.NewApplication(), ctx: ctx, cancel: cancel,
		sup:  opts.Supervisor,
		favs: cloneFavorites(opts.Favorites), memberApps: map[cluster.Interface]*App{}, screenOf: map[Screen]*App{}}}
	a.home = a
	a.versions = history.NewBook()
	if a.sup == nil {
		a.sup = spawn.NewSupervisor()
	}
	a.members = newMemberSet(a.sup.Func())
	a.header = NewHeader()
	a.status = NewStatusLine()
	a.theme = theme.New(opts.Skin)
	a.prompts = newPrompts(a.tv, tview.NewPages(), newCommandBar(a), a.theme, func() {
		if v := a.top(); v != nil {
			a.tv.SetFocus(v.Primitive())
		}
	})
	a.userFiles = &userFiles{clipboard: opts.Clipboard, saveDir: opts.SaveDir, say: a.prompts}
	a.terminal = &terminal{tv: a.tv, stderr: opts.Stderr, notice: a.Notice, cancelWork: cancel, stopUI: a.Stop}
	a.verbs = verbs.New(verbHost{a})
	a.header.theme, a.status.theme = a.theme, a.theme
	for _, line := range a.readKeys() {
		a.Notice(line)
	}
	a.root = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(a.header.view, 2, 0, false).
		AddItem(a.body, 0, 1, true).
		AddItem(a.bar.Primitive(), 1, 0, false).
		AddItem(a.status.view, 1, 0, false)
	a.applyTheme()
	a.tv.SetRoot(a.root, true).SetInputCapture(a.capture)
	a.tv.SetBeforeDrawFunc(a.beforeDraw)
	return a
}

// SetScreen makes the app draw on screen instead of the terminal (tests use a tcell.SimulationScreen). Call
// it before Run, at most once.
func (a *App) SetScreen(screen tcell.Screen) {
	a.screen = newBurstScreen(screen)
	// (tview's SetScreen initializes it.) A terminal lost while a child had it ends the session, as SIGHUP.
	a.tv.SetScreen(&resumeScreen{Screen: a.screen, lost: func(error) { a.Go(a.Interrupt) }})
}

// openTerminal makes the app draw on the terminal, unless SetScreen gave it a screen.
func (a *App) openTerminal() error {
	if a.screen != nil {
		return nil
	}
	s, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("open the terminal: %w", err)
	}
	a.SetScreen(s)
	if err := a.screen.initErr; err != nil {
		return fmt.Errorf("open the terminal: %w", err)
	}
	return nil
}

// Run shows the UI until the user quits. The terminal is restored however it ends; a panic in the UI is
// returned as an error.
func (a *App) Run() (err error) {
	defer a.finalizeOnClientCrash()()
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Value: p, Stack: debug.Stack()}
		}
		a.shutdown()
	}()
	if err := a.openTerminal(); err != nil {
		return err
	}
	a.tv.EnableMouse(a.opts.Mouse)
	a.attach(a.opts.Cluster)
	a.Go(func() { a.showNotices(a.ctx.Done()) })
	a.Go(a.stopOnFailure)
	err = a.tv.Run()
	a.stopMu.Lock()
	a.uiEnded = true
	a.stopMu.Unlock()
	if err != nil {
		return err
	}
	if p := a.sup.Err(); p != nil {
		return p
	}
	return nil
}

// PanicError is what Run returns when the UI, or a goroutine started through its supervisor, panicked. The
// terminal has been restored by then.
type PanicError = spawn.Panic

// Stop ends Run (quit, a signal, a panic) from any goroutine: it stops tview's Run, once, from any goroutine; it finalizes the screen (the terminal is given back)
// before it returns. Every stop goes through here: tview's Run clears its screen without its lock as it
// returns, so a second Stop, or one after Run ended, would race with that.
func (a *App) Stop() {
	a.stopMu.Lock()
	defer a.stopMu.Unlock()
	if a.uiEnded {
		return
	}
	a.uiEnded = true
	a.tv.Stop()
}

// shutdown closes every view and the connection.
func (a *App) shutdown() {
	a.cancel()
	a.home.plugins.Wait()
	a.detach()
	a.members.closeAll()
}

// detach stops the port-forwards and closes every view, the catalog subscription, the namespace list and the
// connection to the cluster
// (before a context switch attaches another, or at shutdown). UI goroutine only.
func (a *App) detach() {
	a.forwards.StopAll()
	for _, v := range a.stack {
		v.Close()
	}
	a.stack = nil
	clear(a.screenOf)
	if a.unsubscribe != nil {
		a.unsubscribe()
		a.unsubscribe = nil
	}
	a.namespaces.stop(a)
	if a.cluster != nil {
		delete(a.memberApps, a.cluster)
		a.cluster.Close()
	}
}

// Go implements Navigator: it runs fn on its own goroutine, through the supervisor: a panic there stops the
// UI and makes Run return it.
func (a *App) Go(fn func()) { a.sup.Go(fn) }

// attach connects the UI to cluster: header, catalog subscription, first view.
func (a *App) attach(c cluster.Interface) {
	a.cluster = c
	a.versions.Reset()
	info := c.Info()
	a.namespace = info.Namespace
	if info.AllNamespaces {
		a.namespace = ""
	}
	if a.namespace != "" {
		a.addFavorite(a.namespace)
		a.checkNamespaceAtStart(a.namespace)
	}
	a.namespaces = a.watchNamespaceNames()
	resources := picker.New(pickerHost{a})
	a.unsubscribe = c.Catalog().Subscribe(func() { a.tv.QueueUpdateDraw(resources.Reload) })
	a.Push(resources)
	if a.opts.Resource != "" {
		a.openStart(c.Catalog())
	}
}

// shownApp is the App of the screen on top: a member's, for a screen opened on a row of another cluster,
// else the session's own.
func (a *App) shownApp() *App {
	if m, ok := a.screenOf[a.top()]; ok {
		return m
	}
	return a.home
}

// top returns the view on top of the stack.
func (a *App) top() Screen {
	if len(a.stack) == 0 {
		return nil
	}
	return a.stack[len(a.stack)-1]
}

// Push implements Navigator: it shows v on top of the stack.
func (a *App) Push(v Screen) {
	if a.context != "" { // a member's screen: the header names its cluster
		a.screenOf[v] = a
	}
	a.stack = append(a.stack, v)
	a.show()
}

// pop closes the top view (never the last one) and shows the one below.
func (a *App) pop() {
	if len(a.stack) <= 1 {
		return
	}
	a.top().Close()
	delete(a.screenOf, a.top())
	a.stack = a.stack[:len(a.stack)-1]
	a.show()
}

// popTo closes views until n remain.
func (a *App) popTo(n int) {
	for len(a.stack) > n && len(a.stack) > 1 {
		a.top().Close()
		delete(a.screenOf, a.top())
		a.stack = a.stack[:len(a.stack)-1]
	}
}

// show displays the top view.
func (a *App) show() {
	v := a.top()
	a.body.AddAndSwitchToPage("view", v.Primitive(), true)
	paintView(a.theme, v)
	a.tv.SetFocus(v.Primitive())
	v.Activate()
	a.refreshChrome()
}

// refreshChrome redraws the header and status line text.
func (a *App) refreshChrome() {
	crumbs := make([]string, 0, len(a.stack))
	for _, v := range a.stack {
		crumbs = append(crumbs, v.Crumb())
	}
	shown := a.shownApp()
	a.header.Set(shown.cluster.Info(), a.namespace, favoritesLine(shown.favorites()), a.opts.Version, a.opts.ReadOnly, crumbs)
	a.UpdateStatus(a.top())
}

// UpdateStatus implements Navigator: it shows v's status text, if v is on top.
func (a *App) UpdateStatus(v Screen) {
	if v != nil && v == a.top() {
		a.status.SetView(v.Status(), a.shownApp().cluster.Catalog().Unavailable())
	}
}

// capture routes a key: prompt and modal first, then the key table for the top view, then the widget.
func (a *App) capture(ev *tcell.EventKey) *tcell.EventKey {
	a.skipDraw = a.screen != nil && a.screen.takeFollowed(ev) // more keys wait: draw after the last
	if a.prompts.open() {
		if ev.Key() == tcell.KeyCtrlC {
			a.Stop()
			return nil
		}
		return ev
	}
	a.bar.ClearMessage()
	v := a.top()
	own, global := a.keys(v) // (a key is in one of them at most: configured keys were given out)
	b := keymap.Find(own, ev)
	if b == nil {
		b = keymap.Find(global, ev)
	}
	if b != nil {
		b.Run()
		return nil
	}
	if v.Typed(ev) {
		return nil
	}
	if ev.Key() == tcell.KeyCtrlC { // tview would stop itself: stop through Stop, as every stop does
		a.Stop()
		return nil
	}
	return ev
}
