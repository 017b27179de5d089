package navtest

import (
	"context"
	"time"
)

// SpaceRedraw implements ui.Navigator as the app does with no minimum time between redraws: it never waits,
// sets *last to the clock's now and returns false only when ctx has ended.
func (n *Nav) SpaceRedraw(ctx context.Context, last *time.Time) bool {
	if ctx.Err() != nil {
		return false
	}
	*last = n.clock.Now()
	return true
}
