package ui

import (
	"context"
	"time"

	"k8s.io/utils/clock"

	"kscope/cluster"
	"kscope/columns"
	"kscope/config"
	"kscope/spawn"
	"kscope/ui/files"
	"kscope/ui/verbs"
	"kscope/watch"
)

// Options configure an App. The zero value of each optional field has the documented default.
type Options struct {
	// Cluster is the connection to start with (required).
	Cluster cluster.Interface
	// Connect opens a connection for a kubeconfig context (for `:ctx NAME`); nil disables context switching.
	// It is called off the UI goroutine and may block.
	Connect func(ctx context.Context, contextName string) (cluster.Interface, error)
	// ConnectMember opens a connection for a context shown beside the session's (a table of several
	// clusters, `:pods @prod,@stg`), as Connect does, except that in read-only mode the children acting on
	// it get a kubeconfig of its own (the connection's ChildKubeconfig) rather than the session's; nil: Connect.
	ConnectMember func(ctx context.Context, contextName string) (cluster.Interface, error)
	// Contexts lists the kubeconfig's contexts for the contexts screen (`:ctx`); nil: that screen is not
	// offered. It is called off the UI goroutine and may block.
	Contexts func() ([]cluster.KubeContext, error)
	// Resource, when set, is opened at start instead of the resource picker (resolved through the catalog).
	Resource string
	// Registered are the screens in packages of their own that declare themselves (ScreenSpec): their
	// commands join the command bar, their keys the key table, the roles they play (Roles) kscope's keys.
	Registered []ScreenSpec
	// ReadOnly refuses every change to the cluster (delete, edit, scale, restart) without sending a request.
	ReadOnly bool
	// Edit opens an object's YAML in the user's editor for `e` (default: kubectl's editor, $KUBE_EDITOR,
	// else $EDITOR, else vi, started with Kubeconfig as its KUBECONFIG). It runs on the UI goroutine with
	// the TUI suspended.
	Edit verbs.EditFunc
	// Version is kscope's version for the header.
	Version string
	// Clock is the time the UI runs on: AGE, flashes, the batching of redraws and the AGE tick; default the
	// real clock. Tests give a fake one (k8s.io/utils/clock/testing) and step it.
	Clock clock.WithTicker
	// FlashFor and GhostFor set how long added/modified rows flash and deleted rows stay dimmed
	// (defaults 1.5 s and 3 s).
	FlashFor, GhostFor time.Duration
	// MinRedraw is the least time between two table refreshes (default 50 ms: at most 20 redraws a second);
	// negative refreshes on every change (tests on a fake clock).
	MinRedraw time.Duration
	// Tick is the AGE refresh period when idle (default 1 s); negative disables it (tests).
	Tick time.Duration
	// LogLines is how many lines a logs view keeps, the oldest dropped first (default 5000).
	LogLines int
	// Aliases are names for command lines (`:dp` for deployments.apps), from aliases.yaml.
	Aliases config.Aliases
	// HotKeys are keys that run a command line, from hotkeys.yaml; they are listed with the global keys.
	HotKeys []config.HotKey
	// Plugins run commands on the selected object, from plugins.yaml.
	Plugins []config.Plugin
	// Favorites are the favourite namespaces by kubeconfig context, as the last session left them (keys 1 to
	// 9 switch to them; a namespace switched to is added, FavoriteNamespaces). Not changed by the App.
	Favorites map[string][]string
	// ContextPlugins, when set, reads the plugins file of a kubeconfig context (its plugins replace those of
	// the same name); called on the UI goroutine, once per context.
	ContextPlugins func(cluster, context string) ([]config.Plugin, error)
	// Kubeconfig is the kubeconfig path the processes kscope starts (plugins, the editor) get as
	// $KUBECONFIG; in read-only mode kscope's own, which reaches the cluster only through its read-only
	// proxy.
	Kubeconfig string
	// Mouse turns the mouse on: a click selects, the wheel scrolls, a click on a column's header sorts by it.
	Mouse bool
	// Clipboard puts text on the clipboard for `c` (default: an OSC 52 sequence to the terminal).
	Clipboard ClipboardFunc
	// SaveDir is where ctrl-s writes (logs under SaveDir/logs); default files.DefaultDir. SaveFile refuses a
	// folder others could have planted (package ui/files).
	SaveDir string
	// Columns, when set, are the columns Resource opens with (`-o custom-columns`), computed from the objects.
	Columns []watch.ObjectColumn
	// Jumps are what Enter opens from the objects of the resources they name, from jumps.yaml; they come
	// before the built-in drill-downs.
	Jumps []config.Jump
	// Views lay out the tables of the resources views.yaml names (its columns and sort).
	Views columns.Views
	// Keys rebind kscope's own keys by name, from keys.yaml; one that cannot apply is said on the prompt line.
	Keys []config.KeyRemap
	// Skin, when set, colors the UI (a k9s skin); nil is kscope's own look.
	Skin *config.Skin
	// LogTail is how many of a container's last lines a logs view starts with (default 200).
	LogTail int
	// LogWrap, LogTimestamps and LogFollow, when set, are the logs view's toggles at start (default: wrap
	// and follow on, timestamps off).
	LogWrap, LogTimestamps, LogFollow *bool
	// Settled, if set, is called on a goroutine of its own when a table has finished opening: its first list,
	// and the labels filled in behind it, are complete (watch.Source.Settled), and again when a pods table
	// has its pods' requests and limits. kscope gives the memory the opening used back to the system then.
	// Calls never overlap: one that comes while another runs is dropped.
	Settled func()
	// Stderr, when set, is the capture of kscope's standard error (kube.StderrCapture): suspend pauses it while
	// a child has the terminal, so that what the child writes to standard error (a prompt) reaches the
	// terminal as it writes it, and resumes it after.
	Stderr StderrHandover
	// Supervisor starts the UI's goroutines; the composition root gives the connection (kube.Connect) the
	// same one, so that a panic on any goroutine stops the UI and restores the terminal. Default: its own.
	Supervisor *spawn.Supervisor
}

func (o *Options) defaults() {
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	if o.FlashFor == 0 {
		o.FlashFor = 1500 * time.Millisecond
	}
	if o.GhostFor == 0 {
		o.GhostFor = 3 * time.Second
	}
	if o.MinRedraw == 0 {
		o.MinRedraw = 50 * time.Millisecond
	}
	if o.Tick == 0 {
		o.Tick = time.Second
	}
	if o.Clipboard == nil {
		o.Clipboard = files.OSC52
	}
	if o.SaveDir == "" {
		o.SaveDir = files.DefaultDir()
	}
	if o.Version == "" {
		o.Version = "dev"
	}
}

// logSettings are the options of the logs screen.
func (o Options) logSettings() LogSettings {
	return LogSettings{Lines: o.LogLines, Tail: o.LogTail, Wrap: o.LogWrap, Timestamps: o.LogTimestamps, Follow: o.LogFollow}
}
