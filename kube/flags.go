package kube

import "k8s.io/cli-runtime/pkg/genericclioptions"

// NewConfigFlags returns kubectl's connection flags (--kubeconfig, --context, -n, --server, impersonation, …)
// with discovery allowed a burst of 300 requests at 50 per second, so that a cluster with many API groups is
// read at once rather than throttled. Each call returns new flags.
func NewConfigFlags() *genericclioptions.ConfigFlags {
	return genericclioptions.NewConfigFlags(true).WithDiscoveryBurst(300).WithDiscoveryQPS(50.0)
}

// ContextFlags returns new connection flags for kubeconfig context name that keep f's kubeconfig, cache
// directory, timeout, TLS and impersonation flags and its config wrapper (so read-only stays read-only) but
// drop those that override the context's own settings (namespace, cluster, user, server). f is not modified.
func ContextFlags(f *genericclioptions.ConfigFlags, name string) *genericclioptions.ConfigFlags {
	n := NewConfigFlags()
	n.KubeConfig, n.CacheDir, n.Timeout, n.Insecure = f.KubeConfig, f.CacheDir, f.Timeout, f.Insecure
	n.Impersonate, n.ImpersonateUID, n.ImpersonateGroup = f.Impersonate, f.ImpersonateUID, f.ImpersonateGroup
	n.WrapConfigFn = f.WrapConfigFn
	n.Context = &name
	return n
}
