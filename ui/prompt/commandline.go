package prompt

import (
	"slices"
	"strings"
)

// Command is one of a command line's own commands (`:q`, `:ns NAME`). Its functions run on the goroutine
// that calls CommandLine's methods (in kscope, the UI goroutine).
type Command struct {
	// Names are what the user may type for the command; Tab completes each.
	Names []string
	// Args tells that the command takes words after its name: when Tab completes a first word to one of
	// Names alone, it adds the space.
	Args bool
	// ArgCandidates, if not nil, gives what Tab offers for the word after the command's first name and a
	// space (`ns ` → the namespaces). It is called on each such Tab.
	ArgCandidates func() []string
	// Rest tells that the command takes the rest of the line as one argument (a path may hold spaces): Run
	// gets it without its surrounding spaces and without one pair of quotes around it ("…" or '…'), or no
	// argument for a line of the name alone.
	Rest bool
	// Run runs the command with the words typed after its name (the rest of the line with Rest).
	Run func(args []string)
}

// CommandLine is what a line typed after `:` may say: one of Commands, or one of the other first words
// Words gives (the resource names), which the caller handles. A CommandLine is a description: it keeps no
// state of its own, and its methods are as safe for concurrent use as the functions in it.
type CommandLine struct {
	Commands []Command
	// Words, if not nil, gives the other words a line may begin with, for Tab.
	Words func() []string
}

// Run splits line into words at white space and, if the first word is one of a command's Names, runs that
// command with the words after it. It returns the words and whether a command ran; a blank line has no words
// and runs nothing.
func (l CommandLine) Run(line string) (words []string, ran bool) {
	words = strings.Fields(line)
	if len(words) == 0 {
		return nil, false
	}
	for _, c := range l.Commands {
		if !slices.Contains(c.Names, words[0]) {
			continue
		}
		if c.Rest {
			c.Run(restArg(line, words[0]))
		} else {
			c.Run(words[1:])
		}
		return words, true
	}
	return words, false
}

// restArg is the rest of line after its first word name, as Command.Rest gives it.
func restArg(line, name string) []string {
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), name))
	for _, q := range []string{`"`, "'"} {
		if len(rest) >= 2 && strings.HasPrefix(rest, q) && strings.HasSuffix(rest, q) {
			rest = rest[1 : len(rest)-1]
			break
		}
	}
	if rest == "" {
		return nil
	}
	return []string{rest}
}

// Complete answers Tab on line: after a command's first name and a space (with ArgCandidates), the rest of
// the line (without its surrounding spaces) is completed from that command's candidates; a line without a
// space is completed from every command name and Words (with the space after a command that takes
// arguments, when it is the one match); any other line stays as it is. It returns the completed line and the
// candidates that matched (as CompleteWord does).
func (l CommandLine) Complete(line string) (string, []string) {
	for _, c := range l.Commands {
		if c.ArgCandidates == nil || len(c.Names) == 0 {
			continue
		}
		if rest, ok := strings.CutPrefix(line, c.Names[0]+" "); ok {
			word, matches := CompleteWord(strings.TrimSpace(rest), c.ArgCandidates())
			return c.Names[0] + " " + word, matches
		}
	}
	if strings.Contains(line, " ") {
		return line, nil
	}
	var candidates, takeArgs []string
	for _, c := range l.Commands {
		candidates = append(candidates, c.Names...)
		if c.Args {
			takeArgs = append(takeArgs, c.Names...)
		}
	}
	if l.Words != nil {
		candidates = append(candidates, l.Words()...)
	}
	word, matches := CompleteWord(line, candidates)
	if len(matches) == 1 && slices.Contains(takeArgs, word) {
		word += " "
	}
	return word, matches
}
