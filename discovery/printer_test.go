package discovery

import (
	"strings"
	"testing"
)

func printerRows() []Resource {
	return []Resource{
		{Version: "v1", Name: "pods", SingularName: "pod", Kind: "Pod", ShortNames: []string{"po"}, Categories: []string{"all"}, Verbs: rw, Namespaced: true},
		{Version: "v1", Name: "namespaces", Kind: "Namespace", ShortNames: []string{"ns"}, Verbs: rw},
		{Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", ShortNames: []string{"deploy"}, Categories: []string{"all"}, Verbs: rw, Namespaced: true},
	}
}

func TestResourcePrinter(t *testing.T) {
	tests := []struct {
		name    string
		printer ResourcePrinter
		rows    []Resource
		want    string
	}{
		{"table", ResourcePrinter{}, printerRows(),
			"NAME          SHORTNAMES   APIVERSION   NAMESPACED   KIND\n" +
				"pods          po           v1           true         Pod\n" +
				"namespaces    ns           v1           false        Namespace\n" +
				"deployments   deploy       apps/v1      true         Deployment\n"},
		{"no headers", ResourcePrinter{NoHeaders: true}, printerRows(),
			"pods          po       v1        true    Pod\n" +
				"namespaces    ns       v1        false   Namespace\n" +
				"deployments   deploy   apps/v1   true    Deployment\n"},
		// An empty last cell still pads the column before it, as kubectl does.
		{"wide", ResourcePrinter{Output: "wide"}, printerRows(),
			"NAME          SHORTNAMES   APIVERSION   NAMESPACED   KIND         VERBS                                                        CATEGORIES\n" +
				"pods          po           v1           true         Pod          create,delete,deletecollection,get,list,patch,update,watch   all\n" +
				"namespaces    ns           v1           false        Namespace    create,delete,deletecollection,get,list,patch,update,watch   \n" +
				"deployments   deploy       apps/v1      true         Deployment   create,delete,deletecollection,get,list,patch,update,watch   all\n"},
		{"name", ResourcePrinter{Output: "name"}, printerRows(), "pods\nnamespaces\ndeployments.apps\n"},
		{"name ignores no headers", ResourcePrinter{Output: "name", NoHeaders: true}, printerRows()[2:], "deployments.apps\n"},
		{"empty table keeps its header", ResourcePrinter{}, nil, "NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND\n"},
		{"empty name list", ResourcePrinter{Output: "name"}, nil, ""},
		{"several short names", ResourcePrinter{NoHeaders: true},
			[]Resource{{Group: "x.example.com", Version: "v1alpha1", Name: "things", Kind: "Thing", ShortNames: []string{"th", "thg"}}},
			"things   th,thg   x.example.com/v1alpha1   false   Thing\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.printer.Print(&b, tt.rows); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("Print\n got:\n%q\nwant:\n%q", b.String(), tt.want)
			}
		})
	}
}

func TestResourcePrinterValidate(t *testing.T) {
	for _, o := range []string{"", "wide", "name"} {
		if err := (ResourcePrinter{Output: o}).Validate(); err != nil {
			t.Errorf("Output %q: %v", o, err)
		}
	}
	if err := (ResourcePrinter{Output: "yaml"}).Validate(); err == nil {
		t.Error("Output yaml accepted")
	}
}
