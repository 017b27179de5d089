package ui

// LastView is where the session was when Run returned, for the program to start there next time: the
// kubeconfig context ("" when none was attached), the resource of the table opened last from the top as a
// command names it ("deployments.apps", "deploy,sts"; "" when none was opened) and the namespace ("" = all).
// Call it only after Run has returned.
func (a *App) LastView() (context, resource, namespace string) {
	if a.cluster != nil {
		context = a.cluster.Info().Context
	}
	if h := a.history; h.at >= 0 && h.at < len(h.entries) {
		res := h.entries[h.at]
		resource = res.FullName()
		if isUnion(res) {
			resource = res.Name
		}
	}
	return context, resource, a.namespace
}
