package cli

import (
	"fmt"
	"os"
	"sort"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"kscope/cluster"
	"kscope/config"
)

// kubeContexts returns what lists the kubeconfig's contexts for the contexts screen (`:ctx`): each with its
// cluster, user and namespace, and whether the files ask for read-only there as `:ctx NAME` would find it
// (its context file, else config.yaml unless --readonly was given; a file that cannot be read says yes). It
// reads the files at each call, off the UI goroutine.
func kubeContexts(dirs config.Dirs, flags *genericclioptions.ConfigFlags, flagGiven bool) func() ([]cluster.KubeContext, error) {
	return func() ([]cluster.KubeContext, error) {
		raw, err := rawKubeconfig(flags)
		if err != nil {
			return nil, fmt.Errorf("read the kubeconfig: %w", err)
		}
		global, _, _ := config.LoadSettings(dirs) // (its problems were said at start)
		if flagGiven {
			global = config.Settings{}
		}
		out := make([]cluster.KubeContext, 0, len(raw.Contexts))
		for name, c := range raw.Contexts {
			ctx, _, _ := config.LoadContextSettings(dirs, c.Cluster, name)
			out = append(out, cluster.KubeContext{Name: name, Cluster: c.Cluster, User: c.AuthInfo, Namespace: c.Namespace,
				ReadOnly: readOnlyOf(global, ctx)})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out, nil
	}
}

// kubeconfigPath is the kubeconfig the flags name, else $KUBECONFIG (what plugins get as $KUBECONFIG).
func kubeconfigPath(flags *genericclioptions.ConfigFlags) string {
	if flags.KubeConfig != nil && *flags.KubeConfig != "" {
		return *flags.KubeConfig
	}
	return os.Getenv("KUBECONFIG")
}

// currentContext is the kubeconfig context kscope starts in (--context, else the current one) and its
// cluster; empty when the kubeconfig cannot be read (connecting then says why).
func currentContext(flags *genericclioptions.ConfigFlags) (cluster, context string) {
	raw, err := rawKubeconfig(flags)
	if err != nil {
		return "", ""
	}
	context = raw.CurrentContext
	if flags.Context != nil && *flags.Context != "" {
		context = *flags.Context
	}
	if c, ok := raw.Contexts[context]; ok {
		cluster = c.Cluster
	}
	return cluster, context
}

// rawKubeconfig reads the kubeconfig the flags name (else $KUBECONFIG's files, else ~/.kube/config) as
// kubectl merges it. It does not use flags' own loader, which keeps the flags' values from its first use:
// the namespace chosen here must reach it afterwards.
func rawKubeconfig(flags *genericclioptions.ConfigFlags) (*clientcmdapi.Config, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if flags.KubeConfig != nil && *flags.KubeConfig != "" {
		rules.ExplicitPath = *flags.KubeConfig
	}
	return rules.Load()
}

// kubeconfigNamespace is the namespace the kubeconfig context names ("" for none).
func kubeconfigNamespace(flags *genericclioptions.ConfigFlags) string {
	raw, err := rawKubeconfig(flags)
	if err != nil {
		return ""
	}
	_, context := currentContext(flags)
	if c, ok := raw.Contexts[context]; ok {
		return c.Namespace
	}
	return ""
}
