package prompt

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// CompleteWord completes word from candidates: the one match, or the longest common prefix of several
// that does not end inside a character (in UTF-8). It returns the completion and the matching candidates (those that begin with word; sorted,
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
	return wholeCharacters(prefix, word, matches), matches
}

// wholeCharacters shortens prefix, which every one of matches begins with, until none of them goes on with
// the rest of a character there (a UTF-8 continuation byte), but never below word.
func wholeCharacters(prefix, word string, matches []string) string {
	for len(prefix) > len(word) && slices.ContainsFunc(matches, func(m string) bool {
		return len(m) > len(prefix) && !utf8.RuneStart(m[len(prefix)])
	}) {
		prefix = prefix[:len(prefix)-1]
	}
	return prefix
}
