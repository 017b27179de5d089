package livetable

import "testing"

// TestEncodeTableCSVCellsAreText: a CSV cell (header or row) that a spreadsheet would run as a formula is
// written with a leading single quote, so it is shown as text; other cells and the JSON export are as given.
func TestEncodeTableCSVCellsAreText(t *testing.T) {
	tests := []struct {
		name, format string
		header       []string
		rows         [][]string
		want         string
	}{
		{"plain", ".csv", []string{"NAME", "AGE"}, [][]string{{"web", "5m"}, {"", "a=b"}},
			"NAME,AGE\nweb,5m\n,a=b\n"},
		{"formula", ".csv", []string{"NAME"}, [][]string{{"=HYPERLINK(\"http://x\")"}},
			"NAME\n\"'=HYPERLINK(\"\"http://x\"\")\"\n"},
		{"plus minus at", ".csv", []string{"A", "B", "C"}, [][]string{{"+1+1", "-2+3", "@SUM(A1)"}},
			"A,B,C\n'+1+1,'-2+3,'@SUM(A1)\n"},
		{"tab and carriage return", ".csv", []string{"A", "B"}, [][]string{{"\t=1", "\r=1"}},
			"A,B\n'\t=1,\"'\r=1\"\n"},
		{"header from the cluster", ".csv", []string{"=CMD()", "NAME"}, [][]string{{"x", "y"}},
			"'=CMD(),NAME\nx,y\n"},
		{"json unchanged", ".json", []string{"NAME"}, [][]string{{"=1+1"}, {"-x"}},
			"[\n  {\"NAME\": \"=1+1\"},\n  {\"NAME\": \"-x\"}\n]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row0 := append([]string(nil), tt.rows[0]...)
			got, err := encodeTable(tt.format, tt.header, tt.rows)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if tt.rows[0][0] != row0[0] {
				t.Errorf("the rows were modified: %q", tt.rows[0])
			}
		})
	}
}
