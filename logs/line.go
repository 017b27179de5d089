package logs

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Line is one line of a log as a logs view keeps it.
type Line struct {
	// At is the kubelet's timestamp of the line (zero when it had none); Stamp is that timestamp as the
	// server wrote it, shown with the timestamps toggle.
	At    time.Time
	Stamp string
	// Prefix is "[pod/NAME/CONTAINER] " for the lines of a workload's pods (kubectl logs --prefix), else "".
	Prefix string
	// Text is the line without its timestamp and newline.
	Text string
	// Hit tells whether the line matches the ring's search (never while Hidden); the ring sets it as the
	// line is pushed.
	Hit bool
	// Hidden tells whether the ring's filter hides the line; the ring sets it as the line is pushed.
	Hidden bool
}

// Display is the line as shown and saved: prefix, then the timestamp when asked for, then the text, as
// kubectl logs --prefix [--timestamps] prints it.
func (l Line) Display(timestamps bool) string {
	if timestamps && l.Stamp != "" {
		return l.Prefix + l.Stamp + " " + l.Text
	}
	return l.Prefix + l.Text
}

// ByteBudget bounds the memory of the lines a logs view keeps (the Ring), and again of those waiting for it
// (the Sink): a line may be up to 1 MiB long, so a count of lines alone could hold gigabytes.
const ByteBudget = 16 << 20

// lineOverhead is what a kept line costs besides its text: the Line itself and its strings' headers.
const lineOverhead = 96

// Size is the memory l takes, as the byte budgets count it.
func (l Line) Size() int { return len(l.Text) + len(l.Stamp) + len(l.Prefix) + lineOverhead }

// maxLine bounds one line's length; the rest of a longer line is cut, and the cut is said on the line.
const maxLine = 1 << 20

// readLine reads one line without its newline, at most maxLine bytes of it: the rest is skipped and the line
// ends in a note saying so.
func readLine(br *bufio.Reader) (string, error) {
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long) < maxLine {
				long = append(long, chunk[:min(len(chunk), maxLine-len(long))]...)
			}
			continue
		}
		line := chunk
		if long != nil {
			if len(long) < maxLine {
				long = append(long, chunk[:min(len(chunk), maxLine-len(long))]...)
			}
			line = long
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		if long != nil && len(long) >= maxLine {
			text += fmt.Sprintf(" …[kscope: line cut at %d bytes]", maxLine)
		}
		return text, err
	}
}

// parseLine splits "TIMESTAMP TEXT", as the kubelet writes a line with timestamps, into its parts; a line
// without a timestamp is all text.
func parseLine(raw string) Line {
	stamp, text, ok := strings.Cut(raw, " ")
	if !ok {
		stamp, text = raw, ""
	}
	at, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return Line{Text: raw}
	}
	return Line{At: at, Stamp: stamp, Text: text}
}
