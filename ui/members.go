package ui

import (
	"context"
	"errors"
	"sync"

	"kscope/cluster"
	"kscope/history"
	"kscope/spawn"
	"kscope/ui/verbs"
)

// A table of several clusters (`:pods @prod,@stg`) shows the rows of other kubeconfig contexts beside, or
// instead of, the session's own. Each such context is a member: a connection of its own (Options.Connect,
// with that context's read-only rules and, in read-only mode, its own proxy for the children), opened when a
// table first needs it and kept for the session. The keys on a row act through the App of the row's cluster
// (memberApp), so that every verb, screen and access question goes to that cluster.

// memberConn is one member's connection, or the connecting under way. Its fields are guarded by
// members.mu.
type memberConn struct {
	c    cluster.Interface
	done chan struct{} // closed when the connecting ends (c set, or err)
	err  error
}

// memberSet is the session's member connections by context. Safe for concurrent use.
type memberSet struct {
	// start starts the goroutines that connect (the session's supervisor's).
	start spawn.Func

	mu    sync.Mutex
	conns map[string]*memberConn
	// closed is set when the session ended: no connection is made any more, and one that arrives is closed.
	closed bool
}

// newMemberSet returns a set with no connection yet, whose connecting goroutines start is to start.
func newMemberSet(start spawn.Func) *memberSet {
	return &memberSet{start: start, conns: map[string]*memberConn{}}
}

// errSessionEnded is what connecting a member answers once the session has ended.
var errSessionEnded = errors.New("the session has ended")

// connect returns the connection of context name, connecting it (once, whoever asks first; the others wait)
// unless it is home's. A failed connection is forgotten: the next call tries again. Any goroutine; it
// blocks until the connection is made or failed, or ctx ends.
func (m *memberSet) connect(ctx context.Context, home cluster.Interface, name string, dial func(context.Context, string) (cluster.Interface, error)) (cluster.Interface, error) {
	if home != nil && home.Info().Context == name {
		return home, nil
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, errSessionEnded
	}
	mc, ok := m.conns[name]
	if !ok {
		mc = &memberConn{done: make(chan struct{})}
		m.conns[name] = mc
		m.mu.Unlock()
		m.start.Go(func() { m.dial(mc, name, dial) })
	} else {
		m.mu.Unlock()
	}
	select {
	case <-mc.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return mc.c, mc.err
}

// dial connects mc (on a goroutine of its own, so that a table closing while it connects does not leave the
// others waiting for nothing); a connection that fails is removed, one made after the session ended closed.
func (m *memberSet) dial(mc *memberConn, name string, dial func(context.Context, string) (cluster.Interface, error)) {
	c, err := dial(context.Background(), name)
	if err == nil && c == nil {
		err = errors.New("no connection")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	defer close(mc.done)
	switch {
	case err != nil:
		mc.err = err
		delete(m.conns, name)
	case m.closed:
		c.Close()
		mc.err = errSessionEnded
	default:
		mc.c = c
	}
}

// closeAll closes every member connection; none is made afterwards.
func (m *memberSet) closeAll() {
	m.mu.Lock()
	conns := m.conns
	m.conns = map[string]*memberConn{}
	m.closed = true
	m.mu.Unlock()
	for _, mc := range conns {
		select {
		case <-mc.done:
			if mc.c != nil {
				mc.c.Close()
			}
		default: // still connecting: dial closes it
		}
	}
}

// connectMember is the Connector of the app's tables of several clusters: home's connection for its own
// context, else the member's.
func (a *App) connectMember(home cluster.Interface) func(ctx context.Context, name string) (cluster.Interface, error) {
	return func(ctx context.Context, name string) (cluster.Interface, error) {
		dial := a.opts.ConnectMember
		if dial == nil {
			dial = a.opts.Connect
		}
		if dial == nil && (home == nil || home.Info().Context != name) {
			return nil, errors.New("connecting to another context is not available here")
		}
		return a.members.connect(ctx, home, name, dial)
	}
}

// memberApp returns the App that acts on c, a cluster of a table of several (context name), made when first
// asked and kept while c is open: an App of its own even for the session's connection, so that its
// questions name the context as the other clusters' do. UI goroutine.
func (a *App) memberApp(c cluster.Interface, name string) *App {
	if m, ok := a.memberApps[c]; ok {
		return m
	}
	m := &App{session: a.session, cluster: c, context: name, versions: history.NewBook()}
	if c == a.home.cluster {
		m.versions = a.home.versions // the same cluster's
	}
	m.verbs = verbs.New(verbHost{m})
	m.plugins = a.home.plugins.On(pluginHost{m})
	a.memberApps[c] = m
	return m
}
