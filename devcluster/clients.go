package main

import (
	"fmt"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// clusterClients are the clients seed and churn use, as the admin user (of the first cluster, or of the
// context they were made for).
type clusterClients struct {
	config  *rest.Config
	typed   kubernetes.Interface
	dynamic dynamic.Interface
	mapper  *restmapper.DeferredDiscoveryRESTMapper
}

func newClusterClients(l layout) (*clusterClients, error) { return contextClients(l, "") }

// contextClients are the clients of the kubeconfig's context name ("": its current one, admin).
func contextClients(l layout, name string) (*clusterClients, error) {
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: l.kubeconfig()},
		&clientcmd.ConfigOverrides{CurrentContext: name}).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("load %s (is the cluster up? run `devcluster up`, with --clusters N for a third or fourth): %w", l.kubeconfig(), err)
	}
	cfg.QPS, cfg.Burst = 500, 1000
	typed, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	return &clusterClients{config: cfg, typed: typed, dynamic: dyn, mapper: mapper}, nil
}
