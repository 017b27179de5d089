package apierr

import (
	"errors"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Class is what retrying can do about a failed API request.
type Class int

const (
	// Transient: a retry may succeed. Connection errors, timeouts, 410 Gone, 429, 5xx, and any error that
	// carries none of the statuses below.
	Transient Class = iota
	// Forbidden: the user may not make the request (403). Terminal.
	Forbidden
	// NotFound: the resource is not (or no longer) served, e.g. its CRD was deleted (404). Terminal.
	NotFound
	// MethodNotSupported: the resource does not support the verb (405). Terminal.
	MethodNotSupported
	// Unauthorized: the server refused the credentials (401). Terminal.
	Unauthorized
	// BadRequest: the server refused the request itself (400), e.g. a field selector naming a field the
	// resource cannot be selected by. Terminal: the same request is refused again.
	BadRequest
)

// Terminal tells whether retrying the same request cannot succeed (every class but Transient).
func (c Class) Terminal() bool { return c != Transient }

// String returns the class in lower case, as kscope shows it ("forbidden", "not found", …).
func (c Class) String() string {
	switch c {
	case Transient:
		return "transient"
	case Forbidden:
		return "forbidden"
	case NotFound:
		return "not found"
	case MethodNotSupported:
		return "method not supported"
	case Unauthorized:
		return "unauthorized"
	case BadRequest:
		return "bad request"
	}
	return "unknown"
}

// Classify returns the class of err. It finds the API status through any wrapping (fmt.Errorf with %w), as
// apierrors.IsForbidden and its siblings do. A nil error is Transient. It is a pure function, safe for
// concurrent use.
func Classify(err error) Class {
	switch {
	case err == nil:
		return Transient
	case apierrors.IsForbidden(err):
		return Forbidden
	case apierrors.IsNotFound(err):
		return NotFound
	case apierrors.IsMethodNotSupported(err):
		return MethodNotSupported
	case apierrors.IsUnauthorized(err):
		return Unauthorized
	case apierrors.IsBadRequest(err):
		return BadRequest
	}
	return Transient
}

// Message returns the server's own words for err (metav1.Status.Message, found through any wrapping) when it
// sent some, else err.Error(). err must not be nil.
func Message(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Message != "" {
		return status.Status().Message
	}
	return err.Error()
}

// OneLine folds a multi-line message onto one line, each run of white space becoming one space: how kscope
// shows an error on its status or prompt line and on stderr.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
