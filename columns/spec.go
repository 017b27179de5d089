package columns

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// The parsing of kubectl's custom-columns SPEC and template file, with kubectl's rules and words
// (k8s.io/kubectl/pkg/cmd/get/customcolumn.go). kscope does not link that package: its initialisation loads
// kubectl's message catalog, 30 ms and 4 MB at every start for help texts kscope never shows. The tests
// check these functions against kubectl's own on the same inputs.

// column is one parsed column: its header and its JSONPath template ("{.metadata.name}").
type column struct {
	header, fieldSpec string
}

// relaxedPath matches a path kubectl relaxes: {.a.b}, {a.b}, .a.b or a.b.
var relaxedPath = regexp.MustCompile(`^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`)

// relaxedJSONPath turns a.b, .a.b, {a.b} or {.a.b} into the template {.a.b}, as kubectl's
// RelaxedJSONPathExpression does; "" stays "".
func relaxedJSONPath(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	m := relaxedPath.FindStringSubmatch(path)
	if m == nil {
		return "", errors.New("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")
	}
	field := m[1]
	if field == "" {
		field = m[2]
	}
	return "{." + field + "}", nil
}

// parseSpec reads HEADER:PATH,HEADER:PATH,… (-o custom-columns=SPEC).
func parseSpec(spec string) ([]column, error) {
	if spec == "" {
		return nil, errors.New("custom-columns format specified but no custom columns given")
	}
	parts := strings.Split(spec, ",")
	cols := make([]column, len(parts))
	for i, part := range parts {
		header, path, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", part)
		}
		field, err := relaxedJSONPath(path)
		if err != nil {
			return nil, err
		}
		cols[i] = column{header: header, fieldSpec: field}
	}
	return cols, nil
}

// parseTemplate reads a custom-columns file: a line of headers and a line of paths, separated by white space.
func parseTemplate(r io.Reader) ([]column, error) {
	const format = "Expected format is one line of space separated headers, one line of space separated column specs."
	scanner := bufio.NewScanner(r)
	if !scanner.Scan() {
		return nil, errors.New("invalid template, missing header line. " + format)
	}
	headers := strings.Fields(scanner.Text())
	if !scanner.Scan() {
		return nil, errors.New("invalid template, missing spec line. " + format)
	}
	specs := strings.Fields(scanner.Text())
	if len(headers) != len(specs) {
		return nil, fmt.Errorf("number of headers (%d) and field specifications (%d) don't match", len(headers), len(specs))
	}
	cols := make([]column, len(headers))
	for i := range headers {
		field, err := relaxedJSONPath(specs[i])
		if err != nil {
			return nil, err
		}
		cols[i] = column{header: headers[i], fieldSpec: field}
	}
	return cols, nil
}
