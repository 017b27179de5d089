//go:build unix

package apply

import "syscall"

// openFlag opens the path :apply names non-blocking: a FIFO nobody writes to opens at once, and its fstat
// then refuses it, instead of the open waiting for a writer.
const openFlag = syscall.O_NONBLOCK

// entryFlag opens a folder's file non-blocking and not through a symbolic link (the listing took regular
// files only: one replaced by a link since is refused).
const entryFlag = syscall.O_NONBLOCK | syscall.O_NOFOLLOW
