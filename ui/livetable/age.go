package livetable

import (
	"time"

	"kscope/watch"
)

// formatAge renders an object's age as the AGE column shows it (watch.FormatAge; never negative).
func formatAge(d time.Duration) string {
	return watch.FormatAge(max(d, 0))
}
