package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"

	"kscope/columns"
	"kscope/config"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/tree"
	"kscope/watch"
)

// RowSource is the live rows of one view; *watch.Source satisfies it. The UI calls Start once, reads the rest
// from its own goroutine and calls Stop when the view closes. Implementations must be safe for concurrent use.
type RowSource interface {
	Spec() watch.Spec
	Start(ctx context.Context)
	Stop()
	State() watch.State
	Columns() []watch.Column
	// Notify receives (coalesced) after rows or state changed.
	Notify() <-chan struct{}
	// Changes drains the change marks gathered since the previous call.
	Changes() watch.ChangeSet
	Snapshot(q watch.Query) watch.Snapshot
	Row(key string) (*watch.Row, bool)
}

// Catalog lists and resolves API resources; *discovery.Catalog satisfies it. Safe for concurrent use;
// Subscribe's callback runs on a catalog goroutine and must not touch tview.
type Catalog interface {
	Resources() []discovery.Resource
	Unavailable() []discovery.Unavailable
	// Resolve finds the resource input names; it may read discovery from the server until ctx ends.
	Resolve(ctx context.Context, input string) (discovery.Resource, error)
	Subscribe(fn func()) (cancel func())
	// ResolveList resolves a comma-separated list of names and categories as `kubectl get a,b` does (see
	// discovery.Catalog.ResolveList); it may read discovery from the server until ctx ends.
	ResolveList(ctx context.Context, input string) (discovery.List, error)
}

// ClusterInfo is what the header shows about the connection.
type ClusterInfo struct {
	Context       string
	Cluster       string
	User          string
	Server        string
	ServerVersion string
	// Namespace is the namespace to start in ("" with AllNamespaces).
	Namespace     string
	AllNamespaces bool
	// Contexts lists the kubeconfig's context names (for :ctx completion).
	Contexts []string
}

// Cluster is one connection to an API server: its catalog and the requests the UI makes. Implementations
// must be safe for concurrent use; methods that take a context block for at most a request's duration.
type Cluster interface {
	Info() ClusterInfo
	Catalog() Catalog
	// NewSource builds (does not start) the live rows for spec.
	NewSource(spec watch.Spec) (RowSource, error)
	// WatchObject streams the latest state of one object until ctx ends (see watch.WatchObject).
	WatchObject(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) <-chan watch.ObjectEvent
	// Get reads one full object.
	Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error)
	// Delete deletes one object (default propagation, like kubectl delete) if its UID is still uid: an
	// object deleted and re-created under the same name since the user chose it is left alone (Conflict).
	Delete(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, uid types.UID) error
	// Describe returns the text `kubectl describe` prints for one object of res (events included).
	Describe(ctx context.Context, res discovery.Resource, namespace, name string) (string, error)
	// Update replaces obj; its resourceVersion is the precondition (a Conflict when the object changed).
	Update(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error)
	// Replicas reads an object's scale subresource: spec.replicas and the scale's UID and resourceVersion.
	Replicas(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (ScaleState, error)
	// Scale sets spec.replicas through the scale subresource if pre still holds (else a Conflict, nothing
	// written), as `kubectl scale --resource-version` does.
	Scale(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, replicas int32, pre Precondition) error
	// Restart starts a rollout of a workload's pods (`kubectl rollout restart`), stamped with at, if pre
	// still holds (else a Conflict, nothing written).
	Restart(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, at time.Time, pre Precondition) error
	// Can asks the server whether the user may make the request q describes.
	Can(ctx context.Context, q AccessQuery) (AccessAnswer, error)
	// Close releases the connection's background work (catalog refresh).
	Close()

	// Logs opens one container's log as req asks (pods/log); the caller reads and closes it. With
	// req.Follow the stream stays open until ctx ends or the server ends it.
	Logs(ctx context.Context, req LogRequest) (io.ReadCloser, error)

	// PodMetrics lists the usage metrics.k8s.io/v1beta1 reports for the pods of namespace ("" = all) that
	// labelSelector selects, each summed over its containers as `kubectl top pods` sums them. It makes one
	// request and blocks for at most its duration; an error means the metrics API is missing or failing.
	PodMetrics(ctx context.Context, namespace, labelSelector string) ([]PodUsage, error)
	// NodeMetrics lists the usage metrics.k8s.io/v1beta1 reports for the nodes labelSelector selects, with
	// each node's allocatable CPU and memory (from a list of the nodes, as `kubectl top nodes` reads them).
	// It blocks for at most two requests.
	NodeMetrics(ctx context.Context, labelSelector string) ([]NodeUsage, error)
	// WatchPodResources keeps the summed requests and limits of the pods spec selects (its namespace and
	// selectors) until ctx ends, and returns at once; the reader it returns is safe for concurrent use and
	// answers nothing until its first list has arrived.
	WatchPodResources(ctx context.Context, spec watch.Spec) PodResourceReader

	// PodFor returns the pod a shell or a port-forward to an object of gvr reaches, as kubectl picks it: the
	// pod itself, or for a service or a workload one of the pods its selector matches, the most active
	// first (waiting at most as long as ctx allows for one to appear).
	PodFor(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*corev1.Pod, error)
	// Exec runs req.Command in a container of a pod with req's streams attached, as `kubectl exec` does
	// (WebSocket, else SPDY), until the command exits or ctx ends. A command that exits non-zero is an
	// error wrapping k8s.io/client-go/util/exec.CodeExitError. It blocks for the command's whole life.
	Exec(ctx context.Context, req ExecRequest) error
	// PortForward listens on req's local port and forwards each connection to the pod's port, as `kubectl
	// port-forward` does, until ctx ends or the forward fails (the pod gone or no longer running, the
	// connection to it lost). It returns once listening, with the local port (the one chosen when
	// req.LocalPort is 0), or with the error that prevented it (the address in use, the pod not running,
	// read-only mode). ended then receives one value when the forward is over (nil when ctx ended, else
	// why) and is closed.
	PortForward(ctx context.Context, req PortForwardRequest) (local int, ended <-chan error, err error)

	// NewTreeSource builds (does not start) the metadata-only lists and watches, one per kind, of every
	// object of kinds (namespaced kinds in namespace, "" for all; cluster-scoped ones everywhere) that a
	// relationship tree is drawn from.
	NewTreeSource(kinds []tree.Kind, namespace string) (TreeSource, error)
}

