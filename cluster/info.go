package cluster

// Info is what the header shows about the connection. A plain value; Contexts and AsGroups may be shared
// with the connection and must not be modified.
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
	// As and AsGroups are the user and groups the connection impersonates (--as, --as-group, or the
	// kubeconfig user's own); "" and nil when it acts as User.
	As       string
	AsGroups []string
}
