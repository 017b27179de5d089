package cli

import (
	"fmt"
	"sync"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"kscope/cluster"
	"kscope/kube"
	"kscope/kube/readonly"
)

// childAccess is how kscope's children (plugins, the editor) reach the cluster in read-only mode: each
// connection kscope opens gets a read-only proxy of its own (readonly.Proxy, stopped when the connection
// closes: on quit and on a context switch), and one kubeconfig file (readonly.ChildKubeconfig, the path
// children get as KUBECONFIG) points at the proxy of the connection in use. Its methods are safe for
// concurrent use.
type childAccess struct {
	file    *readonly.ChildKubeconfig
	cert    chan struct{} // closed once certErr/serving are set
	serving *readonly.ServingCert
	certErr error

	mu      sync.Mutex
	proxies map[*readonly.Proxy]bool
	files   []*readonly.ChildKubeconfig // the members' (member), removed with the folder of the session's
	refused func(line string)           // told of each refusal (notify); nil: no one yet
}

// newChildAccess creates the private folder and starts making the proxies' certificate (on a goroutine:
// it takes a fifth of a second, which the connection's own requests hide).
func newChildAccess() (*childAccess, error) {
	file, err := readonly.NewChildKubeconfig()
	if err != nil {
		return nil, err
	}
	c := &childAccess{file: file, cert: make(chan struct{}), proxies: map[*readonly.Proxy]bool{}}
	go func() {
		defer close(c.cert)
		c.serving, c.certErr = readonly.NewServingCert()
	}()
	return c, nil
}

// kubeconfig is the path children get as KUBECONFIG.
func (c *childAccess) kubeconfig() string { return c.file.Path() }

// attach starts the proxy of kc, connected with flags, and points the children's kubeconfig at it.
// The cluster it returns stops that proxy when it closes.
func (c *childAccess) attach(kc *kube.Cluster, flags *genericclioptions.ConfigFlags) (cluster.Interface, error) {
	<-c.cert
	if c.certErr != nil {
		return nil, c.certErr
	}
	cfg, err := flags.ToRESTConfig() // with the read-only wrapper the flags carry
	if err != nil {
		return nil, fmt.Errorf("read-only proxy: %w", err)
	}
	p, err := readonly.StartProxy(cfg, c.serving, c.report)
	if err != nil {
		return nil, err
	}
	info := kc.Info()
	if err := c.file.Point(p, readonly.Names{Context: info.Context, Cluster: info.Cluster, User: info.User, Namespace: info.Namespace}); err != nil {
		_ = p.Close()
		return nil, err
	}
	c.mu.Lock()
	c.proxies[p] = true
	c.mu.Unlock()
	return &proxiedCluster{Cluster: kc, stop: func() { c.stop(p) }}, nil
}

// member starts the proxy of kc, a cluster shown beside the session's (connected with flags), with a
// kubeconfig of its own for the children that act on it; the session's children's kubeconfig stays as it
// is. The cluster it returns names that kubeconfig (ChildKubeconfig), and stops the proxy and removes the
// file when it closes.
func (c *childAccess) member(kc *kube.Cluster, flags *genericclioptions.ConfigFlags) (cluster.Interface, error) {
	<-c.cert
	if c.certErr != nil {
		return nil, c.certErr
	}
	cfg, err := flags.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("read-only proxy: %w", err)
	}
	file, err := readonly.NewChildKubeconfig()
	if err != nil {
		return nil, err
	}
	p, err := readonly.StartProxy(cfg, c.serving, c.report)
	if err != nil {
		_ = file.Remove()
		return nil, err
	}
	info := kc.Info()
	if err := file.Point(p, readonly.Names{Context: info.Context, Cluster: info.Cluster, User: info.User, Namespace: info.Namespace}); err != nil {
		_ = p.Close()
		_ = file.Remove()
		return nil, err
	}
	c.mu.Lock()
	c.proxies[p] = true
	c.files = append(c.files, file)
	c.mu.Unlock()
	return &proxiedCluster{Cluster: kc, kubeconfig: file.Path(), stop: func() { c.stop(p); _ = file.Remove() }}, nil
}

// report tells the one notify named of a refusal, on the proxy's goroutine before the child is answered
// (so that a plugin's end knows of it); that function must not block.
func (c *childAccess) report(r readonly.Refusal) {
	c.mu.Lock()
	refused := c.refused
	c.mu.Unlock()
	if refused != nil {
		refused(r.String())
	}
}

// notify has refused called with each refusal from now on (ui.App.ChildRefused: it never blocks).
func (c *childAccess) notify(refused func(line string)) {
	c.mu.Lock()
	c.refused = refused
	c.mu.Unlock()
}

// stop closes p.
func (c *childAccess) stop(p *readonly.Proxy) {
	c.mu.Lock()
	delete(c.proxies, p)
	c.mu.Unlock()
	_ = p.Close()
}

// remove stops every proxy and deletes the kubeconfig's folder.
func (c *childAccess) remove() {
	c.mu.Lock()
	proxies := c.proxies
	c.proxies = map[*readonly.Proxy]bool{}
	c.mu.Unlock()
	for p := range proxies {
		_ = p.Close()
	}
	c.mu.Lock()
	files := c.files
	c.files = nil
	c.mu.Unlock()
	for _, f := range files {
		_ = f.Remove()
	}
	_ = c.file.Remove()
}

// proxiedCluster is a connection whose Close also stops its read-only proxy.
type proxiedCluster struct {
	*kube.Cluster
	// kubeconfig is the children's kubeconfig of a member (childAccess.member); "" for the session's.
	kubeconfig string
	stop       func()
}

// ChildKubeconfig is the kubeconfig of the children acting on this cluster, when it has one of its own.
func (c *proxiedCluster) ChildKubeconfig() string { return c.kubeconfig }

// Close closes the connection and stops the proxy.
func (c *proxiedCluster) Close() {
	c.Cluster.Close()
	c.stop()
}
