package ui

import (
	"fmt"
	"sync"
)

// readOnlyCovers says what read-only mode covers, as `?` shows it (one row a line; --readonly's help and the
// README say the same).
var readOnlyCovers = []string{
	"every write is refused at the transport: kscope's own (delete, edit, scale, restart, shell, port-forward)",
	"and those of plugins and the editor: their KUBECONFIG reaches the cluster only through kscope's read-only proxy",
	"(a write one tries is named on the prompt line); reads, logs, YAML and describe stay",
	"not covered: a child that names another kubeconfig or credentials itself",
}

// childRefusals is what the read-only proxy refused the children: how many writes so far and the last.
// Safe for concurrent use.
type childRefusals struct {
	mu    sync.Mutex
	count int
	last  string
}

// ChildRefused shows line, a write of a child (plugin, editor) that read-only mode refused, on the prompt
// line, and keeps it so that the end of the child's run can name it again (a failed plugin's exit would
// otherwise replace it). Safe to call from any goroutine; it never blocks. Call it before the child is
// answered, so that the refusal is known when the child ends.
func (a *App) ChildRefused(line string) {
	a.refusals.mu.Lock()
	a.refusals.count++
	a.refusals.last = line
	a.refusals.mu.Unlock()
	a.Notice(line)
}

// refusedSince returns the last refusal when any came after the count mark was taken (refusalMark), else "".
func (a *App) refusedSince(mark int) string {
	a.refusals.mu.Lock()
	defer a.refusals.mu.Unlock()
	if a.refusals.count == mark {
		return ""
	}
	if n := a.refusals.count - mark; n > 1 {
		return fmt.Sprintf("%s (and %d more)", a.refusals.last, n-1)
	}
	return a.refusals.last
}

// refusalMark is the count of refusals so far, to pass to refusedSince when a child ends.
func (a *App) refusalMark() int {
	a.refusals.mu.Lock()
	defer a.refusals.mu.Unlock()
	return a.refusals.count
}
