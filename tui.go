package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"golang.org/x/term"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clientdiscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"kscope/discovery"
	"kscope/ui"
	"kscope/watch"
)

// connectTimeout bounds the requests made before the UI starts (server version, discovery).
const connectTimeout = 20 * time.Second

// tuiOptions runs the terminal UI: `kscope [RESOURCE] [-n NS | -A] [--readonly]`.
type tuiOptions struct {
	flags         *genericclioptions.ConfigFlags
	streams       genericiooptions.IOStreams
	allNamespaces bool
	readOnly      bool
	resource      string
}

// addTUI makes root run the terminal UI, with its arguments and flags.
func addTUI(root *cobra.Command, flags *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) {
	o := &tuiOptions{flags: flags, streams: streams}
	root.Use = "kscope [RESOURCE]"
	root.Args = cobra.MaximumNArgs(1)
	root.RunE = func(cmd *cobra.Command, args []string) error {
		o.Complete(args)
		if err := o.Validate(); err != nil {
			return err
		}
		return o.Run(cmd.Context())
	}
	root.Flags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "start in all namespaces")
	root.Flags().BoolVar(&o.readOnly, "readonly", false, "refuse every change to the cluster (delete)")
}

// Complete takes the optional RESOURCE argument.
func (o *tuiOptions) Complete(args []string) {
	if len(args) == 1 {
		o.resource = args[0]
	}
}

// Validate checks that the UI can run: a terminal, and -n not combined with -A.
func (o *tuiOptions) Validate() error {
	if o.allNamespaces && o.flags.Namespace != nil && *o.flags.Namespace != "" {
		return errors.New("-n/--namespace and -A/--all-namespaces cannot be used together")
	}
	for _, f := range []*os.File{os.Stdin, os.Stdout} {
		if !term.IsTerminal(int(f.Fd())) {
			return errors.New("kscope needs a terminal (for scripts use `kscope get`, or kubectl)")
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
	cluster, err := connect(ctx, o.flags)
	if err != nil {
		return err
	}
	if o.allNamespaces {
		cluster.info.AllNamespaces = true
	}
	if o.resource != "" {
		if _, err := cluster.catalog.Resolve(o.resource); err != nil {
			cluster.Close()
			return err
		}
	}
	app := ui.New(ui.Options{
		Cluster:  cluster,
		Resource: o.resource,
		ReadOnly: o.readOnly,
		Version:  version,
		Connect: func(ctx context.Context, name string) (ui.Cluster, error) {
			return connect(ctx, contextFlags(o.flags, name))
		},
	})
	err = app.Run()
	var panicErr *ui.PanicError
	if errors.As(err, &panicErr) {
		fmt.Fprintf(o.streams.ErrOut, "%s\n", panicErr.Stack)
		return &exitError{code: 2, err: err}
	}
	return err
}

// contextFlags returns connection flags for kubeconfig context name, keeping the user's kubeconfig, cache
// and impersonation flags but not the ones that override the context (namespace, cluster, user).
func contextFlags(f *genericclioptions.ConfigFlags, name string) *genericclioptions.ConfigFlags {
	n := genericclioptions.NewConfigFlags(true).WithDiscoveryBurst(300).WithDiscoveryQPS(50.0)
	n.KubeConfig, n.CacheDir, n.Timeout, n.Insecure = f.KubeConfig, f.CacheDir, f.Timeout, f.Insecure
	n.Impersonate, n.ImpersonateUID, n.ImpersonateGroup = f.Impersonate, f.ImpersonateUID, f.ImpersonateGroup
	n.Context = &name
	return n
}

// kubeCluster is a ui.Cluster over real clients. Safe for concurrent use.
type kubeCluster struct {
	info    ui.ClusterInfo
	cfg     *rest.Config
	dyn     dynamic.Interface
	catalog *discovery.Catalog
	cancel  context.CancelFunc
}

// connect reads the kubeconfig, checks the server answers, loads the catalog and starts its live refresh.
func connect(ctx context.Context, flags *genericclioptions.ConfigFlags) (*kubeCluster, error) {
	loader := flags.ToRawKubeConfigLoader()
	raw, err := loader.RawConfig()
	if err != nil {
		return nil, describeConfigError(err)
	}
	cfg, err := flags.ToRESTConfig()
	if err != nil {
		return nil, describeConfigError(err)
	}
	ns, _, err := loader.Namespace()
	if err != nil {
		return nil, describeConfigError(err)
	}
	info := ui.ClusterInfo{Context: raw.CurrentContext, Server: cfg.Host, Namespace: ns}
	if flags.Context != nil && *flags.Context != "" {
		info.Context = *flags.Context
	}
	if kc, ok := raw.Contexts[info.Context]; ok {
		info.Cluster, info.User = kc.Cluster, kc.AuthInfo
	}
	for name := range raw.Contexts {
		info.Contexts = append(info.Contexts, name)
	}
	sort.Strings(info.Contexts)
	short := rest.CopyConfig(cfg)
	short.Timeout = connectTimeout
	disc, err := clientdiscovery.NewDiscoveryClientForConfig(short)
	if err != nil {
		return nil, fmt.Errorf("discovery client: %w", err)
	}
	sv, err := disc.ServerVersion()
	if err != nil {
		return nil, describeServerError(cfg.Host, err)
	}
	info.ServerVersion = sv.GitVersion
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	catalog := discovery.NewCatalog(flags)
	loadCtx, cancelLoad := context.WithTimeout(ctx, connectTimeout)
	defer cancelLoad()
	if err := catalog.Load(loadCtx); err != nil {
		return nil, describeServerError(cfg.Host, err)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	go catalog.Run(runCtx)
	return &kubeCluster{info: info, cfg: cfg, dyn: dyn, catalog: catalog, cancel: cancel}, nil
}

// Info implements ui.Cluster.
func (c *kubeCluster) Info() ui.ClusterInfo { return c.info }

// Catalog implements ui.Cluster.
func (c *kubeCluster) Catalog() ui.Catalog { return c.catalog }

// NewSource implements ui.Cluster with a watch.Source.
func (c *kubeCluster) NewSource(spec watch.Spec) (ui.RowSource, error) {
	src, err := watch.NewSource(c.cfg, spec)
	if err != nil {
		return nil, err
	}
	return src, nil
}

// WatchObject implements ui.Cluster.
func (c *kubeCluster) WatchObject(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) <-chan watch.ObjectEvent {
	return watch.WatchObject(ctx, c.dyn, gvr, namespace, name)
}

// Get implements ui.Cluster.
func (c *kubeCluster) Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error) {
	obj, err := c.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, describeServerError(c.cfg.Host, err)
	}
	return obj, nil
}

// Delete implements ui.Cluster.
func (c *kubeCluster) Delete(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) error {
	if err := c.dyn.Resource(gvr).Namespace(namespace).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return describeServerError(c.cfg.Host, err)
	}
	return nil
}

// Close stops the catalog's live refresh.
func (c *kubeCluster) Close() { c.cancel() }
