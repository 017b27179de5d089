package ui

// switchContext connects to another kubeconfig context (off the UI goroutine) and, once connected, replaces
// every view with the new cluster's resource picker. On failure the current connection stays.
func (a *App) switchContext(name string) {
	if a.opts.Connect == nil {
		a.Errorf("switching context is not available here: restart kscope with --context %s", name)
		return
	}
	a.Message("connecting to context " + name + " …")
	a.Go(func() {
		c, err := a.opts.Connect(a.ctx, name)
		a.tv.QueueUpdateDraw(func() {
			if err != nil {
				a.Errorf("context %s: %s", name, err)
				return
			}
			a.detach()
			a.opts.Resource = ""
			a.attach(c)
			a.Message("switched to context " + name)
		})
	})
}
