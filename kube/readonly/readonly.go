// Package readonly is kscope's read-only chokepoint: a transport wrapper, installed on every client kscope
// builds when the user asks for --readonly, that refuses each request that could change the cluster before
// it leaves the process. Key handlers refuse early too (for a better message); this is what holds when one
// of them forgets.
package readonly

import (
	"fmt"
	"net/http"
	"strings"

	"k8s.io/client-go/rest"
)

// RefusedError is the error a client returns for a request refused in read-only mode.
type RefusedError struct {
	Method, Path string
}

// Error says what was refused.
func (e *RefusedError) Error() string {
	return fmt.Sprintf("read-only mode: %s %s refused", e.Method, e.Path)
}

// Allowed tells whether r may leave the process in read-only mode: GET, HEAD and OPTIONS requests and the
// reviews of the user's own rights, but never an exec, attach or port-forward, nor any connection upgrade.
// It is a pure function of the request.
func Allowed(r *http.Request) bool {
	path := r.URL.Path
	switch subresource(path) {
	case "exec", "attach", "portforward":
		return false // a pod's subresources that run something or open a connection into the cluster
	}
	switch {
	case r.Header.Get("Upgrade") != "", strings.Contains(strings.ToLower(r.Header.Get("Connection")), "upgrade"):
		return false
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	case http.MethodPost: // a review of the user's own rights creates nothing
		switch path {
		case "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
			"/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
			"/apis/authentication.k8s.io/v1/selfsubjectreviews":
			return true
		}
	}
	return false
}

// subresource is the subresource a resource path names by its position, as the API server reads it
// (/api/v1/namespaces/NS/pods/NAME/exec, /apis/G/V/namespaces/NS/R/NAME/SUB, the cluster-scoped
// /api/v1/R/NAME/SUB and /apis/G/V/R/NAME/SUB, and a namespace's own /api/v1/namespaces/NAME/status), or ""
// for a path that names none: an object whose name is "exec" is an object, not a subresource.
func subresource(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		parts = parts[2:] // api, v1
	case len(parts) >= 3 && parts[0] == "apis":
		parts = parts[3:] // apis, group, version
	default:
		return "" // not a resource path (/version, /healthz, /openapi/…)
	}
	if len(parts) > 0 && parts[0] == "watch" {
		parts = parts[1:] // the deprecated watch prefix
	}
	// namespaces/NS/R/… is a namespaced resource, unless what follows NS is one of a namespace's own
	// subresources (the API server's rule)
	if len(parts) > 2 && parts[0] == "namespaces" && parts[2] != "status" && parts[2] != "finalize" {
		parts = parts[2:]
	}
	// R/NAME/SUB…
	if len(parts) < 3 {
		return ""
	}
	return parts[2]
}

// transport refuses what Allowed refuses and passes the rest to next.
type transport struct{ next http.RoundTripper }

func (t transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !Allowed(r) {
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, &RefusedError{Method: r.Method, Path: r.URL.Path}
	}
	return t.next.RoundTrip(r)
}

// Wrap returns a copy of cfg whose clients refuse every request Allowed refuses (client-go applies the
// wrapper to plain, streaming and upgrading transports alike: REST, dynamic, discovery, watch, SPDY and
// WebSocket executors). cfg is not modified.
func Wrap(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper { return transport{next: rt} })
	return c
}
