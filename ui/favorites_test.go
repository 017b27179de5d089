package ui

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestWithFavorite(t *testing.T) {
	nine := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	tests := []struct {
		name string
		favs []string
		ns   string
		want []string
	}{
		{"the first", nil, "shop", []string{"shop"}},
		{"a new one goes in front", []string{"shop"}, "web", []string{"web", "shop"}},
		{"one already in keeps its place", []string{"web", "shop", "data"}, "shop", []string{"web", "shop", "data"}},
		{"all namespaces is no favourite", []string{"shop"}, "", []string{"shop"}},
		{"the tenth pushes the last out", nine, "j", append([]string{"j"}, nine[:8]...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fmt.Sprint(tt.favs)
			if got := withFavorite(tt.favs, tt.ns); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("withFavorite(%v, %q) = %v, want %v", tt.favs, tt.ns, got, tt.want)
			}
			if fmt.Sprint(tt.favs) != before {
				t.Errorf("favs changed: %v, was %s", tt.favs, before)
			}
		})
	}
}

// TestFavoriteNamespaceKeys: the namespace a session starts in and every one switched to become favourites
// of the context, numbered in the header; 1 to 9 switch to them without reordering them; a number with no
// favourite is one line; the program gets them back, its Options untouched.
func TestFavoriteNamespaceKeys(t *testing.T) {
	given := map[string][]string{"admin": {"data"}, "viewer": {"ops"}}
	h := start(t, 120, 30, func(o *Options) { o.Resource = "pods"; o.Favorites = given })
	h.contains("pods(shop)[3]")
	h.contains("Namespace: shop (0 all 1 shop 2 data)")
	h.press(tcell.KeyRune, '2')
	h.contains("pods(data)[1]")
	h.contains("Namespace: data (0 all 1 shop 2 data)")
	h.typeText(":ns web\n")
	h.contains("Namespace: web (0 all 1 web 2 shop 3 data)")
	h.press(tcell.KeyRune, '2')
	h.contains("pods(shop)[3]")
	h.press(tcell.KeyRune, '0')
	h.contains("Namespace: all (0 all 1 web 2 shop 3 data)")
	h.press(tcell.KeyRune, '9')
	h.contains("no favourite namespace 9: the header lists 3")
	var got map[string][]string
	h.ui(func() { got = h.app.FavoriteNamespaces() })
	want := map[string][]string{"admin": {"web", "shop", "data"}, "viewer": {"ops"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FavoriteNamespaces() = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(given, map[string][]string{"admin": {"data"}, "viewer": {"ops"}}) {
		t.Errorf("Options.Favorites changed: %v", given)
	}
}
