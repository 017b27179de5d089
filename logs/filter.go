package logs

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Filter decides which lines a logs view shows: those matching a regular expression, or, inverted, those
// not matching it (less's `&` and `&!`). A Filter is immutable once made: safe for concurrent use.
type Filter struct {
	text   string
	re     *regexp.Regexp
	invert bool
}

// ParseFilter compiles text as a filter: a leading "!" inverts it (the rest must then not match; `\!`
// matches a "!" at the start), the rest is a regular expression, case-insensitive unless it has an
// upper-case letter (smart case, as the search). "" (and a lone "!") is no filter: nil, nil. The error
// says, on one line, why the expression does not compile.
func ParseFilter(text string) (*Filter, error) {
	expr, invert := strings.CutPrefix(text, "!")
	if expr == "" {
		return nil, nil
	}
	re, err := CompileSmartCase(expr)
	if err != nil {
		return nil, err
	}
	return &Filter{text: text, re: re, invert: invert}, nil
}

// CompileSmartCase compiles a search or filter expression: case-insensitive unless it has an upper-case
// letter. The error is one line: "not a regular expression: "(a" (missing closing ): `(?i)(a`)".
func CompileSmartCase(text string) (*regexp.Regexp, error) {
	expr := text
	if !strings.ContainsFunc(text, unicode.IsUpper) {
		expr = "(?i)" + text
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("not a regular expression: %q (%s)", text, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// String is the filter as the user wrote it ("" for nil).
func (f *Filter) String() string {
	if f == nil {
		return ""
	}
	return f.text
}

// Inverted tells whether the filter keeps the lines that do not match.
func (f *Filter) Inverted() bool { return f != nil && f.invert }

// Keep tells whether a line shown as s passes the filter (every line passes a nil filter).
func (f *Filter) Keep(s string) bool {
	if f == nil {
		return true
	}
	return f.re.MatchString(s) != f.invert
}
