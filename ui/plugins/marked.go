package plugins

import (
	"fmt"
	"maps"
	"os"
	"strings"

	"kscope/config"
	"kscope/pluginvars"
)

// shownRows is how many rows a plugin's question names; "and N more" stands for the rest.
const shownRows = 10

// MarkedSubject is a Subject whose rows may be marked (a live table): a plugin runs once per marked row,
// as k9s runs it per selection, instead of on the selected row. UI goroutine only.
type MarkedSubject interface {
	Subject
	// PluginMarked are the marked rows, each what it is called ("pods web-1") and its variables, as
	// PluginSubject gives them for the selected row; none: the plugin acts on PluginSubject.
	PluginMarked() (whats []string, envs []map[string]string)
}

// markedRun is a plugin to run once per marked row: what each row is called and its command's arguments and
// environment.
type markedRun struct {
	whats []string
	args  [][]string
	vars  []map[string]string
}

// startMarked runs p once per row of whats (envs their variables, the connection's added): refused when
// dangerous in read-only mode; its inputs asked for once, for every row.
func (s *Set) startMarked(p config.Plugin, whats []string, envs []map[string]string) {
	if p.Dangerous && s.h.ReadOnly() {
		s.h.Errorf("read-only mode: refusing plugin %s (it is marked dangerous)", p.Name)
		return
	}
	conn := s.connectionEnv()
	for i, env := range envs {
		all := maps.Clone(conn)
		maps.Copy(all, env)
		envs[i] = all
	}
	if len(p.Inputs) == 0 {
		s.runMarked(p, whats, envs)
		return
	}
	s.askInputs(p, func(values map[string]string) {
		for _, env := range envs {
			maps.Copy(env, values)
		}
		s.runMarked(p, whats, envs)
	})
}

// runMarked substitutes each row's variables into p's arguments (a value a shell could read as code in any
// row refuses the whole run, naming the row), asks once when p says confirm or dangerous (listing the
// rows), then runs p for each row: in the background each on its own, or in the foreground one after the
// other with the screen suspended once; the foreground runs end with one line naming the runs that failed.
func (s *Set) runMarked(p config.Plugin, whats []string, envs []map[string]string) {
	h := s.h
	r := markedRun{whats: whats}
	for i, env := range envs {
		args, err := pluginvars.SubstituteArgs(p.Args, env)
		if err != nil {
			h.Errorf("plugin %s not run: %s: %s", p.Name, whats[i], err)
			return
		}
		r.args = append(r.args, args)
		r.vars = append(r.vars, pluginvars.Environ(env))
	}
	run := func() {
		if p.Background {
			h.Message(fmt.Sprintf("running plugin %s on %d rows …", p.Name, len(whats)))
			for i := range whats {
				s.runBackground(p, r.vars[i], r.args[i])
			}
			return
		}
		s.runForeground(p, r)
	}
	if p.Confirm || p.Dangerous {
		h.Confirm(r.question(p), "Run", run)
		return
	}
	run()
}

// question is the one confirmation of a run on several rows: the rows (the first shownRows, then how many
// more) and the first row's command line.
func (r markedRun) question(p config.Plugin) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Run plugin %s on %d rows?\n", p.Name, len(r.whats))
	for i, what := range r.whats {
		if i == shownRows {
			fmt.Fprintf(&b, "and %d more\n", len(r.whats)-i)
			break
		}
		b.WriteString(what + "\n")
	}
	b.WriteString(strings.TrimSpace(p.Command + " " + strings.Join(r.args[0], " ")))
	if len(r.whats) > 1 {
		b.WriteString(" (the first)")
	}
	return b.String()
}

// runForeground runs p for each row in turn with the screen suspended once, then says how many ran and
// which failed.
func (s *Set) runForeground(p config.Plugin, r markedRun) {
	h := s.h
	mark := h.RefusalMark()
	var failed []string
	runAll := func() {
		for i := range r.whats {
			cmd := command(h, r.vars[i], p.Command, r.args[i]...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				failed = append(failed, fmt.Sprintf("%s (%s)", r.whats[i], err))
			}
		}
	}
	if !h.Suspend(runAll) {
		runAll() // no screen to suspend (tests)
	}
	h.FlushNotices()
	first := ""
	if refused := h.RefusedSince(mark); refused != "" {
		first = refused + "; "
	}
	line := fmt.Sprintf("%splugin %s done on %d of %d rows", first, p.Name, len(r.whats)-len(failed), len(r.whats))
	if len(failed) > 0 {
		h.Errorf("%s; failed: %s", line, strings.Join(failed, ", "))
		return
	}
	h.Message(line)
}
