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
	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"kscope/cluster"
	"kscope/columns"
	"kscope/config"
	"kscope/kube"
	"kscope/spawn"
	"kscope/ui"
	"kscope/ui/changes"
	"kscope/ui/containers"
	"kscope/ui/contexts"
	"kscope/ui/logview"
	"kscope/ui/objectview"
	"kscope/ui/portforwards"
	"kscope/ui/pulse"
	"kscope/ui/rollouts"
	"kscope/ui/treeview"
	"kscope/ui/versions"
	"kscope/watch"
)

// tuiGCPercent is the UI's GOGC unless the environment sets one.
const tuiGCPercent = 50

// tuiOptions runs the terminal UI: `kscope [RESOURCE] [-n NS | -A] [--readonly]`.
type tuiOptions struct {
	flags         *genericclioptions.ConfigFlags
	streams       genericiooptions.IOStreams
	allNamespaces bool
	readOnly      bool
	logLines      int
	mouse         bool
	saveDir       string
	resource      string
	contexts      string // @CONTEXT[,@CONTEXT…] after RESOURCE: a table of several clusters
	output        string
	columns       []watch.ObjectColumn
	version       string // kscope's, as the UI shows it
	// changed tells whether a flag was given (config.yaml decides the others); files holds what the
	// configuration files add.
	changed func(name string) bool
	files   fromFiles
}

// addTUI makes root run the terminal UI, with its arguments and flags.
func addTUI(root *cobra.Command, flags *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams, version string) {
	o := &tuiOptions{flags: flags, streams: streams, version: version}
	o.changed = func(name string) bool { return root.Flags().Changed(name) }
	root.Use = "kscope [RESOURCE [@CONTEXT[,@CONTEXT…]]]"
	root.Args = cobra.MaximumNArgs(2)
	root.RunE = func(cmd *cobra.Command, args []string) error {
		o.Complete(args)
		if err := o.Validate(); err != nil {
			return err
		}
		return o.Run(cmd.Context())
	}
	root.Flags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "start in all namespaces")
	root.Flags().BoolVar(&o.mouse, "mouse", false, "use the mouse: click selects, the wheel scrolls, a click on a header sorts")
	root.Flags().IntVar(&o.logLines, "log-lines", 5000, "how many lines a logs view keeps (the oldest are dropped first)")
	root.Flags().StringVar(&o.saveDir, "save-dir", "", "where ctrl-s saves (default: kscope-USER in the system's temporary folder)")
	root.Flags().StringVarP(&o.output, "output", "o", "", "show RESOURCE with kubectl's custom columns: custom-columns=HEADER:JSONPATH,… or custom-columns-file=FILE")
	root.Flags().BoolVar(&o.readOnly, "readonly", false, "refuse every change to the cluster at the transport: kscope's own requests (delete, edit, scale, restart, "+
		"shell, port-forward) and those of the plugins and the editor it starts, which get a kubeconfig of kscope's that reaches "+
		"the cluster only through a read-only proxy of kscope's (a child that names another kubeconfig or credentials itself is not covered)")
}

// Complete takes the optional RESOURCE argument, and the contexts of a table of several clusters after it.
func (o *tuiOptions) Complete(args []string) {
	if len(args) >= 1 {
		o.resource = args[0]
	}
	if len(args) == 2 {
		o.contexts = args[1]
	}
}

