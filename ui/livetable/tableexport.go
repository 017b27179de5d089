package livetable

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// exportTable asks for a file name (the extension chooses the format: .csv, or .json), then writes every row
// of the table as it is shown, all of them and not only those on screen: the filter and the sort applied,
// the columns shown (wide or not, metrics included), AGE as on screen; rows deleted moments ago (dimmed)
// are left out.
func (t *Table) exportTable() {
	ns := t.src.Spec().Namespace
	if ns == "" && t.res.Namespaced {
		ns = "all"
	}
	name := strings.Join(nonEmpty(t.res.Name, ns, t.host.Clock().Now().Format("20060102-150405")), "-") + ".csv"
	t.host.Ask("save the table as (.csv or .json): ", name, func(text string) {
		text = strings.TrimSpace(text)
		format := strings.ToLower(filepath.Ext(text))
		if format != ".csv" && format != ".json" {
			t.host.Errorf("save the table: %q: the name must end in .csv or .json", text)
			return
		}
		header, rows := t.shownTable()
		data, err := encodeTable(format, header, rows)
		if err == nil {
			var path string
			if path, err = t.host.SaveFile("tables", filepath.Base(text), data); err == nil {
				t.host.Message(fmt.Sprintf("saved %d rows to %s", len(rows), path))
				return
			}
		}
		t.host.Errorf("save the table: %s", err)
	})
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
func (t *Table) shownTable() (header []string, rows [][]string) {
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
// are the column names, in the table's order. The cells are the cluster's data: in CSV, a cell a spreadsheet
// would read as a formula is written as text (csvText); JSON has the cells as they are.
func encodeTable(format string, header []string, rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	if format == ".csv" {
		w := csv.NewWriter(&b)
		_ = w.Write(csvText(header))
		for _, row := range rows {
			_ = w.Write(csvText(row))
		}
		w.Flush() // (errors come from the writer only)
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

// csvText returns cells with each one that begins with '=', '+', '-', '@', a tab or a carriage return
// prefixed with a single quote, which a spreadsheet shows as text rather than running the cell as a formula
// (OWASP's CSV injection). cells is not modified.
func csvText(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			c = "'" + c
		}
		out[i] = c
	}
	return out
}
