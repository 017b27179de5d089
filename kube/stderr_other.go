//go:build !unix

package kube

import (
	"errors"
	"os"
)

// redirectStderr is not available here: standard error stays where it is.
func redirectStderr(*os.File) (*os.File, func() error, error) {
	return nil, nil, errors.New("capturing standard error is not supported on this system")
}
