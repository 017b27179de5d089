package verbs

import (
	"slices"
	"strings"
	"testing"
)

func TestParseMetaChanges(t *testing.T) {
	for _, tc := range []struct {
		field, text string
		want        string // sorted "k=v" / "k-", or the error's start
		err         bool
	}{
		{"labels", "tier=front app-", "app- tier=front", false},
		{"labels", "  a=1\tb=2 ", "a=1 b=2", false},
		{"labels", "example.com/team=shop", "example.com/team=shop", false},
		{"labels", "empty=", "empty=", false},
		{"annotations", `note="two words" x-`, "note=two words x-", false},
		{"labels", `note="two words"`, `"two words" is not a valid label value`, true},
		{"labels", "tier", `"tier": KEY=VALUE sets`, true},
		{"labels", "", "no change given", true},
		{"labels", "a=1 a=2", "a is changed twice", true},
		{"labels", "bad key=1", `"bad": KEY=VALUE sets`, true},
		{"labels", "-x=1", `"-x" is not a valid key`, true},
		{"annotations", `n="open`, "a quote is not closed", true},
	} {
		changes, err := parseMetaChanges(tc.field, tc.text)
		if tc.err {
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%s %q: error %v, want %q…", tc.field, tc.text, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", tc.field, tc.text, err)
			continue
		}
		var got []string
		for k, v := range changes {
			if v == nil {
				got = append(got, k+"-")
			} else {
				got = append(got, k+"="+*v)
			}
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.field, tc.text, strings.Join(got, " "), tc.want)
		}
	}
}

func TestDescribeMetaChanges(t *testing.T) {
	current := map[string]string{"app": "web", "tier": "front", "old": "x"}
	changes, err := parseMetaChanges("labels", "app=api tier=front old- new=1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"~ app: web → api", "+ new=1", "- old (was x)"} // tier: set to its value already
	if got := describeMetaChanges(changes, current); !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	missing, _ := parseMetaChanges("labels", "nope-")
	if err := checkRemovals("labels", missing, current); err == nil || err.Error() != "there is no label nope to remove" {
		t.Errorf("removing a missing label: %v", err)
	}
	if got := shownPairs(map[string]string{"b": "2", "a": "1"}, 60); got != "[a=1, b=2]" {
		t.Errorf("shownPairs %q", got)
	}
	if got := shownPairs(map[string]string{"k": strings.Repeat("v", 80)}, 10); got != "[k=vvvvvvvv…]" {
		t.Errorf("shownPairs cut %q", got)
	}
}
