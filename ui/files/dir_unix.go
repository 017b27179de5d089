//go:build unix

package files

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// privateDirProblem says what makes folder fi one others could plant or write into: owned by another user,
// or writable by its group or by everyone; "" when it is the user's own.
func privateDirProblem(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "has no owner the system reports"
	}
	if uid := os.Getuid(); int64(st.Uid) != int64(uid) {
		return fmt.Sprintf("belongs to user id %d, not to you (%d)", st.Uid, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("may be written by others (mode %04o)", perm)
	}
	return ""
}
