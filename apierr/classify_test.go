package apierr

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestClassify(t *testing.T) {
	gr := schema.GroupResource{Resource: "pods"}
	tests := []struct {
		name string
		err  error
		want Class
	}{
		{"nil", nil, Transient},
		{"forbidden", apierrors.NewForbidden(gr, "", errors.New("no rights")), Forbidden},
		{"forbidden, wrapped", fmt.Errorf("list v1/pods: %w", apierrors.NewForbidden(gr, "", errors.New("no"))), Forbidden},
		{"not found", apierrors.NewNotFound(gr, "web"), NotFound},
		{"method not supported", apierrors.NewMethodNotSupported(gr, "watch"), MethodNotSupported},
		{"unauthorized", apierrors.NewUnauthorized("Unauthorized"), Unauthorized},
		{"unauthorized, wrapped", fmt.Errorf("watch: %w", apierrors.NewUnauthorized("token expired")), Unauthorized},
		{"bad request", apierrors.NewBadRequest("field label not supported: spec.owner"), BadRequest},
		{"bad request, wrapped", fmt.Errorf("list: %w", apierrors.NewBadRequest("unable to parse requirement")), BadRequest},
		{"gone", apierrors.NewResourceExpired("too old resource version: 1 (5)"), Transient},
		{"too many requests", apierrors.NewTooManyRequests("slow down", 1), Transient},
		{"internal error", apierrors.NewInternalError(errors.New("etcd")), Transient},
		{"service unavailable", apierrors.NewServiceUnavailable("starting"), Transient},
		{"timeout", apierrors.NewTimeoutError("slow", 1), Transient},
		{"connection refused", fmt.Errorf("dial tcp: %w", syscall.ECONNREFUSED), Transient},
		{"plain", errors.New("watch stream: unexpected EOF"), Transient},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.err)
			if got != tt.want {
				t.Errorf("Classify(%v) = %s, want %s", tt.err, got, tt.want)
			}
			if got.Terminal() != (tt.want != Transient) {
				t.Errorf("%s.Terminal() = %v", got, got.Terminal())
			}
		})
	}
}

func TestClassString(t *testing.T) {
	tests := []struct {
		c    Class
		want string
	}{
		{Transient, "transient"}, {Forbidden, "forbidden"}, {NotFound, "not found"},
		{MethodNotSupported, "method not supported"}, {Unauthorized, "unauthorized"}, {BadRequest, "bad request"},
		{Class(99), "unknown"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("Class(%d).String() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestMessage(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"status message", apierrors.NewUnauthorized("token expired"), "token expired"},
		{"wrapped status", fmt.Errorf("list: %w", apierrors.NewResourceExpired("too old")), "too old"},
		{"plain error", errors.New("dial tcp: connection refused"), "dial tcp: connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Message(tt.err); got != tt.want {
				t.Errorf("Message = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""}, {"one", "one"}, {"a\nb", "a b"}, {"  lead and trail \n", "lead and trail"}, {"a\t\t b\r\nc", "a b c"},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