// Validate checks that the UI can run: a terminal, and -n not combined with -A.
func (o *tuiOptions) Validate() error {
	if o.allNamespaces && o.flags.Namespace != nil && *o.flags.Namespace != "" {
		return errors.New("-n/--namespace and -A/--all-namespaces cannot be used together")
	}
	if ns := o.flags.Namespace; ns != nil && *ns != "" {
		if errs := validation.IsDNS1123Label(*ns); len(errs) > 0 {
			return fmt.Errorf("invalid namespace %q: %s", *ns, errs[0])
		}
	}
	if o.contexts != "" && !strings.HasPrefix(o.contexts, "@") {
		return fmt.Errorf("%q: after RESOURCE, the contexts of a table of several clusters: @CONTEXT[,@CONTEXT…] (@* for all)", o.contexts)
	}
	if o.contexts != "" && o.output != "" {
		return errors.New("-o/--output shows one cluster: it cannot be used with @CONTEXT")
	}
	if o.output != "" {
		if o.resource == "" {
			return errors.New("-o/--output needs a RESOURCE: kscope RESOURCE -o custom-columns=HEADER:JSONPATH,…")
		}
		cols, err := columns.FromOutput(o.output)
		if err != nil {
			return err
		}
		o.columns = cols
	}
	if o.logLines < 1 {
		return fmt.Errorf("invalid --log-lines %d: a logs view keeps at least 1 line", o.logLines)
	}
	for _, f := range []*os.File{os.Stdin, os.Stdout} {
		if !term.IsTerminal(int(f.Fd())) {
			return errors.New("kscope needs a terminal; for scripts use `kubectl get`, or `kscope api-resources` for the resource list")
		}
	}
	return nil
}

