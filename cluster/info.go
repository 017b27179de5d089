package cluster

// Info is what the header shows about the connection. A plain value; Contexts may be shared with the
// connection and must not be modified.
type Info struct {
	Context       string
	Cluster       string
	User          string
	Server        string
	ServerVersion string
	// Namespace is the namespace to start in ("" with AllNamespaces).
	Namespace     string
	AllNamespaces bool
	// Contexts lists the kubeconfig's context names (for :ctx completion).
	Contexts []string
}
