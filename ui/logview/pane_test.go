package logview

import (
	"fmt"
	"testing"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                   "plain",
		"\x1b[31mred\x1b[0m text": "red text",
		"a\tb":                    "a       b",
		"12345678\tx":             "12345678        x",
		"bell\x07":                "bell\uFFFD",
		"\x1b]0;title\x07after":   "after",
		"ünïcode\tx":              "ünïcode x",
		"[red]not a tag[-]":       "[red]not a tag[-]",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSegments(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		wrap  bool
		want  [][2]int
	}{
		{text: "abcdef", width: 4, wrap: true, want: [][2]int{{0, 4}, {4, 6}}},
		{text: "abcdef", width: 4, wrap: false, want: [][2]int{{0, 4}}},
		{text: "abcd", width: 4, wrap: true, want: [][2]int{{0, 4}}},
		{text: "", width: 4, wrap: true, want: [][2]int{{0, 0}}},
		{text: "日本語", width: 4, wrap: true, want: [][2]int{{0, 6}, {6, 9}}}, // two cells each
	} {
		got := segments(tc.text, tc.width, tc.wrap)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("segments(%q, %d, %v) = %v, want %v", tc.text, tc.width, tc.wrap, got, tc.want)
		}
	}
}
