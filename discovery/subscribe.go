package discovery

import (
	"sync"

	"kscope/spawn"
)

// subscription delivers change notifications to one subscriber on its own goroutine. Notifications that
// arrive while fn runs are coalesced into one more call.
type subscription struct {
	fn      func()
	pending chan struct{} // capacity 1
	done    chan struct{}
	stop    sync.Once
}

func newSubscription(fn func(), start spawn.Func) *subscription {
	s := &subscription{fn: fn, pending: make(chan struct{}, 1), done: make(chan struct{})}
	start.Go(s.deliver)
	return s
}

func (s *subscription) deliver() {
	for {
		select {
		case <-s.done:
			return
		case <-s.pending:
			select {
			case <-s.done:
				return
			default:
				s.fn()
			}
		}
	}
}

// notify schedules a call of fn without blocking.
func (s *subscription) notify() {
	select {
	case s.pending <- struct{}{}:
	default: // a call is already pending
	}
}

func (s *subscription) cancel() { s.stop.Do(func() { close(s.done) }) }

// Subscribe registers fn to be called after each Load, Refresh or live update that changed the catalog's
// resources or unavailable group-versions. fn runs on a goroutine of its own, never the caller's and never
// concurrently with itself; changes that happen while it runs are coalesced into one further call. fn should
// read what it needs (Resources, Unavailable) from the catalog.
//
// cancel stops further calls; a call already running is not waited for, so cancel may be called from fn.
// cancel is idempotent and safe for concurrent use.
func (c *Catalog) Subscribe(fn func()) (cancel func()) {
	s := newSubscription(fn, c.start)
	c.mu.Lock()
	id := c.nextSub
	c.nextSub++
	c.subs[id] = s
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.subs, id)
		c.mu.Unlock()
		s.cancel()
	}
}

// subscriptionsLocked returns the current subscriptions; c.mu must be held.
func (c *Catalog) subscriptionsLocked() []*subscription {
	out := make([]*subscription, 0, len(c.subs))
	for _, s := range c.subs {
		out = append(out, s)
	}
	return out
}