// ExecRequest is one command to run in a container (see Cluster.Exec). Exec uses its streams from goroutines
// of its own until it returns; the caller must not share them meanwhile.
type ExecRequest struct {
	Namespace, Pod, Container string
	Command                   []string
	Stdin                     io.Reader
	Stdout, Stderr            io.Writer
	// TTY asks for a terminal in the container (Stderr is then unused: the terminal merges it).
	TTY bool
	// Sizes, when set with TTY, returns the terminal's size, then each change, blocking in between; nil
	// when there are no more.
	Sizes func() *TerminalSize
}

// TerminalSize is a terminal's size in cells.
type TerminalSize struct {
	Width, Height uint16
}

// PortForwardRequest is one forward of a local port to a pod's port (see Cluster.PortForward); a plain value.
type PortForwardRequest struct {
	Namespace, Pod string
	// Address is the local address listened on ("127.0.0.1").
	Address string
	// LocalPort is the local port (0: any free one); PodPort the pod's.
	LocalPort, PodPort int
}

// AccessQuery is one request the user might make: a verb on a resource (or one of its subresources) in a
// namespace ("" for cluster-scoped resources, or every namespace), optionally of one named object.
type AccessQuery struct {
	Verb        string
	GVR         schema.GroupVersionResource
	Subresource string
	Namespace   string
	Name        string
}

// AccessAnswer is the server's answer to an AccessQuery, with the authorizer's reason when it gives one.
type AccessAnswer struct {
	Allowed bool
	Reason  string
}

// Options configure an App. The zero value of each optional field has the documented default.
type Options struct {
	// Cluster is the connection to start with (required).
	Cluster Cluster
	// Connect opens a connection for a kubeconfig context (for `:ctx NAME`); nil disables context switching.
	// It is called off the UI goroutine and may block.
	Connect func(ctx context.Context, contextName string) (Cluster, error)
	// Resource, when set, is opened at start instead of the resource picker (resolved through the catalog).
	Resource string
	// ReadOnly refuses every change to the cluster (delete, edit, scale, restart) without sending a request.
	ReadOnly bool
	// Edit opens an object's YAML in the user's editor for `e` (default: kubectl's editor, $KUBE_EDITOR,
	// else $EDITOR, else vi, started with Kubeconfig as its KUBECONFIG). It runs on the UI goroutine with
	// the TUI suspended.
	Edit EditFunc
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
	// SaveDir is where ctrl-s writes (logs under SaveDir/logs); default kscope-USER in the system's
	// temporary folder.
	SaveDir string
	// Columns, when set, are the columns Resource opens with (`-o custom-columns`), computed from the objects.
	Columns []watch.ObjectColumn
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
		o.Clipboard = osc52Clipboard
	}
	if o.SaveDir == "" {
		o.SaveDir = DefaultSaveDir()
	}
	if o.Version == "" {
		o.Version = "dev"
	}
}

// DefaultSaveDir is where ctrl-s writes when Options.SaveDir is not set: kscope-USER in the system's
// temporary folder (kscope-UID when the user has no name).
func DefaultSaveDir() string {
	name := fmt.Sprint(os.Getuid())
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	return filepath.Join(os.TempDir(), "kscope-"+name)
}