// Run connects, resolves RESOURCE (an unknown one is an error before the screen changes) and runs the UI
// until the user quits.
func (o *tuiOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// client-go logs (reflector warnings, unhandled errors) go through klog to stderr, the terminal the UI
	// draws on; the UI shows connection state itself.
	klog.SetLogger(logr.Discard())
	if os.Getenv("GOGC") == "" {
		// A table holds its rows for the session: with the default GOGC=100 the heap may grow to twice them
		// before a collection, and the process keeps that memory. Half of them is the better trade for a
		// terminal tool that is idle most of the time (at 50k rows: RSS measured in bench/results).
		debug.SetGCPercent(tuiGCPercent)
	}
	dirs := config.DefaultDirs()
	problems := o.applySettings(dirs) // before read-only is decided
	// read-only: the children's kubeconfig and proxies
	var children *childAccess
	if o.readOnly {
		kube.ReadOnly(o.flags) // every client refuses writes at its transport, whatever a key handler does
		var err error
		if children, err = newChildAccess(); err != nil {
			return err
		}
		defer children.remove()
	}
	kube.NoTerminalInput(o.flags)
	// What credential plugins and server warnings write to stderr would draw over the screen: it goes to the
	// prompt line instead (and what the UI did not show, to stderr once the screen is given back).
	sup := spawn.NewSupervisor() // starts every goroutine of the session: a panic on one stops the UI
	capture, err := kube.CaptureStderr(sup.Func())
	if err == nil {
		defer capture.Restore()
	}
	conn, err := kube.Connect(ctx, o.flags, sup.Func())
	if err != nil {
		return err
	}
	conn.SetAllNamespaces(o.allNamespaces)
	if err := o.checkStart(ctx, conn); err != nil {
		conn.Close()
		return err
	}
	var first cluster.Interface = conn
	kubeconfig := kubeconfigPath(o.flags)
	if children != nil {
		if first, err = children.attach(conn, o.flags); err != nil {
			conn.Close()
			return err
		}
		kubeconfig = children.kubeconfig()
	}
	cfg, more := loadConfig(dirs)
	problems = append(problems, more...)
	start := o.resource
	if start == "" {
		start = o.files.startView
	}
	if o.contexts != "" {
		start += " " + o.contexts // a command line (ui: Options.Resource)
	}
	var stderr ui.StderrHandover // children that take the terminal get its standard error, not the capture
	if capture != nil {
		stderr = capture
	}
	app := ui.New(ui.Options{
		Screens: ui.TableScreens{ // the screens in packages of their own: one line each
			Pulse:      pulse.New,
			Forwards:   portforwards.New,
			Contexts:   contexts.New,
			History:    versions.NewHistory,
			Blame:      versions.NewBlame,
			Logs:       logview.Open,
			Tree:       treeview.New,
			YAML:       objectview.NewYAMLView,
			Describe:   objectview.NewDescribeView,
			Containers: containers.New,
			Rollouts:   rollouts.New,
			Changes:    changes.New,
		},
		Stderr:     stderr,
		Supervisor: sup,
		Aliases:    cfg.aliases,
		Favorites:  o.files.favorites,
		HotKeys:    cfg.hotkeys,
		Plugins:    cfg.plugins,
		// a context's plugins file (k9s's clusters/CLUSTER/CONTEXT/plugins.yaml), read when its keys are first needed
		ContextPlugins: func(cluster, context string) ([]config.Plugin, error) {
			p, _, err := config.LoadContextPlugins(dirs, cluster, context)
			return p, err
		},
		Kubeconfig: kubeconfig,
		Cluster:    first,
		Resource:   start,
		Columns:    o.columns,
		Views:      cfg.views,
		Jumps:      cfg.jumps,
		ReadOnly:   o.readOnly,
		LogLines:   o.logLines,
		Mouse:      o.mouse,
		SaveDir:    o.saveDir,
		Version:    o.version,
		Skin:       o.files.skin,
		Keys:       o.files.keys,
		LogTail:    o.files.logTail,
		LogWrap:    o.files.logWrap,
		LogFollow:  o.files.logFollow,

		LogTimestamps: o.files.logTimestamps,
		// Opening a big table allocates much more than it keeps (the list's bytes, its decoding, the metadata
		// fill's pages); Go's scavenger would give the freed memory back over minutes. A table that has
		// settled gives it back at once, for one collection on a goroutine of its own.
		Settled:       debug.FreeOSMemory,
		Contexts:      kubeContexts(dirs, o.flags, o.changed("readonly")),
		Connect:       o.connector(dirs, sup.Func(), children, false),
		ConnectMember: o.connector(dirs, sup.Func(), children, true),
	})
	if children != nil {
		children.notify(app.ChildRefused) // a child's refused write, on the status line
	}
	for _, p := range problems {
		app.Notice("config: " + p) // kscope starts anyway, without the file
	}
	if capture != nil {
		capture.Deliver(app.Notice)
	}
	stopSignals := endOnSignals(app) // SIGTERM, SIGHUP, SIGINT: the UI stops and the terminal is restored
	err = app.Run()
	sig := stopSignals()
	if context, resource, namespace := app.LastView(); err == nil {
		if line := rememberLastView(dirs, context, resource, namespace, app.FavoriteNamespaces()); line != "" {
			defer fmt.Fprintln(o.streams.ErrOut, line) // once the terminal is given back
		}
	}
	if capture != nil {
		capture.Deliver(nil)
		capture.Restore()
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
	if o.resource != "" {
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

// configured is what the configuration files give the UI.
type configured struct {
	aliases config.Aliases
	hotkeys []config.HotKey
	plugins []config.Plugin
	views   columns.Views
	jumps   []config.Jump
}

// loadConfig reads the aliases, hotkeys, plugins, views and jumps files; a file or a rule that cannot be used
// is one line in problems.
func loadConfig(dirs config.Dirs) (configured, []string) {
	var c configured
	var problems []string
	note := func(err error) {
		problems = append(problems, config.Lines(err)...)
	}
	var err error
	c.aliases, _, err = config.LoadAliases(dirs)
	note(err)
	c.hotkeys, _, err = config.LoadHotKeys(dirs)
	note(err)
	c.plugins, _, err = config.LoadPlugins(dirs)
	note(err)
	c.views, _, err = loadViews(dirs)
	note(err)
	c.jumps, _, err = config.LoadJumps(dirs)
	note(err)
	return c, problems
}

// loadViews reads views.yaml and makes its entries ready; a bad entry is a problem of the file.
func loadViews(dirs config.Dirs) (columns.Views, config.File, error) {
	settings, f, err := config.LoadViews(dirs)
	if err != nil {
		return columns.Views{}, f, err
	}
	views, err := columns.NewViews(settings)
	if err != nil {
		return columns.Views{}, f, config.Problem{Path: f.Path, Text: err.Error()}
	}
	return views, f, nil
}

// kubeconfigPath is the kubeconfig the flags name, else $KUBECONFIG (what plugins get as $KUBECONFIG).
func kubeconfigPath(flags *genericclioptions.ConfigFlags) string {
	if flags.KubeConfig != nil && *flags.KubeConfig != "" {
		return *flags.KubeConfig
	}
	return os.Getenv("KUBECONFIG")
}
