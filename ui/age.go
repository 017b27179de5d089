package ui

import (
	"time"

	"k8s.io/apimachinery/pkg/util/duration"
)

// formatAge renders an object's age as the AGE column shows it (kubectl's short form: 45s, 3m10s, 5d).
func formatAge(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return duration.HumanDuration(d)
}
