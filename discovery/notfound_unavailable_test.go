package discovery

import "testing"

// TestNotFoundNamesUnavailableGroup: a name in a group whose discovery failed says that the group is
// unavailable (the resource may be served there), and only then.
func TestNotFoundNamesUnavailableGroup(t *testing.T) {
	broken := []Unavailable{{GroupVersion: "broken.example.com/v1alpha1", Reason: "stale GroupVersion discovery", Stale: true}}
	tests := []struct {
		input string
		want  string
	}{
		{"things.broken.example.com", `unknown resource "things.broken.example.com": API broken.example.com/v1alpha1 is unavailable: stale GroupVersion discovery`},
		{"things.v1alpha1.broken.example.com", `unknown resource "things.v1alpha1.broken.example.com": API broken.example.com/v1alpha1 is unavailable: stale GroupVersion discovery`},
		{"broken.example.com", `unknown resource "broken.example.com": API broken.example.com/v1alpha1 is unavailable: stale GroupVersion discovery`},
		{"things.notbroken.example.com", `unknown resource "things.notbroken.example.com"`},
		{"things", `unknown resource "things"`},
	}
	for _, tt := range tests {
		err := &NotFoundError{Input: tt.input, Unavailable: unavailableFor(tt.input, broken)}
		if got := err.Error(); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.input, got, tt.want)
		}
	}
}
