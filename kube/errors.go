package kube

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"

	"k8s.io/client-go/tools/clientcmd"

	"kscope/apierr"
	"kscope/kube/readonly"
)

// DescribeConfigError turns a kubeconfig loading error into one sentence a user can act on.
func DescribeConfigError(err error) error {
	if clientcmd.IsEmptyConfig(err) {
		return errors.New("no kubeconfig: set --kubeconfig or KUBECONFIG, or create ~/.kube/config")
	}
	return fmt.Errorf("kubeconfig: %s", apierr.OneLine(err.Error()))
}

// DescribeServerError explains a failed request to the API server at host in one line: the server could not
// be reached (and why), refused the credentials, or forbade the request; a request refused in read-only mode
// says so (readonly.RefusedError, returned as it is); any other error is prefixed with
// host and keeps err in its chain (errors.Is, apierrors.IsNotFound still see it).
func DescribeServerError(host string, err error) error {
	var urlErr *url.Error
	var opErr *net.OpError
	var refused *readonly.RefusedError
	switch {
	case errors.As(err, &refused):
		return refused // never left the process: nothing about the server to say
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("cannot reach the API server at %s: connection refused", host)
	case errors.As(err, &opErr) && opErr.Timeout(), errors.As(err, &urlErr) && urlErr.Timeout():
		return fmt.Errorf("cannot reach the API server at %s: timed out", host)
	case errors.As(err, &opErr):
		return fmt.Errorf("cannot reach the API server at %s: %s", host, opErr.Err)
	}
	switch apierr.Classify(err) {
	case apierr.Unauthorized:
		return fmt.Errorf("the API server at %s refused the credentials: %s", host, apiMessage(err))
	case apierr.Forbidden:
		return fmt.Errorf("forbidden: %s", apiMessage(err))
	}
	return &serverError{msg: fmt.Sprintf("%s: %s", host, apierr.OneLine(err.Error())), err: err}
}

// serverError is a failed request explained in one line; it keeps the API error so that callers can still
// classify it (apierrors.IsNotFound).
type serverError struct {
	msg string
	err error
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.err }

// apiMessage is the server's message for err (apierr.Message) on one line.
func apiMessage(err error) string { return apierr.OneLine(apierr.Message(err)) }
