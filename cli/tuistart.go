package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"kscope/cluster"
	"kscope/config"
	"kscope/kube"
	"kscope/spawn"
	"kscope/ui"
)

// tuiGCPercent is the UI's GOGC unless the environment sets one.
const tuiGCPercent = 50

// tuiSession is what the start-up steps of tuiOptions.Run hand each other, and what release undoes when
// the session ends. It is used on Run's goroutine only.
type tuiSession struct {
	dirs     config.Dirs
	problems []string // lines of the files that could not be used, shown as notices once the UI runs
	// children is read-only mode's children's kubeconfig and proxies; nil when kscope may write.
	children *childAccess
	sup      *spawn.Supervisor // starts every goroutine of the session: a panic on one stops the UI
	// capture holds what credential plugins and server warnings write to standard error while the UI draws;
	// nil when it could not be set up (they then write to the terminal).
	capture    *kube.StderrCapture
	first      cluster.Interface // the connection the UI starts on
	kubeconfig string            // the path children get as KUBECONFIG
	cfg        configured
}

// tuneProcess readies the process for a long session on the terminal: client-go's logs (reflector warnings,
// unhandled errors) go through klog to stderr, the terminal the UI draws on, so they are dropped (the UI
// shows connection state itself); and the heap grows less between collections.
func tuneProcess() {
	klog.SetLogger(logr.Discard())
	if os.Getenv("GOGC") == "" {
		// A table holds its rows for the session: with the default GOGC=100 the heap may grow to twice them
		// before a collection, and the process keeps that memory. Half of them is the better trade for a
		// terminal tool that is idle most of the time (at 50k rows: RSS measured in bench/results).
		debug.SetGCPercent(tuiGCPercent)
	}
}

// startChildren makes every client refuse writes at its transport in read-only mode, whatever a key handler
// does, and gives the children (plugins, the editor) a kubeconfig of kscope's that reaches the cluster only
// through its read-only proxies.
func (o *tuiOptions) startChildren(s *tuiSession) error {
	if !o.readOnly {
		return nil
	}
	kube.ReadOnly(o.flags)
	children, err := newChildAccess()
	if err != nil {
		return err
	}
	s.children = children
	return nil
}

// captureStderr sends what credential plugins and server warnings write to stderr, which would draw over the
// screen, to the prompt line instead (and what the UI did not show, to stderr once the screen is given back).
func (s *tuiSession) captureStderr() {
	if capture, err := kube.CaptureStderr(s.sup.Func()); err == nil {
		s.capture = capture
	}
}

// connect connects to the context the flags name, checks RESOURCE on it before the screen changes, and in
// read-only mode puts the connection behind its proxy for the children. On an error nothing stays open.
func (o *tuiOptions) connect(ctx context.Context, s *tuiSession) error {
	kube.NoTerminalInput(o.flags)
	conn, err := kube.Connect(ctx, o.flags, s.sup.Func())
	if err != nil {
		return err
	}
	conn.SetAllNamespaces(o.allNamespaces)
	if err := o.checkStart(ctx, conn); err != nil {
		conn.Close()
		return err
	}
	s.first, s.kubeconfig = conn, kubeconfigPath(o.flags)
	if s.children != nil {
		if s.first, err = s.children.attach(conn, o.flags); err != nil {
			conn.Close()
			return err
		}
		s.kubeconfig = s.children.kubeconfig()
	}
	return nil
}

// loadConfiguration reads the aliases, hotkeys, plugins, views and jumps files; a file that cannot be used
// is a problem line, and kscope starts without it.
func (s *tuiSession) loadConfiguration() {
	cfg, problems := loadConfig(s.dirs)
	s.cfg = cfg
	s.problems = append(s.problems, problems...)
}

// startView is the command line the UI opens on (ui: Options.Resource): RESOURCE, else the files' view, and
// the contexts of a table of several clusters after it.
func (o *tuiOptions) startView() string {
	start := o.resource
	if start == "" {
		start = o.files.startView
	}
	if o.contexts != "" {
		start += " " + o.contexts
	}
	return start
}

