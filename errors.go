package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/clientcmd"
)

// describeConfigError turns a kubeconfig loading error into one sentence a user can act on.
func describeConfigError(err error) error {
	if clientcmd.IsEmptyConfig(err) {
		return errors.New("no kubeconfig: set --kubeconfig or KUBECONFIG, or create ~/.kube/config")
	}
	return fmt.Errorf("kubeconfig: %s", oneLine(err.Error()))
}

// describeServerError explains a failed request to the API server at host.
func describeServerError(host string, err error) error {
	var urlErr *url.Error
	var opErr *net.OpError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("cannot reach the API server at %s: connection refused", host)
	case errors.As(err, &opErr) && opErr.Timeout(), errors.As(err, &urlErr) && urlErr.Timeout():
		return fmt.Errorf("cannot reach the API server at %s: timed out", host)
	case errors.As(err, &opErr):
		return fmt.Errorf("cannot reach the API server at %s: %s", host, opErr.Err)
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("the API server at %s refused the credentials: %s", host, apiMessage(err))
	case apierrors.IsForbidden(err):
		return fmt.Errorf("forbidden: %s", apiMessage(err))
	}
	return &serverError{msg: fmt.Sprintf("%s: %s", host, oneLine(err.Error())), err: err}
}

// serverError is a failed request explained in one line; it keeps the API error so that callers can still
// classify it (apierrors.IsNotFound).
type serverError struct {
	msg string
	err error
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.err }

func apiMessage(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Message != "" {
		return oneLine(status.Status().Message)
	}
	return oneLine(err.Error())
}

// oneLine folds a multi-line message onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
