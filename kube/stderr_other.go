//go:build !unix

package kube

import (
	"errors"
	"os"
)

var errNoRedirect = errors.New("capturing standard error is not supported on this system")

// dupStderr is not available here: standard error stays where it is.
func dupStderr() (*os.File, error) { return nil, errNoRedirect }

// pointStderr is not available here.
func pointStderr(*os.File) error { return errNoRedirect }
