package prompt

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The vocabulary of the command-line tests, like kscope's: no word in it holds a space.
func testNamespaces() []string {
	return []string{"shop", "data", "default", "kube-system", "kube-public"}
}
func testContexts() []string {
	return []string{"admin", "viewer", "préprod", "prêt", "日本", "日曜"}
}
func testResources() []string {
	return []string{"pods", "pod", "po", "deployments", "deployment", "deploy", "deployments.apps",
		"namespaces", "namespace", "ns", "events", "ev", "widgets.shop.example.com", "widgets", "widget"}
}

// testCommandLine is a command line like kscope's: each Run appends "name args…" to runs; `again ARGS`
// also calls reopen with the arguments (it opens the bar again from inside done).
func testCommandLine(runs *[]string, reopen func(initial string)) CommandLine {
	run := func(name string) func([]string) {
		return func(args []string) { *runs = append(*runs, strings.Join(append([]string{name}, args...), " ")) }
	}
	return CommandLine{
		Commands: []Command{
			{Names: []string{"q", "quit", "q!"}, Run: run("q")},
			{Names: []string{"help"}, Run: run("help")},
			{Names: []string{"ns", "namespace"}, Args: true, ArgCandidates: testNamespaces, Run: run("ns")},
			{Names: []string{"ctx", "context"}, Args: true, ArgCandidates: testContexts, Run: run("ctx")},
			{Names: []string{"again"}, Args: true, Run: func(args []string) {
				run("again")(args)
				reopen(strings.Join(args, " "))
			}},
		},
		Words: testResources,
	}
}

// checkRun runs text on line and checks that it split text into its words and ran the command the first
// word names (and nothing else), once, with the words after it.
func checkRun(t *testing.T, line CommandLine, text string, runs *[]string) {
	t.Helper()
	*runs = (*runs)[:0]
	words, ran := line.Run(text)
	var want []string
	if cmd, ok := commandNamed(line, words); ok {
		want = []string{strings.Join(append([]string{cmd.Names[0]}, words[1:]...), " ")}
	}
	if !slices.Equal(words, strings.Fields(text)) || ran != (len(want) == 1) || !slices.Equal(*runs, want) {
		t.Fatalf("Run(%q) = %q, %v and ran %q; want %q, %v and %q", text, words, ran, *runs,
			strings.Fields(text), len(want) == 1, want)
	}
}

// commandNamed returns the command the first of words names.
func commandNamed(line CommandLine, words []string) (Command, bool) {
	for _, c := range line.Commands {
		if len(words) > 0 && slices.Contains(c.Names, words[0]) {
			return c, true
		}
	}
	return Command{}, false
}

// checkCompletion checks Tab's answer (out, candidates) on text against CommandLine.Complete's rule: text
// is a head kept as typed (an argument command's first name and a space, or nothing) and the word being
// completed (after a head, without its surrounding spaces); the candidates are the head's vocabulary words
// that begin with that word, sorted, each once; out is the head, then their longest common prefix of whole
// characters (the word if none match), then a space if a first word's one candidate is a command that takes
// arguments. Any other text with a space stays as it is.
func checkCompletion(t *testing.T, line CommandLine, text, out string, candidates []string) {
	t.Helper()
	head, vocabulary, takeArgs := completionHead(line, text)
	wantOut, want := text, []string(nil)
	if vocabulary != nil {
		word := text
		if head != "" {
			word = strings.TrimSpace(text[len(head):])
		}
		want = matching(word, vocabulary)
		wantOut = head + commonPrefix(word, want)
		if head == "" && len(want) == 1 && slices.Contains(takeArgs, want[0]) {
			wantOut += " "
		}
	}
	if out != wantOut || !slices.Equal(candidates, want) {
		t.Fatalf("Tab on %q = %q, candidates %q; want %q, %q", text, out, candidates, wantOut, want)
	}
	if utf8.ValidString(text) && !utf8.ValidString(out) {
		t.Fatalf("Tab on %q = %q, not valid UTF-8", text, out)
	}
}

// completionHead returns the head of text that Tab keeps and the vocabulary it completes the rest from
// (nil: text is not completed), and the first words after which Tab adds a space.
func completionHead(line CommandLine, text string) (head string, vocabulary, takeArgs []string) {
	var first []string
	for _, c := range line.Commands {
		if c.ArgCandidates != nil && strings.HasPrefix(text, c.Names[0]+" ") {
			return c.Names[0] + " ", c.ArgCandidates(), nil
		}
		first = append(first, c.Names...)
		if c.Args {
			takeArgs = append(takeArgs, c.Names...)
		}
	}
	if strings.Contains(text, " ") {
		return "", nil, nil
	}
	return "", append(first, line.Words()...), takeArgs
}

// TestCommandLineComplete: Tab as kscope's command bar answers it.
func TestCommandLineComplete(t *testing.T) {
	var runs []string
	line := testCommandLine(&runs, func(string) {})
	for _, c := range []struct{ text, want string }{
		{"deploym", "deployment"}, {"deploymentsx", "deploymentsx"}, {"ns", "ns "}, {"namespace", "namespace"},
		{"q", "q"}, {"ns s", "ns shop"}, {"ns  kube-s ", "ns kube-system"}, {"ns zz ", "ns zz"}, {"ctx v", "ctx viewer"},
		{"namespace s", "namespace s"}, {"pods x", "pods x"}, {" ns s", " ns s"}, {"ctx ", "ctx "}, {"", ""},
		{"wid", "widget"}, {"again", "again "},
	} {
		got, candidates := line.Complete(c.text)
		if got != c.want {
			t.Errorf("Complete(%q) = %q (candidates %q), want %q", c.text, got, candidates, c.want)
		}
		checkCompletion(t, line, c.text, got, candidates)
	}
}

// TestCommandRest: a command with Rest gets the rest of its line as one argument (spaces inside kept, one
// pair of surrounding quotes removed), none for its name alone; the words are still the line's words.
func TestCommandRest(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"apply f.yaml", []string{"f.yaml"}},
		{"  apply   my manifests/web app.yaml  ", []string{"my manifests/web app.yaml"}},
		{`apply "my manifests/a.yaml"`, []string{"my manifests/a.yaml"}},
		{"apply 'a b'", []string{"a b"}},
		{`apply "a b'`, []string{`"a b'`}},
		{`apply "`, []string{`"`}},
		{`apply ""`, nil},
		{"apply", nil},
		{"apply   ", nil},
		{"apply -", []string{"-"}},
	}
	for _, tt := range tests {
		var got []string
		ran := false
		line := CommandLine{Commands: []Command{{Names: []string{"apply"}, Args: true, Rest: true,
			Run: func(args []string) { got, ran = args, true }}}}
		words, ok := line.Run(tt.line)
		if !ok || !ran || !slices.Equal(got, tt.want) || !slices.Equal(words, strings.Fields(tt.line)) {
			t.Errorf("Run(%q): ran %v %v with %q, words %q; want %q", tt.line, ok, ran, got, words, tt.want)
		}
	}
}
