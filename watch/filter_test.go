package watch

import (
	"strings"
	"testing"
)

func TestFilter(t *testing.T) {
	r := &Row{Cells: []string{"web-7f9c", "1/1", "Running", "10.0.0.12"}, Labels: map[string]string{"app": "web", "tier": "front"}}
	tests := []struct {
		text    string
		want    bool
		wantErr bool
	}{
		{"", true, false},
		{"  ", true, false},
		{"web", true, false},
		{"WEB-7F", true, false},
		{"running", true, false},
		{"pending", false, false},
		{"10.0.0.12", true, false}, // regexp: dots match anything
		{"^1/1$", true, false},
		{"^web$", false, false},
		{"run+ing|pending", true, false},
		{"-l app=web", true, false},
		{"-l app=web,tier!=front", false, false},
		{"-l tier in (front,back)", true, false},
		{"-l app", true, false},
		{"-l !app", false, false},
		{"-l app in (", false, true},
		{"web(", false, true},
		{"[", false, true},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.text)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseFilter(%q) error %v, want error %v", tt.text, err, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if got := f.Match(r); got != tt.want {
			t.Errorf("ParseFilter(%q).Match = %v, want %v", tt.text, got, tt.want)
		}
		withText := *r
		withText.text = searchText(r.Cells)
		if got := f.Match(&withText); got != tt.want {
			t.Errorf("ParseFilter(%q).Match (search text) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestContainsFoldASCII(t *testing.T) {
	tests := []struct {
		s, sub string
		want   bool
	}{
		{"Running", "run", true},
		{"Running", "ning", true},
		{"Running", "ningx", false},
		{"abc", "", true},
		{"", "a", false},
		{"CrashLoopBackOff", "loopback", true},
		{"ab", "abc", false},
	}
	for _, tt := range tests {
		if got := containsFoldASCII(tt.s, tt.sub); got != tt.want {
			t.Errorf("containsFoldASCII(%q, %q) = %v", tt.s, tt.sub, got)
		}
	}
}

func TestRequiredLiteral(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"node-(3|4)$", "node-"},
		{"^web", "web"},
		{"foo.*barbaz", "barbaz"},
		{"(abc)", "abc"},
		{"run+ing|pending", ""},
		{"[ab]c", "c"},
		{".*", ""},
	}
	for _, tt := range tests {
		if got := requiredLiteral(tt.expr); !strings.EqualFold(got, tt.want) {
			t.Errorf("requiredLiteral(%q) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// TestFilterPrefilterAgreesWithRegexp: skipping cells without the required literal never changes the result.
func TestFilterPrefilterAgreesWithRegexp(t *testing.T) {
	cells := []string{"node-3", "NODE-4", "kwok-node-12", "web-7f9c", "Running", "\u212aube-node-3", "1/1", ""}
	for _, expr := range []string{"node-(3|4)$", "^web", "NODE-1", "e-[0-9]+$", "kube", "(?-i)Node", "^$"} {
		f, err := ParseFilter(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cells {
			if got, want := f.Match(&Row{Cells: []string{c}}), f.re.MatchString(c); got != want {
				t.Errorf("filter %q on %q: %v, regexp alone %v", expr, c, got, want)
			}
			cells := []string{c, "x"}
			if got, want := f.Match(&Row{Cells: cells, text: searchText(cells)}), f.re.MatchString(c) || f.re.MatchString("x"); got != want {
				t.Errorf("filter %q on %q with search text: %v, regexp alone %v", expr, c, got, want)
			}
		}
	}
}
