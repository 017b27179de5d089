package cli

import (
	"fmt"
	"sort"

	"k8s.io/cli-runtime/pkg/genericclioptions"

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
