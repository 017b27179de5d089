package kube

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	clientdiscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	authorizationclient "k8s.io/client-go/kubernetes/typed/authorization/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/watch"
)

// connectTimeout bounds the requests Connect makes before it returns (server version, discovery).
const connectTimeout = 20 * time.Second

// Cluster is one connection to an API server over real clients; it implements cluster.Interface. All methods are
// safe for concurrent use.
type Cluster struct {
	cfg *rest.Config
	// flags are the kubeconfig flags the connection was made from (their read-only wrap included): what
	// the kubectl and Helm libraries build their own clients from (helm.go).
	flags   *genericclioptions.ConfigFlags
	dyn     dynamic.Interface
	auth    authorizationclient.AuthorizationV1Interface
	core    corev1client.CoreV1Interface
	catalog *discovery.Catalog
	cancel  context.CancelFunc
	done    chan struct{} // closed when the catalog's live refresh has returned
	// start starts every goroutine of the connection and of what it builds (sources, watches, trees).
	start spawn.Func

	mu   sync.Mutex
	info cluster.Info

	// metrics is the client of metrics.k8s.io, built on first use (metrics.go).
	metrics metricsClient
	// rules answers Can from one rules review per namespace (access.go).
	rules accessRules
	// helmStore reads Helm's stored revisions at a rate of its own, built on first use (helm.go).
	helmOnce  sync.Once
	helmStore cluster.ObjectReader
}

var _ cluster.Interface = (*Cluster)(nil)

// Connect reads the kubeconfig that flags select, checks that the server answers (its version, asked beside
// the catalog's load), loads the discovery catalog and starts its live refresh (discovery.Catalog.Run). The requests made before Connect returns end
// with ctx or after 20 s. The live refresh runs until Close is called or ctx ends, so ctx should be the
// lifetime of the connection, not of one request. Errors are one line a user can act on
// (DescribeConfigError, DescribeServerError). start starts every goroutine of the connection and of the
// sources and watches it builds (nil: plain goroutines): kscope gives its supervisor's, so that a panic on one
// stops the UI and restores the terminal.
func Connect(ctx context.Context, flags *genericclioptions.ConfigFlags, start spawn.Func) (*Cluster, error) {
	info, cfg, err := loadConfig(flags)
	if err != nil {
		return nil, err
	}
	// The version is asked beside the catalog's load, not before it: a cold start reads discovery from the
	// server in the same round trip (issue 51). Its error still comes first, as the one that says best why
	// the server cannot be used.
	type answer struct {
		version string
		err     error
	}
	versioned := make(chan answer, 1)
	start.Go(func() {
		v, err := serverVersion(ctx, cfg)
		versioned <- answer{v, err}
	})
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	auth, err := authorizationclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("authorization client: %w", err)
	}
	core, err := corev1client.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("core client: %w", err)
	}
	catalog := discovery.NewCatalog(flags)
	catalog.Spawn(start)
	loadCtx, cancelLoad := context.WithTimeout(ctx, connectTimeout)
	defer cancelLoad()
	loadErr := catalog.Load(loadCtx)
	v := <-versioned
	if v.err != nil {
		return nil, v.err
	}
	info.ServerVersion = v.version
	if loadErr != nil {
		return nil, DescribeServerError(cfg.Host, loadErr)
	}
	runCtx, cancel := context.WithCancel(ctx)
	c := &Cluster{info: info, cfg: cfg, flags: flags, dyn: dyn, auth: auth, core: core, catalog: catalog, cancel: cancel, done: make(chan struct{}),
		start: start}
	start.Go(func() {
		defer close(c.done)
		catalog.Run(runCtx)
	})
	return c, nil
}

// loadConfig reads the kubeconfig: the REST config, and what the header shows (the context, flags' --context
// or the current one; its cluster, user and namespace; the user and groups impersonated; the server; every
// context's name, sorted).
func loadConfig(flags *genericclioptions.ConfigFlags) (cluster.Info, *rest.Config, error) {
	loader := flags.ToRawKubeConfigLoader()
	raw, err := loader.RawConfig()
	if err != nil {
		return cluster.Info{}, nil, DescribeConfigError(err)
	}
	cfg, err := flags.ToRESTConfig()
	if err != nil {
		return cluster.Info{}, nil, DescribeConfigError(err)
	}
	ns, _, err := loader.Namespace()
	if err != nil {
		return cluster.Info{}, nil, DescribeConfigError(err)
	}
	info := cluster.Info{Context: raw.CurrentContext, Server: cfg.Host, Namespace: ns,
		As: cfg.Impersonate.UserName, AsGroups: cfg.Impersonate.Groups}
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
	return info, cfg, nil
}

// serverVersion asks the server at cfg for its version, within connectTimeout and until ctx ends.
func serverVersion(ctx context.Context, cfg *rest.Config) (string, error) {
	short := rest.CopyConfig(cfg)
	short.Timeout = connectTimeout
	disc, err := clientdiscovery.NewDiscoveryClientForConfig(short)
	if err != nil {
		return "", fmt.Errorf("discovery client: %w", err)
	}
	sv, err := disc.ServerVersionWithContext(ctx)
	if err != nil {
		return "", DescribeServerError(cfg.Host, err)
	}
	return sv.GitVersion, nil
}

// SetAllNamespaces makes Info report that the UI starts in all namespaces (kscope -A).
func (c *Cluster) SetAllNamespaces(all bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.info.AllNamespaces = all
}

// Info implements cluster.Interface. The Contexts and AsGroups slices are shared and must not be modified.
func (c *Cluster) Info() cluster.Info {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

// Catalog implements cluster.Interface with the *discovery.Catalog that Connect loaded.
func (c *Cluster) Catalog() cluster.Catalog { return c.catalog }

// NewSource implements cluster.Sources with a watch.Source (not started), or a watch.ObjectSource when spec has
// Columns of its own (reading a HEALTH column of a built-in kind in protobuf: NewObjectSourceWithConfig).
func (c *Cluster) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	if spec.Go == nil {
		spec.Go = c.start
	}
	if len(spec.Columns) > 0 {
		src, err := watch.NewObjectSourceWithConfig(c.cfg, c.dyn, spec)
		if err != nil {
			return nil, err
		}
		return src, nil
	}
	src, err := watch.NewSource(c.cfg, spec)
	if err != nil {
		return nil, err
	}
	return src, nil
}

// WatchObject implements cluster.Sources with watch.WatchObject.
func (c *Cluster) WatchObject(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) <-chan watch.ObjectEvent {
	return watch.WatchObject(ctx, c.dyn, gvr, namespace, name, c.start)
}

// Get implements cluster.Objects; errors are worded by DescribeServerError.
func (c *Cluster) Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error) {
	obj, err := c.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, DescribeServerError(c.cfg.Host, err)
	}
	return obj, nil
}

// Delete implements cluster.Objects; errors are worded by DescribeServerError.
func (c *Cluster) Delete(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, uid types.UID) error {
	opts := metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}}
	if err := c.dyn.Resource(gvr).Namespace(namespace).Delete(ctx, name, opts); err != nil {
		return DescribeServerError(c.cfg.Host, err)
	}
	return nil
}

// Close stops the catalog's live refresh and waits until it has stopped: its reads in flight are cancelled,
// so that takes moments, and after Close the connection writes nothing more to the discovery cache (a caller
// may remove it). It is idempotent; it must not be called from a catalog subscriber.
func (c *Cluster) Close() {
	c.cancel()
	<-c.done
}
