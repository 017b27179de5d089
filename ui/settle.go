package ui

// Settle implements livetable.Host and Navigator's screens' needs: it calls Options.Settled, if set: the work of opening something big (a table's first list, a pods
// table's requests and limits) is done. Calls never overlap: one that comes while another runs makes that
// one call Settled once more when it is done, and returns at once. It must not run on the UI goroutine.
func (a *App) Settle() {
	if a.opts.Settled == nil {
		return
	}
	a.settleMu.Lock()
	if a.settleRunning {
		a.settleAgain = true
		a.settleMu.Unlock()
		return
	}
	a.settleRunning = true
	a.settleMu.Unlock()
	for {
		a.opts.Settled()
		a.settleMu.Lock()
		again := a.settleAgain
		a.settleRunning, a.settleAgain = again, false
		a.settleMu.Unlock()
		if !again {
			return
		}
	}
}
