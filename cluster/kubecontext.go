package cluster

// KubeContext is one context of the kubeconfig, as the contexts screen lists it. A plain value.
type KubeContext struct {
	// Name is the context's name; Cluster, User and Namespace what it names ("" for none).
	Name, Cluster, User, Namespace string
	// ReadOnly says kscope's (or k9s's) files ask for read-only in this context: its context file, else
	// config.yaml, or either one could not be read.
	ReadOnly bool
}
