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
// directory, timeout and impersonation flags (impersonation only narrows what the user may do) and its config
// wrapper (so read-only stays read-only), but drop those that override the context's own settings (namespace,
// cluster, user, server). --insecure-skip-tls-verify is kept only when name is f's start context (f's --context,
// else the kubeconfig's current context as f first loaded it): another context keeps its own certificate
// checks, and so does every context when the start context cannot be told. f is not modified. Safe for
// concurrent use if f is not being modified.
func ContextFlags(f *genericclioptions.ConfigFlags, name string) *genericclioptions.ConfigFlags {
	n := NewConfigFlags()
	n.KubeConfig, n.CacheDir, n.Timeout = f.KubeConfig, f.CacheDir, f.Timeout
	n.Impersonate, n.ImpersonateUID, n.ImpersonateGroup = f.Impersonate, f.ImpersonateUID, f.ImpersonateGroup
	if f.Insecure != nil && *f.Insecure && name == startContext(f) {
		n.Insecure = f.Insecure
	}
	n.WrapConfigFn = f.WrapConfigFn
	n.Context = &name
	return n
}

// startContext returns the context f connects to: its --context, else the kubeconfig's current context as f's
// loader read it first (kubeconfig flags keep what they loaded), or "" when the kubeconfig cannot be read.
func startContext(f *genericclioptions.ConfigFlags) string {
	if f.Context != nil && *f.Context != "" {
		return *f.Context
	}
	raw, err := f.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return ""
	}
	return raw.CurrentContext
}

// NoTerminalInput keeps exec credential plugins (kubeconfig users[].exec: EKS, GKE, AKS, OIDC helpers) of the
// clients built from flags off the terminal, which the UI owns: client-go then never hands them its standard
// input, and a plugin that must ask the user fails with a message instead of reading the keys meant for the
// UI. It chains after flags' WrapConfigFn; ContextFlags keeps it. The config given to the wrapper is not
// modified, so clients may be built from one config on several goroutines at once.
func NoTerminalInput(flags *genericclioptions.ConfigFlags) {
	wrapConfig(flags, func(c *rest.Config) *rest.Config {
		if c.ExecProvider != nil {
			// rest.CopyConfig shares the ExecProvider pointer with c (and writes into it): c's copy of the
			// plugin's settings is changed instead, on a shallow copy of c, so c is only read.
			exec := *c.ExecProvider
			exec.StdinUnavailable = true
			exec.StdinUnavailableMessage = "kscope's terminal UI is running; log in with kubectl first"
			own := *c
			own.ExecProvider = &exec
			c = rest.CopyConfig(&own)
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
