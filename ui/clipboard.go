package ui

import (
	"fmt"
	"strings"
	"unicode"

	"kscope/ui/files"
)

// ClipboardFunc puts text on the user's clipboard. It runs on the UI goroutine and must not block for long.
type ClipboardFunc func(text []byte) error

// maxClipboard bounds what one copy puts on the clipboard: the terminal receives it as one escape
// sequence (OSC 52, base64), which a terminal or tmux may cut or stall on when it is large.
const maxClipboard = 1 << 20

// userFiles is what kscope writes for the user outside the cluster, a service of its own: the clipboard
// (CopyToClipboard, copyName: Options.Clipboard) and the saved files (SaveFile: under Options.SaveDir),
// each saying on the prompt line (say) what it did or why not. One per session, shared by its Apps; UI
// goroutine only, but for SaveFile, which any goroutine may call.
type userFiles struct {
	clipboard ClipboardFunc
	saveDir   string
	say       *prompts
}

var _ interface {
	CopyToClipboard(what, text string)
	SaveFile(kind, name string, data []byte) (string, error)
} = (*App)(nil)

// CopyToClipboard implements Navigator: it copies text and says what was copied (what: "name web-1", "the
// YAML of web-1"); text over maxClipboard (1 MiB) is refused with one line.
func (f *userFiles) CopyToClipboard(what, text string) {
	if text == "" {
		f.say.Errorf("nothing to copy")
		return
	}
	if len(text) > maxClipboard {
		f.say.Errorf("copy %s: not copied: %d bytes is over the clipboard's limit of 1 MiB (save it with ctrl-s instead)", what, len(text))
		return
	}
	if err := f.clipboard([]byte(text)); err != nil {
		f.say.Errorf("copy %s: %s", what, err)
		return
	}
	lines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	if lines > 1 {
		f.say.Message(fmt.Sprintf("copied %s (%d lines) to the clipboard", what, lines))
		return
	}
	f.say.Message(fmt.Sprintf("copied %s to the clipboard", what))
}

// copyName copies an object's name; one holding a line break (or another control character) is refused
// with one line, since pasted into a shell what follows the break would run.
func (f *userFiles) copyName(name string) {
	if i := strings.IndexFunc(name, unicode.IsControl); i >= 0 {
		f.say.Errorf("copy name: not copied: the name %q holds a control character (%q), which pasted into a shell would run what follows it", name, name[i:i+1])
		return
	}
	f.CopyToClipboard("name "+name, name)
}

// SaveFile implements Navigator: files.Save under Options.SaveDir.
func (f *userFiles) SaveFile(kind, name string, data []byte) (string, error) {
	return files.Save(f.saveDir, kind, name, data)
}
