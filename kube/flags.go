package kube

import (
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/rest"

	"kscope/kube/readonly"
)

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

// NoTerminalInput keeps exec credential plugins (kubeconfig users[].exec: EKS, GKE, AKS, OIDC helpers) of the
// clients built from flags off the terminal, which the UI owns: client-go then never hands them its standard
// input, and a plugin that must ask the user fails with a message instead of reading the keys meant for the
// UI. It chains after flags' WrapConfigFn; ContextFlags keeps it.
func NoTerminalInput(flags *genericclioptions.ConfigFlags) {
	wrapConfig(flags, func(c *rest.Config) *rest.Config {
		if c.ExecProvider != nil {
			c = rest.CopyConfig(c)
			c.ExecProvider.StdinUnavailable = true
			c.ExecProvider.StdinUnavailableMessage = "kscope's terminal UI is running; log in with kubectl first"
		}
		return c
	})
}

// ReadOnly makes every client built from flags refuse, at its transport, each request that could change the
// cluster (readonly.Wrap). It chains after flags' WrapConfigFn; ContextFlags keeps it.
func ReadOnly(flags *genericclioptions.ConfigFlags) { wrapConfig(flags, readonly.Wrap) }

// wrapConfig makes flags' clients use fn(c) for the config c they had (flags.WrapConfigFn, after any
// wrapper already set).
func wrapConfig(flags *genericclioptions.ConfigFlags, fn func(*rest.Config) *rest.Config) {
	prev := flags.WrapConfigFn
	flags.WrapConfigFn = func(c *rest.Config) *rest.Config {
		if prev != nil {
			c = prev(c)
		}
		return fn(c)
	}
}