// announce wires the UI's notices: a child's refused write on the status line, the files' problems (kscope
// started anyway, without them), and what the capture of stderr holds.
func (s *tuiSession) announce(app *ui.App) {
	if s.children != nil {
		s.children.notify(app.ChildRefused)
	}
	for _, p := range s.problems {
		app.Notice("config: " + p)
	}
	if s.capture != nil {
		s.capture.Deliver(app.Notice)
	}
}

// runUI runs app until the user quits or a signal ends it. SIGTERM, SIGHUP and SIGINT stop the UI and the
// terminal is restored; sig is the one that ended it (nil: none did).
func runUI(app *ui.App) (sig os.Signal, err error) {
	stopSignals := endOnSignals(app)
	err = app.Run()
	return stopSignals(), err
}

// saveState remembers where the session ended when the UI ended without an error, for the next start; it
// returns the line to print once the terminal is given back ("" for none).
func (s *tuiSession) saveState(app *ui.App, err error) string {
	if err != nil {
		return ""
	}
	context, resource, namespace := app.LastView()
	return rememberLastView(s.dirs, context, resource, namespace, app.FavoriteNamespaces())
}

// exitStatus gives standard error back, prints the stack of a panic the UI recovered, and turns how the UI
// ended into the command's error: exit code 2 after a panic, 128 plus its number after a signal.
func (o *tuiOptions) exitStatus(s *tuiSession, err error, sig os.Signal) error {
	if s.capture != nil {
		s.capture.Deliver(nil)
		s.capture.Restore()
	}
	var panicErr *ui.PanicError
	if errors.As(err, &panicErr) {
		fmt.Fprintf(o.streams.ErrOut, "%s\n", panicErr.Stack)
		return &exitError{code: 2, err: err}
	}
	if sig != nil {
		return signalExit(sig)
	}
	return err
}

// release restores standard error (when exitStatus did not) and, in read-only mode, stops the children's
// proxies and removes their kubeconfig.
func (s *tuiSession) release() {
	if s.capture != nil {
		s.capture.Restore() // calling it again does nothing
	}
	if s.children != nil {
		s.children.remove()
	}
}

// checkStart checks RESOURCE before the screen changes: conn's catalog must know it, unless it is shown in
// other clusters (@CONTEXT), whose names the kubeconfig must have.
func (o *tuiOptions) checkStart(ctx context.Context, conn *kube.Cluster) error {
	if o.contexts != "" {
		for _, name := range strings.Split(o.contexts, ",") {
			name = strings.TrimPrefix(strings.TrimSpace(name), "@")
			if name != "*" && !slices.Contains(conn.Info().Contexts, name) {
				return fmt.Errorf("no context %q in the kubeconfig (contexts: %s)", name, strings.Join(conn.Info().Contexts, ", "))
			}
		}
		return nil
	}
	if o.resource != "" && !ui.RegisteredCommand(registered(), o.resource) {
		if _, err := conn.Catalog().ResolveList(ctx, o.resource); err != nil {
			return err
		}
	}
	return nil
}

// connector connects to a kubeconfig context as the session's connection (`:ctx NAME`), or as a member
// beside it (a table of several clusters): a context its files make read-only is refused unless kscope is
// read-only; in read-only mode the children reach it through a proxy of its own, the session's kubeconfig
// pointed at it, or (a member) a kubeconfig of its own.
func (o *tuiOptions) connector(dirs config.Dirs, start spawn.Func, children *childAccess, member bool) func(context.Context, string) (cluster.Interface, error) {
	return func(ctx context.Context, name string) (cluster.Interface, error) {
		flags := kube.ContextFlags(o.flags, name)
		if err := refuseReadOnlyContext(dirs, flags, o.readOnly, o.changed("readonly")); err != nil {
			return nil, err
		}
		c, err := kube.Connect(ctx, flags, start)
		if err != nil {
			return nil, err // not a cluster.Interface holding a nil *kube.Cluster
		}
		if children == nil {
			return c, nil
		}
		attach := children.attach
		if member {
			attach = children.member
		}
		pc, err := attach(c, flags)
		if err != nil {
			c.Close()
			return nil, err
		}
		return pc, nil
	}
}
