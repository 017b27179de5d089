package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/columns"
	"kscope/config"
	"kscope/spawn"
	"kscope/ui"
	"kscope/watch"
)

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
	root.Flags().StringVar(&o.saveDir, "save-dir", "", "where ctrl-s saves (default: $XDG_STATE_HOME/kscope, else ~/.local/state/kscope)")
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
// until the user quits; then it remembers where the session ended. Each step is a method of its own, in
// the order the session needs them: the files' settings decide read-only before the children's access is
// set up, standard error is captured before connecting (a credential plugin may write to it), RESOURCE is
// checked before the screen changes.
func (o *tuiOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tuneProcess()
	s := &tuiSession{dirs: config.DefaultDirs(), sup: spawn.NewSupervisor()}
	defer s.release()
	s.problems = o.applySettings(s.dirs) // before read-only is decided
	if err := o.startChildren(s); err != nil {
		return err
	}
	s.captureStderr()
	if err := o.connect(ctx, s); err != nil {
		return err
	}
	s.loadConfiguration()
	app := o.newUI(s)
	s.announce(app)
	sig, err := runUI(app)
	if line := s.saveState(app, err); line != "" {
		defer fmt.Fprintln(o.streams.ErrOut, line) // once the terminal is given back
	}
	return o.exitStatus(s, err, sig)
}

// newUI builds the UI of the session s started: its screens, the files' configuration, the connection it
// starts on and how it connects to other contexts.
func (o *tuiOptions) newUI(s *tuiSession) *ui.App {
	var stderr ui.StderrHandover // children that take the terminal get its standard error, not the capture
	if s.capture != nil {
		stderr = s.capture
	}
	dirs := s.dirs
	return ui.New(ui.Options{
		Registered: registered(),
		Stderr:     stderr,
		Supervisor: s.sup,
		Aliases:    s.cfg.aliases,
		Favorites:  o.files.favorites,
		HotKeys:    s.cfg.hotkeys,
		Plugins:    s.cfg.plugins,
		// a context's plugins file (k9s's clusters/CLUSTER/CONTEXT/plugins.yaml), read when its keys are first needed
		ContextPlugins: func(cluster, context string) ([]config.Plugin, error) {
			p, _, err := config.LoadContextPlugins(dirs, cluster, context)
			return p, err
		},
		Kubeconfig: s.kubeconfig,
		Cluster:    s.first,
		Resource:   o.startView(),
		Columns:    o.columns,
		Views:      s.cfg.views,
		Jumps:      s.cfg.jumps,
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
		Connect:       o.connector(dirs, s.sup.Func(), s.children, false),
		ConnectMember: o.connector(dirs, s.sup.Func(), s.children, true),
	})
}
