package watch

import (
	"time"

	"k8s.io/apimachinery/pkg/util/duration"
)

// FormatAge formats a duration as kubectl's AGE column does (duration.HumanDuration): "45s", "5m10s", "3h",
// "2d4h", "1y30d". It is a pure function.
func FormatAge(d time.Duration) string { return duration.HumanDuration(d) }
