package prompt

import (
	"sort"
	"strings"
)

// CompleteWord completes word from candidates: the one match, or the longest common prefix of several.
// It returns the completion and the matching candidates (those that begin with word; sorted,
// deduplicated; nil when none match, and then the completion is word itself). It is a pure function, safe
// for concurrent use.
func CompleteWord(word string, candidates []string) (string, []string) {
	seen := map[string]bool{}
	var matches []string
	for _, c := range candidates {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	if len(matches) == 0 {
		return word, nil
	}
	prefix := matches[0]
	for _, m := range matches[1:] {
		for !strings.HasPrefix(m, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return prefix, matches
}
