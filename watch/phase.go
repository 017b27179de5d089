package watch

import "kscope/apierr"

// Phase is the lifecycle state of a Source.
type Phase int

const (
	// Listing: the first list has not completed yet.
	Listing Phase = iota
	// Synced: the rows reflect the server; the watch is open.
	Synced
	// Reconnecting: the watch failed; the reflector backs off and relists. State.Err holds the last error.
	Reconnecting
	// Forbidden: the user may not list or watch this resource. Terminal: the informer has stopped.
	Forbidden
	// NotFound: the resource is not (or no longer) served, e.g. its CRD was deleted. Terminal.
	NotFound
	// MethodNotSupported: the resource cannot be listed or watched. Terminal.
	MethodNotSupported
	// Stopped: Stop was called.
	Stopped
	// Unauthorized: the server refused the credentials (401). Terminal: retrying with the same credentials
	// cannot succeed.
	Unauthorized
	// BadRequest: the server refused the list or watch itself (400), e.g. a field selector naming a field the
	// resource cannot be selected by. Terminal: the same request would be refused again.
	BadRequest
)

// Terminal tells whether the phase ends the informer (no further retries).
func (p Phase) Terminal() bool {
	return p == Forbidden || p == NotFound || p == MethodNotSupported || p == Unauthorized || p == BadRequest ||
		p == Stopped
}

// String returns the phase as the status line shows it.
func (p Phase) String() string {
	switch p {
	case Listing:
		return "listing"
	case Synced:
		return "synced"
	case Reconnecting:
		return "reconnecting"
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
	case Stopped:
		return "stopped"
	}
	return "unknown"
}

// eventKind is something that happens to a Source's informer.
type eventKind int

const (
	// evConnected: a list or watch request succeeded.
	evConnected eventKind = iota
	// evSynced: the informer delivered its first list.
	evSynced
	// evDisconnected: a watch request failed, its stream broke, or the server ended it with an ERROR event
	// (410 Gone). The reflector retries or relists after these without always reporting them as evWatchError.
	evDisconnected
	// evWatchError: the reflector reported a failed list or watch.
	evWatchError
	// evStopped: Stop was called (or the informer could not be started).
	evStopped
)

// event is one input of nextPhase: its kind and, for evDisconnected and evWatchError, the error's class.
type event struct {
	kind  eventKind
	class apierr.Class
}

// nextPhase is a Source's state machine: the phase after ev in phase cur, given whether the first list has
// completed (synced), and whether ev changes the state at all (ok false: keep the state, error included).
//
//   - A terminal phase never changes.
//   - evSynced: Listing or Reconnecting become Synced.
//   - evConnected: Reconnecting becomes Synced once the first list has completed.
//   - evDisconnected with a transient error: Synced becomes Reconnecting. A terminal error is left to the
//     evWatchError the reflector reports for it.
//   - evWatchError: the error's phase (Reconnecting, or a terminal one), from any non-terminal phase; a
//     Reconnecting source records the newer error.
//   - evStopped: Stopped.
func nextPhase(cur Phase, synced bool, ev event) (next Phase, ok bool) {
	if cur.Terminal() {
		return cur, false
	}
	switch ev.kind {
	case evSynced:
		if cur == Listing || cur == Reconnecting {
			return Synced, true
		}
	case evConnected:
		if synced && cur == Reconnecting {
			return Synced, true
		}
	case evDisconnected:
		if cur == Synced && !ev.class.Terminal() {
			return Reconnecting, true
		}
	case evWatchError:
		return phaseOf(ev.class), true
	case evStopped:
		return Stopped, true
	}
	return cur, false
}

// phaseOf is the phase a failed list or watch with an error of class c leads to.
func phaseOf(c apierr.Class) Phase {
	switch c {
	case apierr.Forbidden:
		return Forbidden
	case apierr.NotFound:
		return NotFound
	case apierr.MethodNotSupported:
		return MethodNotSupported
	case apierr.Unauthorized:
		return Unauthorized
	case apierr.BadRequest:
		return BadRequest
	}
	return Reconnecting
}
