//go:build !unix && !windows

package plugins

import "os/exec"

// ownProcessGroup leaves cmd as it is: cancelling its context kills cmd itself.
func ownProcessGroup(*exec.Cmd) {}
