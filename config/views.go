package config

import (
	"fmt"
	"sort"
	"strings"
)

// viewsFile is k9s's views.yaml:
//
//	views:
//	  v1/pods:
//	    columns: [AGE, NAME, "IMAGE:.spec.containers[*].image"]
//	    sortColumn: AGE:desc
type viewsFile struct {
	Views map[string]ViewSetting `json:"views"`
}

// ViewSetting is one resource's entry of views.yaml: its columns (a server column's name, or NAME:JSONPATH,
// each with k9s's |FLAGS) and the column to sort by (NAME:asc or NAME:desc).
type ViewSetting struct {
	// Key is the entry's name: a resource as GROUP/VERSION/RESOURCE (v1/pods, apps/v1/deployments), with
	// @NAMESPACE-REGEX for some namespaces only.
	Key        string   `json:"-"`
	Columns    []string `json:"columns"`
	SortColumn string   `json:"sortColumn"`
}

// LoadViews reads the views file of d (kscope's, else k9s's), sorted by key. An entry without columns is a
// problem, as k9s's schema requires them.
func LoadViews(d Dirs) ([]ViewSetting, File, error) {
	f := d.find("views", "views.yaml")
	var raw viewsFile
	if err := read(f, &raw); err != nil {
		return nil, f, err
	}
	out := make([]ViewSetting, 0, len(raw.Views))
	for key, v := range raw.Views {
		if strings.TrimSpace(key) == "" || len(v.Columns) == 0 {
			return nil, f, Problem{Path: f.Path, Text: fmt.Sprintf("view %q needs a resource and columns", key)}
		}
		v.Key = strings.TrimSpace(key)
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, f, nil
}
