package ui

// maxNotices bounds the notices waiting to be shown.
const maxNotices = 100

// Notice shows line on the prompt line: what a credential plugin or the server's warnings wrote to kscope's
// standard error while the UI owns the screen. Safe to call from any goroutine, before and during Run; it
// never blocks. Lines wait in order (the newest 100) until the UI goroutine shows them; each replaces the
// previous one, as any message does.
func (a *App) Notice(line string) {
	a.noticeMu.Lock()
	if len(a.notices) == maxNotices {
		a.notices = a.notices[1:]
	}
	a.notices = append(a.notices, line)
	a.noticeMu.Unlock()
	select {
	case a.noticed <- struct{}{}:
	default:
	}
}

// showNotices forwards notices to the UI goroutine until the app ends. It runs on its own goroutine.
func (a *App) showNotices() {
	for {
		select {
		case <-a.ctx.Done():
			return
		case <-a.noticed:
		}
		a.tv.QueueUpdateDraw(a.flushNotices)
	}
}

// flushNotices shows the latest pending notice on the prompt line, if any. UI goroutine only. A line that
// must come after the notices so far (a plugin's end, which names the writes refused during its run) calls it
// first: a notice still on its way would otherwise replace that line.
func (a *App) flushNotices() {
	a.noticeMu.Lock()
	lines := a.notices
	a.notices = nil
	a.noticeMu.Unlock()
	if len(lines) > 0 {
		a.Message(lines[len(lines)-1])
	}
}
