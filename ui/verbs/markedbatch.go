package verbs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"kscope/apierr"
)

// shownInQuestion is how many objects a question about several names; "and N more" stands for the rest.
const shownInQuestion = 10

// shownFailures is how many failures an outcome line names; "and N more" stands for the rest.
const shownFailures = 5

// writersAtOnce bounds the writes of one batch in flight together.
const writersAtOnce = 4

// failure is a target not acted on, and why.
type failure struct {
	name, why string
}

// batch is one verb on several objects: the targets it acts on, the ones it did not (and why), and the
// outcome. UI goroutine only, but the writes (send).
type batch struct {
	v       *Verbs
	mv      manyVerb
	noun    string
	total   int // the targets marked, those failed included
	targets []Target
	failed  []failure
}

// fail records that t is not acted on, and why.
func (b *batch) fail(t Target, why string) {
	b.failed = append(b.failed, failure{name: targetName(t, b.noun), why: why})
}

// targetName is how a target is named in questions and outcomes: its key ("shop/web"), after its resource
// when the targets are of several kinds.
func targetName(t Target, noun string) string {
	if noun == "objects" {
		return t.Res.Name + " " + t.Row.Key
	}
	return t.Row.Key
}

// confirm asks once, listing the targets (Cancel focused); the writes go out if the user agrees.
func (b *batch) confirm(p manyParam) {
	action, _, _ := strings.Cut(b.mv.action, " ") // ("Change the labels of": Change)
	b.v.Confirm(b.question(p), action, func() { b.send(p) })
}

// question is the confirmation's text: the verb and count, the first names and how many more, the note,
// and what will not be acted on.
func (b *batch) question(p manyParam) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s %d %s", b.mv.action, len(b.targets), b.noun)
	if b.mv.askCount {
		fmt.Fprintf(&s, " to %d replicas", p.n)
	}
	s.WriteString("?\n")
	for _, line := range describeMetaChanges(p.changes, nil) {
		s.WriteString(line + "\n")
	}
	for i, t := range b.targets {
		if i == shownInQuestion {
			fmt.Fprintf(&s, "and %d more\n", len(b.targets)-i)
			break
		}
		s.WriteString(targetName(t, b.noun) + "\n")
	}
	if b.mv.note != "" {
		s.WriteString(b.mv.note + "\n")
	}
	if len(b.failed) > 0 {
		s.WriteString("not acted on: " + failures(b.failed) + "\n")
	}
	return strings.TrimSuffix(s.String(), "\n")
}

// send writes to every target off the UI goroutine (a few at a time), each with its own precondition, then
// says the outcome on the prompt line: in red when any target failed. Like Verbs.send, it reports even
// after a context switch.
func (b *batch) send(p manyParam) {
	v := b.v
	v.Message(fmt.Sprintf("%s %d %s …", b.mv.doing, len(b.targets), b.noun))
	conn := v.Cluster() // the UI goroutine's (a context switch replaces it)
	targets := b.targets
	v.Go(func() {
		errs := make([]error, len(targets))
		var wg sync.WaitGroup
		sem := make(chan struct{}, writersAtOnce)
		for i, t := range targets {
			wg.Add(1)
			sem <- struct{}{}
			v.Go(func() { // (the session's supervisor: a panic in a write restores the terminal)
				defer func() { <-sem; wg.Done() }()
				ctx, cancel := context.WithTimeout(v.Context(), RequestTimeout)
				defer cancel()
				errs[i] = b.mv.write(ctx, conn, t, p, v)
			})
		}
		wg.Wait()
		v.Update(func() { b.report(errs) })
	})
}

// report says the outcome of the writes, errs by target.
func (b *batch) report(errs []error) {
	for i, err := range errs {
		if err != nil {
			b.fail(b.targets[i], whyFailed(err))
		}
	}
	if len(b.failed) > 0 {
		b.v.Errorf("%s", b.outcome())
		return
	}
	b.v.Message(b.outcome())
}

// outcome is the one line a batch ends with: "deleted 5 of 6 pods; failed: shop/x (reason)".
func (b *batch) outcome() string {
	text := fmt.Sprintf("%s %d of %d %s", b.mv.done, b.total-len(b.failed), b.total, b.noun)
	if len(b.failed) > 0 {
		text += "; failed: " + failures(b.failed)
	}
	return text
}

// failures names the failures, the first shownFailures of them, then how many more.
func failures(fs []failure) string {
	parts := make([]string, 0, min(len(fs), shownFailures)+1)
	for i, f := range fs {
		if i == shownFailures {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", f.name, f.why))
	}
	return strings.Join(parts, ", ")
}

// whyFailed is a write's error in a few words: the conflict (what changed), else the server's words.
func whyFailed(err error) string {
	var conflict *conflictError
	if errors.As(err, &conflict) {
		return conflict.why
	}
	return apierr.OneLine(err.Error())
}

// MarkedQuestion is the question the verb named name (delete, kill, restart; scale for n replicas) asks
// before acting on targets, all of them checked already; "" for a verb that acts on one object only. For
// tests and benchmarks: the keys ask it themselves (TableBindings).
func MarkedQuestion(name string, targets []Target, n int32) string {
	for _, vb := range []verb{deleteVerb, killVerb, restartVerb, scaleVerb} {
		if mv, ok := many(vb); ok && vb.key.Name == name {
			b := &batch{mv: mv, noun: noun(targets), total: len(targets), targets: targets}
			return b.question(manyParam{n: n})
		}
	}
	return ""
}
