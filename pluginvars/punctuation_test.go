package pluginvars

import (
	"errors"
	"strings"
	"testing"
)

// TestPercentRefusedOnWindows: on Windows, where a plugin's shell is cmd (which expands %NAME% before it
// parses the line), a value from the cluster holding % is refused, so that two such values cannot paste an
// exported variable into the command line; elsewhere % stays inert (a CPU column's "12%").
func TestPercentRefusedOnWindows(t *testing.T) {
	for _, tc := range []struct {
		goos    string
		refused bool
	}{
		{"linux", false},
		{"darwin", false},
		{"freebsd", false},
		{"windows", true},
	} {
		t.Run(tc.goos, func(t *testing.T) {
			old := inertPunctuation
			inertPunctuation = punctuation(tc.goos)
			defer func() { inertPunctuation = old }()
			env := map[string]string{"COL-A": "x%COL-B", "COL-B": "%y"}
			got, err := SubstituteArgs([]string{"/c", "echo", "$COL-A", "$COL-B"}, env)
			var unsafe UnsafeValueError
			if refused := errors.As(err, &unsafe); refused != tc.refused {
				t.Fatalf("%s: %v, %v; want refused %v", tc.goos, got, err, tc.refused)
			}
			if tc.refused && !strings.Contains(err.Error(), "holds '%'") {
				t.Errorf("%s: the refusal %q does not name %%", tc.goos, err)
			}
			if !tc.refused && strings.Join(got, " ") != "/c echo x%COL-B %y" {
				t.Errorf("%s: substituted %q", tc.goos, got)
			}
		})
	}
}
