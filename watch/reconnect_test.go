package watch

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	jsoniter "github.com/json-iterator/go"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// TestWatchStreamEndTellsDisconnected: the reflector backs off silently after a watch that the server ends
// with an ERROR event (410 Gone) or that breaks mid-stream; the decoder reports both, and only those.
func TestWatchStreamEndTellsDisconnected(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		want   string // the error passed to disconnected, "" for none
	}{
		{"server ends the watch", "", ""},
		{"410 gone", `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410,"message":"too old resource version: 1802 (1809)"}}`,
			"too old resource version: 1802 (1809)"},
		{"cut mid-event", `{"type":"ADDED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[{"cells":["a`,
			"watch stream: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []error
			d := &tableWatchDecoder{body: io.NopCloser(strings.NewReader(tt.stream)),
				iter: jsoniter.Parse(jsonAPI, strings.NewReader(tt.stream), 64), conv: newConverter(false, nil),
				ctx: context.Background(), disconnected: func(err error) { got = append(got, err) }}
			for i := 0; i < 3; i++ {
				if _, _, err := d.Decode(); err != nil {
					break
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("disconnected(%v) after a clean end", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0].Error(), tt.want)):
				t.Errorf("disconnected with %v, want one error containing %q", got, tt.want)
			}
		})
	}
}

// TestDisconnectedMakesSyncedSourceReconnecting: a synced source whose watch broke says Reconnecting with
// the reason until the next successful request; errors that end the informer are left to watchError.
func TestDisconnectedMakesSyncedSourceReconnecting(t *testing.T) {
	s, err := NewSource(&rest.Config{Host: "https://127.0.0.1:1"}, Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}})
	if err != nil {
		t.Fatal(err)
	}
	s.setSynced()
	s.disconnected(apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no")))
	if st := s.State(); st.Phase != Synced {
		t.Fatalf("after a Forbidden watch error: %s, want synced (watchError decides)", st.Phase)
	}
	s.disconnected(apierrors.NewUnauthorized("token has expired"))
	if st := s.State(); st.Phase != Synced {
		t.Fatalf("after an Unauthorized watch error: %s, want synced (watchError decides)", st.Phase)
	}
	s.disconnected(apierrors.NewResourceExpired("too old resource version: 1 (5)"))
	if st := s.State(); st.Phase != Reconnecting || st.Message != "too old resource version: 1 (5)" {
		t.Fatalf("after 410: %s %q, want reconnecting with the server's message", st.Phase, st.Message)
	}
	s.connected()
	if st := s.State(); st.Phase != Synced {
		t.Fatalf("after the next successful request: %s, want synced", st.Phase)
	}
}

// TestWatchEventKeysAreExact: the server writes "type" and "object"; other spellings are not taken for them.
func TestWatchEventKeysAreExact(t *testing.T) {
	stream := `{"tYpe":"ADDED","oBjeCt":{"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[{"cells":["a"],"object":{"metadata":{"name":"a"}}}]}}`
	d := &tableWatchDecoder{body: io.NopCloser(strings.NewReader(stream)),
		iter: jsoniter.Parse(jsonAPI, strings.NewReader(stream), 64), conv: newConverter(false, nil)}
	typ, obj, err := d.Decode()
	if err == nil || !strings.Contains(err.Error(), `unknown watch event type ""`) {
		t.Fatalf("Decode = %q %v %v, want an unknown event type error", typ, obj, err)
	}
}
