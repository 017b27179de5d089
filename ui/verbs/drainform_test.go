package verbs

import (
	"strings"
	"testing"
	"time"
)

func TestParseDrainFlags(t *testing.T) {
	for _, tc := range []struct {
		grace, timeout string
		g              int
		d              time.Duration
		err            string
	}{
		{"-1", "2m", -1, 2 * time.Minute, ""},
		{" 30 ", "90", 30, 90 * time.Second, ""},
		{"0", "0", 0, 0, ""},
		{"-2", "1m", 0, 0, "grace period"},
		{"x", "1m", 0, 0, "grace period"},
		{"5", "soon", 0, 0, "timeout"},
		{"5", "-1s", 0, 0, "timeout"},
	} {
		g, d, err := parseDrainFlags(tc.grace, tc.timeout)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q %q: err %v, want %q", tc.grace, tc.timeout, err, tc.err)
			}
			continue
		}
		if err != nil || g != tc.g || d != tc.d {
			t.Errorf("%q %q: %d %v %v", tc.grace, tc.timeout, g, d, err)
		}
	}
}
