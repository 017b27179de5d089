package watch

import (
	"context"
	"errors"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

func TestWatchErrorState(t *testing.T) {
	gr := schema.GroupResource{Resource: "pods"}
	tests := []struct {
		name     string
		err      error
		phase    Phase
		message  string
		canceled bool
	}{
		{"forbidden", fmt.Errorf("list v1/pods: %w", apierrors.NewForbidden(gr, "", errors.New("no rights"))),
			Forbidden, `pods is forbidden: no rights`, true},
		{"crd deleted", apierrors.NewNotFound(gr, ""), NotFound, `pods "" not found`, true},
		{"method not supported", apierrors.NewMethodNotSupported(gr, "list"), MethodNotSupported,
			`list is not supported on resources of kind "pods"`, true},
		{"unauthorized", fmt.Errorf("list v1/pods: %w", apierrors.NewUnauthorized("token has expired")), Unauthorized,
			"token has expired", true},
		{"gone", apierrors.NewResourceExpired("too old resource version: 1 (5)"), Reconnecting,
			"too old resource version: 1 (5)", false},
		{"connection refused", errors.New("dial tcp 127.0.0.1:6443: connect: connection refused"), Reconnecting,
			"dial tcp 127.0.0.1:6443: connect: connection refused", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSource(&rest.Config{Host: "https://127.0.0.1:1"}, Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.cancel = cancel
			s.synced = true
			s.watchError(tt.err)
			st := s.State()
			if st.Phase != tt.phase || st.Message != tt.message || !errors.Is(st.Err, tt.err) {
				t.Errorf("state %s %q (%v), want %s %q", st.Phase, st.Message, st.Err, tt.phase, tt.message)
			}
			if (ctx.Err() != nil) != tt.canceled {
				t.Errorf("informer canceled: %v, want %v", ctx.Err() != nil, tt.canceled)
			}
			select {
			case <-s.Notify():
			default:
				t.Error("no notification")
			}
			s.connected()
			if want := map[bool]Phase{true: tt.phase, false: Synced}[tt.phase.Terminal()]; s.State().Phase != want {
				t.Errorf("after reconnect: %s, want %s", s.State().Phase, want)
			}
		})
	}
}

func TestNewSourceRejectsIncompleteResource(t *testing.T) {
	if _, err := NewSource(&rest.Config{Host: "https://127.0.0.1:1"}, Spec{}); err == nil {
		t.Fatal("no error for an empty GVR")
	}
}

func TestStopBeforeStart(t *testing.T) {
	s, err := NewSource(&rest.Config{Host: "https://127.0.0.1:1"}, Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Done() != nil {
		t.Fatal("Done before Start is not nil")
	}
	s.Stop()
	s.Start(context.Background())
	<-s.Done()
	if st := s.State(); st.Phase != Stopped {
		t.Fatalf("state %s", st.Phase)
	}
	if s.cancel != nil {
		t.Fatal("Start after Stop started the informer")
	}
	s.Stop()
}
