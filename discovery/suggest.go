package discovery

import (
	"sort"
	"strings"
)

// maxSuggestions is how many names a NotFoundError offers at most.
const maxSuggestions = 3

// suggest returns up to three resource names close to input (resources in discovery order). The resource
// part of input (before the first dot) is compared with each resource's plural, singular, short names and
// kind: first come resources within a small edit distance, closest first, then those sharing a prefix of at
// least three letters, longest first. Ties go to the group closest to input's group part ("widgets.shp"),
// then to discovery order. Each resource is named the shortest way that resolves to it: its plural, or
// plural.group where another group uses the same plural.
func suggest(input string, resources []Resource) []string {
	name, grp, _ := strings.Cut(input, ".")
	if name == "" {
		return nil
	}
	plurals := map[string]int{}
	for _, r := range resources {
		plurals[r.Name]++
	}
	type scored struct {
		name     string
		near     bool // within edit distance
		dist     int
		prefix   int
		groupGap int
		order    int // discovery order: the mapper's preference
	}
	var hits []scored
	seen := map[string]bool{}
	for i, r := range resources {
		shown := r.Name
		if plurals[r.Name] > 1 {
			shown = r.FullName()
		}
		if seen[shown] {
			continue
		}
		hit := scored{name: shown, order: i}
		if grp != "" {
			hit.groupGap = editDistance(grp, r.Group)
		}
		hit.dist, hit.prefix = closeness(name, aliases(r))
		switch {
		case hit.dist <= maxDistance(name):
			hit.near, hit.prefix = true, 0
		case hit.prefix >= 3:
			hit.dist = 0
		default:
			continue
		}
		hits = append(hits, hit)
		seen[shown] = true
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		switch {
		case a.near != b.near:
			return a.near
		case a.dist != b.dist:
			return a.dist < b.dist
		case a.prefix != b.prefix:
			return a.prefix > b.prefix
		case a.groupGap != b.groupGap:
			return a.groupGap < b.groupGap
		}
		return a.order < b.order
	})
	out := make([]string, 0, maxSuggestions)
	for _, h := range hits {
		if len(out) == maxSuggestions {
			break
		}
		out = append(out, h.name)
	}
	return out
}

// aliases lists the lower-case names a resource answers to.
func aliases(r Resource) []string {
	names := append([]string{r.Name, r.SingularName, strings.ToLower(r.Kind)}, r.ShortNames...)
	out := names[:0]
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// maxDistance is the largest edit distance that still counts as a likely typo of input.
func maxDistance(input string) int {
	return max(1, len(input)/4)
}

// closeness returns the smallest edit distance and the longest common prefix between input and names.
func closeness(input string, names []string) (dist, prefix int) {
	dist = len(input) + 1000
	for _, n := range names {
		dist = min(dist, editDistance(input, n))
		prefix = max(prefix, commonPrefix(input, n))
	}
	return dist, prefix
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// editDistance is the Levenshtein distance between a and b (bytes; API names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
