package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// defaultLogName names the log file of every container whose name has none of its own (container names are
// DNS labels, so no container is called this).
const defaultLogName = "_default"

// floodLogName is a container name with log files of its own that no seeded object uses: tests that write a
// large log (kscope's bounded logs view) write into its file without touching the logs other containers show.
const floodLogName = "log-flood"

// podLogs are the container log files kwok's kubelet server serves for `kubectl logs`, in the CRI log format
// the kubelet reads ("<RFC 3339 time> stdout|stderr F <line>"): one current and one previous file per
// container name of the seeded manifests, and one pair for every other container. Churn appends to them.
type podLogs struct {
	dir   string
	names []string // the container names with files of their own, sorted
}

func newPodLogs(l layout) (podLogs, error) {
	objects, err := loadManifests()
	if err != nil {
		return podLogs{}, err
	}
	var names []string
	for _, obj := range objects {
		names = append(names, containerNames(obj.Object)...)
	}
	names = append(names, floodLogName)
	slices.Sort(names)
	return podLogs{dir: l.state("pod-logs"), names: slices.Compact(names)}, nil
}

// containerNames finds the names of the containers in any pod template inside obj.
func containerNames(obj map[string]any) []string {
	var names []string
	for key, v := range obj {
		switch v := v.(type) {
		case map[string]any:
			names = append(names, containerNames(v)...)
		case []any:
			for _, item := range v {
				m, ok := item.(map[string]any)
				if !ok {
					continue
				}
				if name, ok := m["name"].(string); ok && (key == "containers" || key == "initContainers") {
					names = append(names, name)
				}
				names = append(names, containerNames(m)...)
			}
		}
	}
	return names
}

// fileName is the base name of container's log files.
func (p podLogs) fileName(container string) string {
	if _, found := slices.BinarySearch(p.names, container); found {
		return container
	}
	return defaultLogName
}

func (p podLogs) current(container string) string {
	return filepath.Join(p.dir, p.fileName(container)+".log")
}

func (p podLogs) previous(container string) string {
	return filepath.Join(p.dir, p.fileName(container)+".previous.log")
}

// all is every container name with files, the default last.
func (p podLogs) all() []string { return append(slices.Clone(p.names), defaultLogName) }

// ensure creates the log files that do not exist yet: the current ones with the last 40 minutes of lines,
// the previous ones with an earlier run that ended in an error.
func (p podLogs) ensure(now time.Time) error {
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return err
	}
	for _, name := range p.all() {
		if _, err := os.Stat(p.current(name)); err != nil {
			if err := p.write(p.current(name), name, 0, 40, now.Add(-40*time.Minute), time.Minute); err != nil {
				return err
			}
		}
		if _, err := os.Stat(p.previous(name)); err != nil {
			if err := p.write(p.previous(name), name, 0, 20, now.Add(-90*time.Minute), time.Minute); err != nil {
				return err
			}
			crash := criLine(now.Add(-70*time.Minute), "stderr", "fatal: lost connection to upstream, exiting (exit code 1)")
			if err := appendFile(p.previous(name), crash); err != nil {
				return err
			}
		}
	}
	return nil
}

// write appends n generated lines for container, numbered from first, step apart from start, in writes of
// about a megabyte (--lines may ask for hundreds).
func (p podLogs) write(path, container string, first, n int, start time.Time, step time.Duration) error {
	var b strings.Builder
	for i := range n {
		at := start.Add(time.Duration(i) * step)
		stream, text := logLine(container, first+i, at)
		b.WriteString(criLine(at, stream, text))
		if b.Len() >= 1<<20 || i == n-1 {
			if err := appendFile(path, b.String()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	return nil
}

// tick appends line n to every current log file (churn calls it on each change).
func (p podLogs) tick(n int, now time.Time) error {
	for _, name := range p.all() {
		stream, text := logLine(name, n, now)
		if err := appendFile(p.current(name), criLine(now, stream, text)); err != nil {
			return err
		}
	}
	return nil
}

// logLine is line n of a container's log, shaped like the software the seeded container runs.
func logLine(container string, n int, at time.Time) (stream, text string) {
	paths := []string{"/", "/cart", "/api/items", "/api/orders", "/healthz", "/static/app.js"}
	path := paths[n%len(paths)]
	if n%7 == 6 {
		return "stderr", fmt.Sprintf("level=warn msg=\"slow request\" container=%s path=%s took=%dms", container, path, 800+n%400)
	}
	switch container {
	case "nginx":
		return "stdout", fmt.Sprintf(`10.0.0.%d - - [%s] "GET %s HTTP/1.1" 200 %d "-" "Mozilla/5.0"`,
			2+n%200, at.UTC().Format("02/Jan/2006:15:04:05 -0700"), path, 512+n%4096)
	case "postgres":
		return "stdout", fmt.Sprintf("%s UTC [%d] LOG:  checkpoint complete: wrote %d buffers",
			at.UTC().Format("2006-01-02 15:04:05.000"), 100+n%50, n%64)
	}
	return "stdout", fmt.Sprintf("level=info msg=\"handled request\" container=%s method=GET path=%s status=200 took=%dms seq=%d",
		container, path, 3+n%40, n)
}

// criLine formats one log line as the container runtime writes it for the kubelet.
func criLine(at time.Time, stream, text string) string {
	return at.UTC().Format(time.RFC3339Nano) + " " + stream + " F " + text + "\n"
}

// appendFile appends data in one write, so lines from concurrent writers never interleave.
func appendFile(path, data string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open log %s: %w", path, err)
	}
	if _, err := f.WriteString(data); err != nil {
		f.Close()
		return fmt.Errorf("append to log %s: %w", path, err)
	}
	return f.Close()
}

// runLog appends lines to the log of the containers named NAME (what `kubectl logs` then shows for them):
// the given text as one line, or --lines generated ones.
func runLog(l layout, args []string) error {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	lines := fs.Int("lines", 0, "append this many generated lines instead of TEXT")
	stderr := fs.Bool("stderr", false, "write TEXT to the stderr stream")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 || (fs.NArg() == 1) == (*lines == 0) {
		return fmt.Errorf("usage: devcluster log [--stderr] CONTAINER TEXT… | devcluster log --lines N CONTAINER")
	}
	logs, err := newPodLogs(l)
	if err != nil {
		return err
	}
	if err := logs.ensure(time.Now()); err != nil {
		return err
	}
	container := fs.Arg(0)
	if *lines > 0 {
		return logs.write(logs.current(container), container, 0, *lines, time.Now(), 0)
	}
	stream := "stdout"
	if *stderr {
		stream = "stderr"
	}
	return appendFile(logs.current(container), criLine(time.Now(), stream, strings.Join(fs.Args()[1:], " ")))
}
