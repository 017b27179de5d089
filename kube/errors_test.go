package kube

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"

	"kscope/kube/readonly"
)

// timeoutError is a net.Error that timed out, as a dial or read deadline reports it.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestDescribeServerError(t *testing.T) {
	host := "https://10.1.2.3:6443"
	refused := &url.Error{Op: "Get", URL: host + "/version", Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}
	noRoute := &url.Error{Op: "Get", URL: host + "/version", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("no route to host")}}
	timedOut := &url.Error{Op: "Get", URL: host + "/version", Err: &net.OpError{Op: "dial", Net: "tcp", Err: timeoutError{}}}
	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("user \"viewer\" cannot list"))
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"refused", refused, "cannot reach the API server at https://10.1.2.3:6443: connection refused"},
		{"no route", noRoute, "cannot reach the API server at https://10.1.2.3:6443: no route to host"},
		{"timed out", timedOut, "cannot reach the API server at https://10.1.2.3:6443: timed out"},
		{"unauthorized", apierrors.NewUnauthorized("Unauthorized"), "the API server at https://10.1.2.3:6443 refused the credentials: Unauthorized"},
		{"unauthorized, wrapped", fmt.Errorf("get: %w", apierrors.NewUnauthorized("token\n expired")), "the API server at https://10.1.2.3:6443 refused the credentials: token expired"},
		{"forbidden", forbidden, `forbidden: pods is forbidden: user "viewer" cannot list`},
		{"not found", apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, "web"), `https://10.1.2.3:6443: pods "web" not found`},
		{"other, multi-line", fmt.Errorf("first\n  second"), "https://10.1.2.3:6443: first second"},
		{"read-only", &url.Error{Op: "Delete", URL: host + "/api/v1/namespaces/shop", Err: &readonly.RefusedError{Method: "DELETE", Path: "/api/v1/namespaces/shop"}},
			"read-only mode: DELETE /api/v1/namespaces/shop refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DescribeServerError(host, tt.err).Error(); got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDescribeServerErrorKeepsTheAPIError(t *testing.T) {
	err := DescribeServerError("https://h", apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, "web"))
	if !apierrors.IsNotFound(err) {
		t.Errorf("%v: IsNotFound false through the description", err)
	}
}

func TestDescribeConfigError(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"empty", clientcmd.ErrEmptyConfig, "no kubeconfig: set --kubeconfig or KUBECONFIG, or create ~/.kube/config"},
		{"malformed, multi-line", errors.New("error loading config file \"x\":\n  yaml: line 2"),
			`kubeconfig: error loading config file "x": yaml: line 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DescribeConfigError(tt.err).Error(); got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}
