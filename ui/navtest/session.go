package navtest

import (
	"context"
	"errors"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/forwards"
	"kscope/history"
	"kscope/ui"
	"kscope/watch"
)

// Session is a ui.Session over a Nav, for the tests of a registered screen's command: its answers are its
// fields, set before the command runs, and the histories it was asked to open are recorded (Histories).
// Safe for any goroutine as Nav is; the fields are read, never written, by its methods.
type Session struct {
	*Nav
	// Ns is the view's namespace; Names the namespaces Tab offers.
	Ns    string
	Names []string
	// Contexts are the kubeconfig's contexts an @-word may name; View those of the table on top (nil: one
	// cluster).
	Contexts, View []string
	// Dial answers Connect (nil: every context fails to connect).
	Dial func(ctx context.Context, name string) (cluster.Interface, error)
	// NoHistory: no history screen is registered (OpenHistory opens none).
	NoHistory bool
	// List is the session's forwards.
	List forwards.List
	// Guard answers WriteGuard (its zero value: every write permitted, none denied).
	Guard ui.WriteGuard
	// Kinds answers ResourceForKind (nil: no kind is served).
	Kinds func(apiVersion, kind string) (discovery.Resource, error)
	// Editor answers Edit: what the user saves from content (nil: the editor fails).
	Editor func(content []byte) ([]byte, error)

	histories []HistoryOpened
	tables    []TableOpened
	yamls     []*watch.Row
	guarded   []string
}

// TableOpened is one OpenTable call.
type TableOpened struct {
	Res   discovery.Resource
	Src   cluster.RowSource
	Title string
}

// HistoryOpened is one OpenHistory call.
type HistoryOpened struct {
	Conn    cluster.Interface
	Context string
	Res     discovery.Resource
	Row     *watch.Row
	Extra   func() []history.FeedChange
}

var _ ui.Session = (*Session)(nil)

// NewSession returns a Session over a new Nav over c (New).
func NewSession(t interface{ Cleanup(func()) }, c cluster.Interface) *Session {
	return &Session{Nav: New(t, c)}
}

// Namespace implements ui.Session.
func (s *Session) Namespace() string { return s.Ns }

// Namespaces implements ui.Session.
func (s *Session) Namespaces() []string { return append([]string(nil), s.Names...) }

// Clusters implements ui.Session as the app does: @-words over Contexts, else View.
func (s *Session) Clusters(args []string) (contexts, rest []string, err error) {
	contexts, rest, found, err := ui.ContextWords(args, s.Contexts)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		contexts = s.View
	}
	return contexts, rest, nil
}

// Connect implements ui.Session with Dial.
func (s *Session) Connect(ctx context.Context, name string) (cluster.Interface, error) {
	if s.Dial == nil {
		return nil, errors.New("no connection to " + name)
	}
	return s.Dial(ctx, name)
}

// OpenHistory implements ui.Session: it records the call (Histories) unless NoHistory.
func (s *Session) OpenHistory(conn cluster.Interface, context string, res discovery.Resource, row *watch.Row,
	extra func() []history.FeedChange) bool {
	if s.NoHistory {
		return false
	}
	s.rec.Lock()
	defer s.rec.Unlock()
	s.histories = append(s.histories, HistoryOpened{Conn: conn, Context: context, Res: res, Row: row, Extra: extra})
	return true
}

// Histories are the OpenHistory calls, in order.
func (s *Session) Histories() []HistoryOpened {
	s.rec.Lock()
	defer s.rec.Unlock()
	return append([]HistoryOpened(nil), s.histories...)
}

// Forwards implements ui.Session.
func (s *Session) Forwards() *forwards.List { return &s.List }

// WriteGuard implements ui.Session with Guard; a nil func of it permits (Permitted runs do) or denies nothing.
// It records what it was asked for (Guarded).
func (s *Session) WriteGuard(res discovery.Resource, row *watch.Row, apiVerb string) ui.WriteGuard {
	s.rec.Lock()
	s.guarded = append(s.guarded, apiVerb+" "+res.Name+" "+row.Key)
	s.rec.Unlock()
	g := s.Guard
	if g.Permitted == nil {
		g.Permitted = func(_ string, do func()) { do() }
	}
	if g.Denied == nil {
		g.Denied = func() bool { return false }
	}
	return g
}

// Guarded are the guards WriteGuard was asked for, in order: "VERB RESOURCE KEY" ("delete secrets
// shop/sh.helm.release.v1.web.v3").
func (s *Session) Guarded() []string {
	s.rec.Lock()
	defer s.rec.Unlock()
	return append([]string(nil), s.guarded...)
}

// OpenYAML implements ui.Session: it records row (YAMLs).
func (s *Session) OpenYAML(_ discovery.Resource, row *watch.Row) {
	s.rec.Lock()
	defer s.rec.Unlock()
	s.yamls = append(s.yamls, row)
}

// YAMLs are the rows OpenYAML was asked to open, in order.
func (s *Session) YAMLs() []*watch.Row {
	s.rec.Lock()
	defer s.rec.Unlock()
	return append([]*watch.Row(nil), s.yamls...)
}

// ResourceForKind implements ui.Session with Kinds.
func (s *Session) ResourceForKind(apiVersion, kind string) (discovery.Resource, error) {
	if s.Kinds == nil {
		return discovery.Resource{}, errors.New("no resource of kind " + kind + " in " + apiVersion + " is served")
	}
	return s.Kinds(apiVersion, kind)
}

// Edit implements ui.Session: Editor's answer, no file.
func (s *Session) Edit(content []byte) ([]byte, string, error) {
	if s.Editor == nil {
		return nil, "", errors.New("navtest: no editor")
	}
	out, err := s.Editor(content)
	return out, "", err
}

// OpenTable implements ui.Session: recorded (Tables); the source is not started.
func (s *Session) OpenTable(res discovery.Resource, src cluster.RowSource, title string) {
	s.rec.Lock()
	defer s.rec.Unlock()
	s.tables = append(s.tables, TableOpened{Res: res, Src: src, Title: title})
}

// Tables are the tables opened so far, in order.
func (s *Session) Tables() []TableOpened {
	s.rec.Lock()
	defer s.rec.Unlock()
	return append([]TableOpened(nil), s.tables...)
}
