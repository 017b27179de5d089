package prompt

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// The fuzz targets below run their seeds (f.Add and testdata/fuzz/<name>) under plain `go test`; `make fuzz`
// explores further with `go test -fuzz`. Each input is a sequence of keys (keys_test.go) pressed on a fresh,
// open Bar (a key pressed while it is closed opens it again); every key is checked as it is pressed
// (driver.press), and the screen once at the end (driver.draw).

// keySeeds are inputs for both bar targets: typing, Tab, Backspace, Enter, Esc, cursor and ctrl keys.
func keySeeds() []string {
	return []string{
		"", "x", "pods\n", "deploym\t\n", "ns s\t\n", "ns \t\t\n", "ctx pr\t\n", "ctx v\t\x7f\x7f\t\n",
		"q\t\n", "again ns\t\n\t\n", "-l app=web\n", "web\x1bx\x1b", "[red]x[-]\n", "a\x7f\x7f\x7fb\n",
		"ab\x80c\x85d\n", "one two\x17\n", "abc\x01\x0bx\n", "abc\x15\n", "abc\x0c\x7f\n",
		"pod\x1a\x19\n", "ab\x84x\t\n", "é\u0301\x7f\n", "日本\t\x7f\n", "a b\x8e\n", "\x00\x03\x1c\n",
		"  \t \n", strings.Repeat("w", 80) + "\n", "ns  data \t\n", "\n\n\n", "\t\t\t", "again\n\x1b",
	}
}

// fuzzKeys runs a bar target: the key seeds, then, for each input, its keys pressed on the driver start
// returns and the draw at the end, where message gives what the closed bar's line must show.
func fuzzKeys(f *testing.F, start func(t *testing.T) (d *driver, message func() string)) {
	for _, s := range keySeeds() {
		f.Add(s)
	}
	screen := tcell.NewSimulationScreen("UTF-8")
	if err := screen.Init(); err != nil {
		f.Fatalf("simulation screen: %v", err)
	}
	screen.SetSize(24, 1) // the bar's line: a draw costs per cell
	f.Fuzz(func(t *testing.T, keys string) {
		d, message := start(t)
		d.pressAll(keys)
		d.draw(screen, message())
	})
}

// FuzzFilterPrompt: the bar as a filter or search opens it (after `/`, no completion). Whatever keys are
// pressed, nothing panics; each Enter closes the bar once and delivers exactly the text typed, each Esc
// closes it once and delivers nothing, no other key closes it; a character typed at the end is appended;
// the focus follows the bar; and the screen shows the label while the bar is open, and the message the
// opener shows of a delivered text exactly as given (on one line), once it is closed.
func FuzzFilterPrompt(f *testing.F) {
	fuzzKeys(f, func(t *testing.T) (*driver, func() string) {
		var d *driver
		var message string
		d = newDriver(t, "/", func(text string) {
			message = strings.Join(strings.Fields(text), " ")
			d.bar.Message(text, len(d.delivered)%2 == 0) // as the opener reports a filter it refused, or applied
		}, nil)
		return d, func() string { return message }
	})
}

// FuzzCommandPrompt: the bar as the command bar opens it (after `:`, Tab completing a CommandLine like
// kscope's; Enter runs it). On top of FuzzFilterPrompt's checks: Tab puts the completer's answer in the
// field and shows its candidates when there are several, and that answer keeps to CommandLine.Complete's
// rule (checkCompletion); Enter runs the command the line's first word names, once, with the words after
// it, and nothing else (checkRun); a command that opens the bar again from inside done finds it open. No
// message is shown.
func FuzzCommandPrompt(f *testing.F) {
	fuzzKeys(f, func(t *testing.T) (*driver, func() string) {
		var d *driver
		var runs []string
		line := testCommandLine(&runs, func(initial string) { d.reopen(initial) })
		d = newDriver(t, ":", func(text string) { checkRun(t, line, text, &runs) }, func(text string) (string, []string) {
			out, candidates := line.Complete(text)
			checkCompletion(t, line, text, out, candidates)
			return out, candidates
		})
		return d, func() string { return "" }
	})
}

// FuzzCompleteWord: for any word and candidates (one a line), CompleteWord returns the candidates that
// begin with word, sorted and each once, and a completion that begins with word and that each of them
// begins with (the one match itself; word when none match). For valid UTF-8 the completion is the longest
// such prefix made of whole characters.
func FuzzCompleteWord(f *testing.F) {
	for _, s := range [][2]string{
		{"deploym", "deployments\ndeployment\ndeploy\npods"}, {"", "b\na\na"}, {"x", "y"}, {"pr", "préprod\nprêt"},
		{"", "日本\n日曜"}, {"a", "a\nab\nabc"}, {"", ""}, {"\xff", "\xff\xfe\n\xff\xfd"}, {"k", "kube\u212a"},
		{"\xc3", "\xc3\xa9\n\xc3\xa9\xa9"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, word, lines string) {
		candidates := strings.Split(lines, "\n")
		got, matches := CompleteWord(word, candidates)
		if want := matching(word, candidates); !slices.Equal(matches, want) {
			t.Fatalf("CompleteWord(%q, %q) matched %q, want %q", word, candidates, matches, want)
		}
		if !strings.HasPrefix(got, word) || (len(matches) == 1 && got != matches[0]) {
			t.Fatalf("CompleteWord(%q, %q) = %q", word, candidates, got)
		}
		for _, m := range matches {
			if !strings.HasPrefix(m, got) {
				t.Fatalf("CompleteWord(%q, %q) = %q, not a prefix of the match %q", word, candidates, got, m)
			}
		}
		if want := commonPrefix(word, matches); utf8.ValidString(word+lines) && got != want {
			t.Fatalf("CompleteWord(%q, %q) = %q, want %q", word, candidates, got, want)
		}
	})
}

// matching returns the candidates that begin with word, sorted, each once (nil for none).
func matching(word string, candidates []string) []string {
	var m []string
	for _, c := range candidates {
		if strings.HasPrefix(c, word) {
			m = append(m, c)
		}
	}
	slices.Sort(m)
	return slices.Compact(m)
}

// commonPrefix returns the longest prefix of whole characters that all of matches share (of valid UTF-8:
// each byte of an invalid one counts as a character of its own); word when there are no matches.
func commonPrefix(word string, matches []string) string {
	if len(matches) == 0 {
		return word
	}
	p := matches[0]
	for _, m := range matches[1:] {
		n := 0
		for n < len(p) && n < len(m) {
			r, size := utf8.DecodeRuneInString(p[n:])
			if r2, size2 := utf8.DecodeRuneInString(m[n:]); r != r2 || size != size2 || p[n:n+size] != m[n:n+size] {
				break
			}
			n += size
		}
		p = p[:n]
	}
	return p
}
