package ui

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"kscope/watch"
)

// exportTable asks for a file name (the extension chooses the format: .csv, or .json), then writes every row
// of the table as it is shown, all of them and not only those on screen: the filter and the sort applied,
// the columns shown (wide or not, metrics included), AGE as on screen; rows deleted moments ago (dimmed)
// are left out.
func (t *LiveTable) exportTable() {
	ns := t.src.Spec().Namespace
	if ns == "" && t.res.Namespaced {
		ns = "all"
	}
	name := strings.Join(nonEmpty(t.res.Name, ns, t.app.opts.Clock.Now().Format("20060102-150405")), "-") + ".csv"
	t.app.bar.Open("save the table as (.csv or .json): ", name, func(text string) {
		text = strings.TrimSpace(text)
		format := strings.ToLower(filepath.Ext(text))
		if format != ".csv" && format != ".json" {
			t.app.errorf("save the table: %q: the name must end in .csv or .json", text)
			return
		}
		header, rows := t.shownTable()
		data, err := encodeTable(format, header, rows)
		if err == nil {
			var path string
			if path, err = t.app.SaveFile("tables", filepath.Base(text), data); err == nil {
				t.app.message(fmt.Sprintf("saved %d rows to %s", len(rows), path))
				return
			}
		}
		t.app.errorf("save the table: %s", err)
	}, nil)
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// shownTable returns the header and the cells of every live row as the table shows them.
func (t *LiveTable) shownTable() (header []string, rows [][]string) {
	c := t.content
	for _, idx := range c.visible {
		header = append(header, strings.ToUpper(c.columns[idx].Name))
	}
	for _, r := range c.rows {
		if c.ghosted[r] {
			continue
		}
		cells := make([]string, len(c.visible))
		for i, idx := range c.visible {
			cells[i] = c.shownText(r, idx)
		}
		rows = append(rows, cells)
	}
	return header, rows
}

// encodeTable writes the table as CSV (a header line, then the rows) or as a JSON array of objects whose keys
// are the column names, in the table's order.
func encodeTable(format string, header []string, rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	if format == ".csv" {
		w := csv.NewWriter(&b)
		_ = w.Write(header)
		_ = w.WriteAll(rows) // (flushes; errors come from the writer only)
		return b.Bytes(), w.Error()
	}
	b.WriteString("[")
	for i, row := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for j, cell := range row {
			if j > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(header[j])
			v, _ := json.Marshal(cell)
			b.Write(k)
			b.WriteString(": ")
			b.Write(v)
		}
		b.WriteString("}")
	}
	b.WriteString("\n]\n")
	return b.Bytes(), nil
}

// rowEnv is the plugin variables of row: its object's, and each column's cell as shown (COL-NAME …).
func (t *LiveTable) rowEnv(row *watch.Row) map[string]string {
	c := t.content
	cols := map[string]string{}
	for idx, col := range c.columns {
		cols[col.Name] = c.shownText(row, idx)
	}
	res, _ := t.scope() // (the selected row's kind in a table of several)
	return t.app.pluginEnv(res, row, cols, t.query.Filter.String())
}
