package cluster

// Interface is one connection to an API server: its catalog and the requests the UI makes, every role in
// one. Implementations (*kube.Cluster, the UI tests' fake) must be safe for concurrent use; methods that take
// a context block for at most a request's duration unless their role says otherwise (Streams.Exec, for
// one, blocks for the command's life).
type Interface interface {
	Info() Info
	Catalog() Catalog
	// Close releases the connection's background work (catalog refresh).
	Close()

	Objects
	Streams
	Metrics
	Access
	Sources
	Nodes
	Workloads
	Rollouts
	Debug
	ChangeFeed
	Applier
	Helm
}
