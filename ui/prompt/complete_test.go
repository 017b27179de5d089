package prompt

import (
	"slices"
	"testing"
)

// TestCompleteWord: the one match, the longest common prefix of several, never ending inside a
// character; word itself when nothing matches.
func TestCompleteWord(t *testing.T) {
	for _, c := range []struct {
		word, want string
		candidates []string
		matches    int
	}{
		{"deploym", "deployment", []string{"deployments", "deployment", "deploy", "pods"}, 2},
		{"po", "pods", []string{"pods", "pods", "deploy"}, 1},
		{"x", "x", []string{"y"}, 0},
		{"pr", "pr", []string{"préprod", "prêt"}, 2}, // é and ê share their first byte
		{"", "日", []string{"日本", "日曜"}, 2},
		{"", "", []string{"é", "è"}, 2},
	} {
		got, matches := CompleteWord(c.word, c.candidates)
		if got != c.want || len(matches) != c.matches || !slices.IsSorted(matches) {
			t.Errorf("CompleteWord(%q, %q) = %q, %q; want %q and %d matches, sorted", c.word, c.candidates, got,
				matches, c.want, c.matches)
		}
	}
}
