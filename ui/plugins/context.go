package plugins

import (
	"slices"
	"strings"

	"kscope/ui/livetable"
)

// active are the plugins of the current context: the global ones, replaced by name by those of the
// context's plugins file (perContext), read once per context; what cannot be used of that file is said on
// the prompt line. UI goroutine only.
func (s *Set) active() []key {
	c := s.h.Cluster()
	if s.perContext == nil || c == nil {
		return s.global
	}
	info := c.Info()
	id := info.Cluster + "\x00" + info.Context
	if keys, ok := s.byContext[id]; ok {
		return keys
	}
	own, err := s.perContext(info.Cluster, info.Context)
	if err != nil {
		s.h.Notice(err.Error())
	}
	keys, bad := parse(own)
	for _, line := range bad {
		s.h.Notice(line)
	}
	merged := slices.DeleteFunc(slices.Clone(s.global), func(g key) bool {
		return slices.ContainsFunc(keys, func(k key) bool { return k.plugin.Name == g.plugin.Name })
	})
	merged = append(merged, keys...)
	slices.SortStableFunc(merged, func(x, y key) int { return strings.Compare(x.plugin.Name, y.plugin.Name) })
	if s.byContext == nil {
		s.byContext = map[string][]key{}
	}
	s.byContext[id] = merged
	return merged
}

// Table is a live table as a Subject: the plugins of its resource act on its selected row.
type Table struct{ *livetable.Table }

// PluginScopes implements Subject: a table's plugins are those of its resource.
func (t Table) PluginScopes() []string { return ResourceScopes(t.Resource()) }

// PluginSubject implements Subject: the selected row and its variables (RowEnv: each column's cell as
// COL-NAME, FILTER the table's filter).
func (t Table) PluginSubject() (string, map[string]string, bool) {
	res, row, ok := t.Subject()
	if !ok {
		return "", nil, false
	}
	scope, _ := t.Scope() // (the selected row's kind in a table of several)
	return res.Name + " " + row.Name, RowEnv(scope, row, t.ShownCells(row), t.Query().Filter.String()), true
}

// PluginMarked implements MarkedSubject: the table's marked rows shown, each with its own kind's variables.
func (t Table) PluginMarked() (whats []string, envs []map[string]string) {
	filter := t.Query().Filter.String()
	for _, row := range t.Marked() {
		res, own := t.RowKind(row)
		whats = append(whats, res.Name+" "+own.Name)
		envs = append(envs, RowEnv(res, own, t.ShownCells(own), filter))
	}
	return whats, envs
}
