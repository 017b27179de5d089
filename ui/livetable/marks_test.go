package livetable

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui/theme"
	"kscope/watch"
)

// markStep is one step of a marks test: a key pressed on a row (1: the first shown), or a filter set.
type markStep struct {
	row    int // the row selected before the key (0: leave the cursor)
	key    tcell.Key
	r      rune
	filter string // set this filter instead of pressing a key ("-" clears it)
}

func space(row int) markStep { return markStep{row: row, key: tcell.KeyRune, r: ' '} }

// TestMarks: space marks and unmarks, ctrl-space marks a range from the last row marked, * marks the rows
// shown (under a filter: those only), ctrl-\ unmarks all; the verbs get the marked rows shown (Marked), and
// the title counts them.
func TestMarks(t *testing.T) {
	tests := []struct {
		name   string
		steps  []markStep
		want   []string // Marked(), in the order shown
		title  string   // in the title
		hidden bool     // marked rows hidden by the filter
	}{
		{"none", nil, nil, "", false},
		{"space marks the selected row", []markStep{space(2)}, []string{"cache"}, "1 marked", false},
		{"space again unmarks it", []markStep{space(2), space(2)}, nil, "", false},
		{"two rows", []markStep{space(1), space(3)}, []string{"api", "web"}, "2 marked", false},
		{"a range from the last marked down", []markStep{space(1), {row: 3, key: tcell.KeyCtrlSpace}},
			[]string{"api", "cache", "web"}, "3 marked", false},
		{"a range from the last marked up", []markStep{space(3), {row: 2, key: tcell.KeyCtrlSpace}},
			[]string{"cache", "web"}, "2 marked", false},
		{"a range without a mark: the selected row", []markStep{{row: 2, key: tcell.KeyCtrlSpace}},
			[]string{"cache"}, "1 marked", false},
		{"all", []markStep{{key: tcell.KeyRune, r: '*'}}, []string{"api", "cache", "web"}, "3 marked", false},
		{"all under a filter: only the rows shown", []markStep{{filter: "^(web|api)$"}, {key: tcell.KeyRune, r: '*'},
			{filter: "-"}}, []string{"api", "web"}, "2 marked", false},
		{"a filter hides a marked row: kept, not acted on", []markStep{{key: tcell.KeyRune, r: '*'},
			{filter: "^web$"}}, []string{"web"}, "1 marked (2 hidden by the filter)", true},
		{"ctrl-\\ clears", []markStep{{key: tcell.KeyRune, r: '*'}, {key: tcell.KeyCtrlBackslash}}, nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, h := newTable(t, deployments, deploymentSource())
			for _, s := range tt.steps {
				switch {
				case s.filter == "-":
					h.run(func() { table.Escape() })
				case s.filter != "":
					h.press(tcell.KeyRune, '/')
					h.reply(s.filter)
				default:
					if s.row > 0 {
						h.run(func() { table.table.Select(s.row, 0) })
					}
					h.press(s.key, s.r)
				}
			}
			if got := markedNames(h); !slices.Equal(got, tt.want) {
				t.Errorf("marked %q, want %q", got, tt.want)
			}
			var title string
			h.run(func() { title = table.table.GetTitle() })
			if tt.title == "" && strings.Contains(title, "marked") || !strings.Contains(title, tt.title) {
				t.Errorf("title %q, want %q in it", title, tt.title)
			}
		})
	}
}

func markedNames(h *fakeHost) []string {
	var out []string
	h.run(func() {
		for _, r := range h.table.Marked() {
			out = append(out, r.Name)
		}
	})
	return out
}

// TestMarksSurviveRefreshes: marks survive a refresh and an update of the row; a row deleted leaves them (its
// dimmed ghost is not acted on, and a row of the same name created again is not marked).
func TestMarksSurviveRefreshes(t *testing.T) {
	src := deploymentSource()
	table, h := newTable(t, deployments, src)
	h.press(tcell.KeyRune, '*')
	row, _ := src.Row("shop/web")
	updated := *row
	updated.Cells = []string{"web", "1/2", "", "web:2"}
	src.Put(&updated)
	src.Delete("shop/cache")
	h.run(table.Refresh)
	if got := markedNames(h); !slices.Equal(got, []string{"api", "web"}) {
		t.Errorf("after an update and a delete: marked %q, want api and web", got)
	}
	src.Put(&watch.Row{Namespace: "shop", Name: "cache", UID: "new", Created: t0, Cells: []string{"cache", "0/1", "", "cache:1"}})
	h.run(table.Refresh)
	if got := markedNames(h); !slices.Equal(got, []string{"api", "web"}) {
		t.Errorf("after cache came back: marked %q, want api and web", got)
	}
	h.contains("2 marked")
}

// TestMarkedRowDrawn: a marked row is drawn in the theme's mark color, k9s's way.
func TestMarkedRowDrawn(t *testing.T) {
	table, h := newTable(t, deployments, deploymentSource())
	h.run(func() { table.table.Select(2, 0) })
	h.press(tcell.KeyRune, ' ')
	h.run(func() { table.table.Select(1, 0) }) // the cursor elsewhere: its own style would hide the mark
	st, ok := h.style("cache")
	if fg, _, _ := st.Decompose(); !ok || fg != theme.Default().RowMarked {
		t.Errorf("marked row drawn in %v, want %v", fg, theme.Default().RowMarked)
	}
	st, _ = h.style("web")
	if fg, _, _ := st.Decompose(); fg == theme.Default().RowMarked {
		t.Error("an unmarked row is drawn marked")
	}
}
