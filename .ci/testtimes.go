// Command testtimes makes the output of `go test -json` readable in a CI log and keeps it for a timing summary.
//
//	go test -json ./... | go run .ci/testtimes.go -save FILE [-v]
//	    prints each failed test's output, each package's result line (-v: each top-level test's too),
//	    saves the events to FILE, and exits 1 when a test or package failed
//	go run .ci/testtimes.go -slowest N FILE...
//	    prints the N slowest top-level tests of the saved runs
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (test2json's TestEvent).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

func main() {
	save := flag.String("save", "", "file to save the events of standard input to")
	verbose := flag.Bool("v", false, "print the result of every top-level test")
	slowest := flag.Int("slowest", 0, "print the N slowest top-level tests of the files given")
	flag.Parse()
	if *slowest > 0 {
		if err := printSlowest(os.Stdout, *slowest, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "testtimes:", err)
			os.Exit(2)
		}
		return
	}
	out := io.Discard
	if *save != "" {
		f, err := os.Create(*save)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testtimes:", err)
			os.Exit(2)
		}
		defer f.Close()
		out = f
	}
	if failed := relay(os.Stdin, os.Stdout, out, *verbose); failed {
		os.Exit(1)
	}
}

// relay copies the events of in to saved and prints what a reader of the log needs; it tells whether
// anything failed (a line that is not an event, such as a build error, is printed as it is).
func relay(in io.Reader, w, saved io.Writer, verbose bool) (failed bool) {
	outputs := map[string][]string{} // package + test → its output lines, until its result
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(saved, line)
		var ev event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &ev) != nil {
			fmt.Fprintln(w, line)
			continue
		}
		key := ev.Package + " " + ev.Test
		switch ev.Action {
		case "output", "build-output":
			if ev.Test == "" && ev.Action == "output" {
				break // the package's own lines: its result line is printed below
			}
			outputs[key] = append(outputs[key], ev.Output)
		case "fail":
			failed = true
			fmt.Fprint(w, strings.Join(outputs[key], ""))
			if ev.Test == "" {
				fmt.Fprintf(w, "FAIL\t%s\t%.1fs\n", ev.Package, ev.Elapsed)
			}
			delete(outputs, key)
		case "pass", "skip":
			if ev.Test == "" {
				fmt.Fprintf(w, "ok  \t%s\t%.1fs\n", ev.Package, ev.Elapsed)
			} else if verbose && !strings.Contains(ev.Test, "/") {
				fmt.Fprintf(w, "--- %s: %s (%.1fs)\n", strings.ToUpper(ev.Action), ev.Test, ev.Elapsed)
			}
			delete(outputs, key)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(w, "testtimes: reading go test's output:", err)
		return true
	}
	return failed
}

// printSlowest prints the n slowest top-level tests of the saved runs in files.
func printSlowest(w io.Writer, n int, files []string) error {
	var done []event
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var ev event
			if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Test != "" && !strings.Contains(ev.Test, "/") &&
				(ev.Action == "pass" || ev.Action == "fail") {
				done = append(done, ev)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
	}
	sort.SliceStable(done, func(i, j int) bool { return done[i].Elapsed > done[j].Elapsed })
	for _, ev := range done[:min(n, len(done))] {
		fmt.Fprintf(w, "  %7.1fs  %-4s  %s %s\n", ev.Elapsed, ev.Action, strings.TrimPrefix(ev.Package, "kscope/"), ev.Test)
	}
	return nil
}
