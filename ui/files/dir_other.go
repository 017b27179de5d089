//go:build !unix

package files

import "io/fs"

// privateDirProblem says what makes folder fi one others could plant or write into; where Unix owners and
// modes do not apply (Windows' access lists), nothing is checked beyond openPrivateDir's own checks (a
// symbolic link, not a folder).
func privateDirProblem(fs.FileInfo) string { return "" }
