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

// Group is marked rows of one cluster, for a plugin run over rows of several: the plugins acting on that
// cluster (the session's Set, or one On that cluster's host), and what each row is called ("pods web-1")
// with its variables, as MarkedSubject gives them.
type Group struct {
	Set   *Set
	Whats []string
	Envs  []map[string]string
}

// markedRow is one run of a plugin over marked rows: the plugins of the row's cluster, the plugin as that
// cluster configures it, what the row is called, its command's arguments and its variables.
type markedRow struct {
	set  *Set
	p    config.Plugin
	what string
	args []string
	vars map[string]string
}

// startMarked runs p once per row of whats (envs their variables): StartMarked over the rows of s's cluster.
func (s *Set) startMarked(p config.Plugin, whats []string, envs []map[string]string) {
	s.StartMarked(p.Name, []Group{{Set: s, Whats: whats, Envs: envs}})
}

// StartMarked runs the plugin called name once per row of groups, each row through its group's Set: that
// cluster's plugin of the name, with that cluster's connection variables (CONTEXT, CLUSTER, USER,
// KUBECONFIG) and its children's environment. s asks the questions and says how the runs went. The run is
// refused whole, in one line, when a group's context has no plugin of that name, or when one is dangerous
// in read-only mode; the inputs (the first group's plugin's) are asked once, for every row. UI goroutine
// only.
func (s *Set) StartMarked(name string, groups []Group) {
	plugins := make([]config.Plugin, len(groups))
	for i, g := range groups {
		p, ok := g.Set.plugin(name)
		if !ok {
			s.h.Errorf("plugin %s not run: context %s has no plugin %s", name, g.Set.context(), name)
			return
		}
		if p.Dangerous && g.Set.h.ReadOnly() {
			s.h.Errorf("read-only mode: refusing plugin %s (it is marked dangerous)", name)
			return
		}
		plugins[i] = p
	}
	var rows []markedRow
	for i, g := range groups {
		conn := g.Set.connectionEnv()
		for j, env := range g.Envs {
			all := maps.Clone(conn)
			maps.Copy(all, env)
			rows = append(rows, markedRow{set: g.Set, p: plugins[i], what: g.Whats[j], vars: all})
		}
	}
	if len(rows) == 0 {
		return
	}
	first := plugins[0]
	if len(first.Inputs) == 0 {
		s.runMarked(name, rows)
		return
	}
	s.askInputs(first, func(values map[string]string) {
		for _, r := range rows {
			maps.Copy(r.vars, values)
		}
		s.runMarked(name, rows)
	})
}

// plugin is s's cluster's plugin called name.
func (s *Set) plugin(name string) (config.Plugin, bool) {
	for _, k := range s.active() {
		if k.plugin.Name == name {
			return k.plugin, true
		}
	}
	return config.Plugin{}, false
}

// context is the kubeconfig context of s's cluster ("" before the first connection).
func (s *Set) context() string {
	if c := s.h.Cluster(); c != nil {
		return c.Info().Context
	}
	return ""
}

// runMarked substitutes each row's variables into its plugin's arguments (a value a shell could read as
// code in any row refuses the whole run, naming the row), asks once when a row's plugin says confirm or
// dangerous (listing the rows), then runs each row's plugin: in the background each on its own, or in the
// foreground one after the other with the screen suspended once; the foreground runs end with one line
// naming the runs that failed.
func (s *Set) runMarked(name string, rows []markedRow) {
	h := s.h
	ask := false
	for i, r := range rows {
		args, err := pluginvars.SubstituteArgs(r.p.Args, r.vars)
		if err != nil {
			h.Errorf("plugin %s not run: %s: %s", name, r.what, err)
			return
		}
		rows[i].args = args
		rows[i].vars = pluginvars.Environ(r.vars)
		ask = ask || r.p.Confirm || r.p.Dangerous
	}
	run := func() {
		var fg []markedRow
		for _, r := range rows {
			if !r.p.Background {
				fg = append(fg, r)
			}
		}
		if len(fg) < len(rows) {
			n, at := len(rows)-len(fg), ""
			if n > cap(s.runs.slots) {
				at = fmt.Sprintf(", %d at a time", cap(s.runs.slots))
			}
			h.Message(fmt.Sprintf("running plugin %s on %d rows%s …", name, n, at))
			for _, r := range rows {
				if r.p.Background {
					r.set.runBackground(r.p, r.vars, r.args)
				}
			}
		}
		if len(fg) > 0 {
			s.runForeground(name, fg)
		}
	}
	if ask {
		h.Confirm(question(name, rows), "Run", run)
		return
	}
	run()
}

// question is the one confirmation of a run on several rows: the rows (the first shownRows, then how many
// more) and the first row's command line.
func question(name string, rows []markedRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Run plugin %s on %d rows?\n", name, len(rows))
	for i, r := range rows {
		if i == shownRows {
			fmt.Fprintf(&b, "and %d more\n", len(rows)-i)
			break
		}
		b.WriteString(r.what + "\n")
	}
	b.WriteString(strings.TrimSpace(rows[0].p.Command + " " + strings.Join(rows[0].args, " ")))
	if len(rows) > 1 {
		b.WriteString(" (the first)")
	}
	return b.String()
}

// runForeground runs each row's plugin in turn with the screen suspended once, each with its cluster's
// children's environment, then says how many ran and which failed.
func (s *Set) runForeground(name string, rows []markedRow) {
	h := s.h
	mark := h.RefusalMark()
	var failed []string
	runAll := func() {
		for _, r := range rows {
			cmd := command(r.set.h, r.vars, r.p.Command, r.args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				failed = append(failed, fmt.Sprintf("%s (%s)", r.what, err))
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
	line := fmt.Sprintf("%splugin %s done on %d of %d rows", first, name, len(rows)-len(failed), len(rows))
	if len(failed) > 0 {
		h.Errorf("%s; failed: %s", line, strings.Join(failed, ", "))
		return
	}
	h.Message(line)
}
