package apply

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"kscope/cluster"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
)

// readHost is the app as a read needs it: a stack the test sees, the prompt line's messages, and
// goroutines that start only when the test releases them (so that a key comes while the read is in
// progress). Other verbs.Host methods are not implemented (a call panics: the read must not use them).
type readHost struct {
	verbs.Host
	ctx      context.Context
	release  chan struct{}
	updates  chan func()
	stack    []Screen
	messages []string
	pending  int
}

func newReadHost(t *testing.T) *readHost {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &readHost{ctx: ctx, release: make(chan struct{}), updates: make(chan func(), 1)}
}

func (h *readHost) Context() context.Context     { return h.ctx }
func (h *readHost) Go(fn func())                 { go func() { <-h.release; fn() }() }
func (h *readHost) Update(fn func())             { h.updates <- fn }
func (h *readHost) Pending(delta int)            { h.pending += delta }
func (h *readHost) Cluster() cluster.Interface   { return nil }
func (h *readHost) Message(text string)          { h.messages = append(h.messages, text) }
func (h *readHost) Errorf(f string, args ...any) { h.Message("error: " + fmt.Sprintf(f, args...)) }
func (h *readHost) HelpBinding() keymap.Binding  { return keymap.Keys.Views.Help.Bind(func() {}) }
func (h *readHost) QuitBinding() keymap.Binding  { return keymap.Keys.Views.Quit.Bind(func() {}) }
func (h *readHost) Open(s Screen)                { h.stack = append(h.stack, s) }

// CloseScreen closes s if it is on top, as the app does.
func (h *readHost) CloseScreen(s Screen) {
	if n := len(h.stack); n > 0 && h.stack[n-1] == s {
		h.escape()
	}
}

// escape is esc as the app takes it: the top screen's Escape, else back (its Close).
func (h *readHost) escape() {
	top := h.stack[len(h.stack)-1]
	if !top.Escape() {
		top.Close()
		h.stack = h.stack[:len(h.stack)-1]
	}
}

// answer runs the read's answer on the test's goroutine (its UI goroutine), waiting up to 10 s for it.
func (h *readHost) answer(t *testing.T) {
	t.Helper()
	select {
	case fn := <-h.updates:
		fn()
	case <-time.After(10 * time.Second):
		t.Fatal("the read did not answer in 10 s")
	}
}

// TestReadThen: the read of `:apply PATH` runs off the UI goroutine behind the apply screen ("reading …",
// esc cancels); its answer closes the screen and goes on with what it read, or says why nothing is
// applied: a refusal, esc while it reads, quitting; a screen opened above it meanwhile stays on top.
func TestReadThen(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte(cmA), 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, nil, 0o600); err != nil || os.Truncate(big, MaxBytes+1) != nil {
		t.Fatal("no big file", err)
	}
	tests := []struct {
		name     string
		path     string
		while    func(h *readHost, quit func()) // what happens while the read is in progress
		read     bool                           // then is called
		messages []string                       // after "reading PATH …"
		stays    bool                           // the reading screen stays on the stack, its read ended
	}{
		{"read", good, func(*readHost, func()) {}, true, nil, false},
		{"refused", big, func(*readHost, func()) {}, false, []string{"error: apply X: refused: more than 16 MiB (the limit of :apply)"}, false},
		{"esc", good, func(h *readHost, _ func()) { h.escape() }, false, []string{"apply X: read cancelled, nothing applied"}, false},
		{"quit", good, func(_ *readHost, quit func()) { quit() }, false, []string{"apply X: read cancelled, nothing applied"}, false},
		{"a screen above", good, func(h *readHost, _ func()) { h.Open(&View{}) }, true, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newReadHost(t)
			ctx, quit := context.WithCancel(h.ctx) // the app's context: done when it quits
			defer quit()
			h.ctx = ctx
			var got []Source
			readThen(h, "X", tt.path, func(srcs []Source) { got = srcs })
			if len(h.stack) != 1 || h.stack[0].Status() != "reading X …  (esc: cancel)" {
				t.Fatalf("the reading screen is not on top: %d screens", len(h.stack))
			}
			if h.pending != 1 {
				t.Errorf("pending %d while reading, want 1", h.pending)
			}
			tt.while(h, quit)
			close(h.release)
			h.answer(t)
			want := append([]string{"reading X …"}, tt.messages...)
			if !slices.Equal(h.messages, want) {
				t.Errorf("messages %q, want %q", h.messages, want)
			}
			if tt.read != (len(got) == 1) {
				t.Errorf("then called with %d sources, want a call %v", len(got), tt.read)
			}
			if h.pending != 0 {
				t.Errorf("pending %d after the answer", h.pending)
			}
			stays := len(h.stack) > 0 && h.stack[0].Status() == "read ended  (esc: back)"
			if stays != tt.stays {
				t.Errorf("%d screens left (reading screen kept: %v), want it kept %v", len(h.stack), stays, tt.stays)
			}
		})
	}
}
