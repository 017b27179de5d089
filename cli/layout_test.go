package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// screenLines is how long a function of cli may be: one screen, so that a start-up step reads at a glance.
const screenLines = 60

// TestFunctionsFitAScreen: tuiOptions.Run is a short sequence of named start-up steps, and neither a step nor
// any other function of cli grows past a screen; a file stays under the project's 400 lines.
func TestFunctionsFitAScreen(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if n := fset.File(f.Pos()).LineCount(); n > 400 {
			t.Errorf("%s has %d lines: split it by concept (400 at most)", path, n)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n > screenLines {
				t.Errorf("%s: %s is %d lines, more than a screen (%d): split it into named steps", path, fd.Name.Name, n, screenLines)
			}
		}
	}
}
