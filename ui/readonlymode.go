package ui

// readOnlyCovers says what read-only mode covers, as `?` shows it (one row a line; --readonly's help and the
// README say the same).
var readOnlyCovers = []string{
	"every write is refused at the transport: kscope's own (delete, edit, scale, restart, shell, port-forward)",
	"and those of plugins and the editor: their KUBECONFIG reaches the cluster only through kscope's read-only proxy",
	"(a write one tries is named on the prompt line); reads, logs, YAML and describe stay",
	"not covered: a child that names another kubeconfig or credentials itself",
}
