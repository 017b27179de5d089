package logs

import (
	"slices"
	"strings"
	"testing"
)

// keysOf returns the texts of r's key ranges.
func keysOf(r Rendered) []string {
	var out []string
	for _, k := range r.Keys {
		out = append(out, r.Text[k[0]:k[1]])
	}
	return out
}

func TestRenderJSON(t *testing.T) {
	const line = `{"ts":"2026-12-01T10:00:00Z","level":"info","msg":"handled request","status":200,"user":{"id":7,"tags":["a","b"]},"ok":true,"note":null}`
	for _, tc := range []struct {
		name, text string
		mode       JSONMode
		fields     []string
		ok         bool
		want       string
		keys       []string
	}{
		{name: "raw is as read", text: line, mode: JSONRaw},
		{name: "not JSON", text: `level=info msg="handled"`, mode: JSONPretty},
		{name: "an array", text: `[1,2]`, mode: JSONPretty},
		{name: "two objects", text: `{"a":1} {"b":2}`, mode: JSONPretty},
		{name: "two objects, fields", text: `{"a":1} {"b":2}`, mode: JSONFields, fields: []string{"a"}},
		{name: "invalid", text: `{"a":}`, mode: JSONPretty},
		{name: "a brace in text", text: `{ not json }`, mode: JSONFields, fields: []string{"a"}},
		{name: "pretty", text: `  {"a":1,"b":{"c":[1,2],"d":"x:y"}}  `, mode: JSONPretty, ok: true,
			want: "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [\n      1,\n      2\n    ],\n    \"d\": \"x:y\"\n  }\n}",
			keys: []string{`"a"`, `"b"`, `"c"`, `"d"`}},
		{name: "pretty keeps escapes and markup", text: `{"m\"sg":"[red]a\nb\u001b","k":"v"}`, mode: JSONPretty, ok: true,
			want: "{\n  \"m\\\"sg\": \"[red]a\\nb\\u001b\",\n  \"k\": \"v\"\n}", keys: []string{`"m\"sg"`, `"k"`}},
		{name: "fields in the order chosen", text: line, mode: JSONFields, fields: []string{"level", "msg", "missing", "status"}, ok: true,
			want: `level=info msg="handled request" status=200`, keys: []string{"level", "msg", "status"}},
		{name: "fields: objects compact, null, bool", text: line, mode: JSONFields, fields: []string{"user", "note", "ok"}, ok: true,
			want: `user={"id":7,"tags":["a","b"]} note=null ok=true`, keys: []string{"user", "note", "ok"}},
		{name: "fields: an empty string quoted", text: `{"a":"","b":"x=y"}`, mode: JSONFields, fields: []string{"a", "b"}, ok: true,
			want: `a="" b="x=y"`, keys: []string{"a", "b"}},
		{name: "fields: none there", text: line, mode: JSONFields, fields: []string{"nope"}},
		{name: "fields: none chosen", text: line, mode: JSONFields},
	} {
		r, ok := RenderJSON(tc.text, tc.mode, tc.fields)
		if ok != tc.ok || r.Text != tc.want || !slices.Equal(keysOf(r), tc.keys) {
			t.Errorf("%s: RenderJSON = %q keys %q ok %v, want %q keys %q ok %v", tc.name, r.Text, keysOf(r), ok, tc.want, tc.keys, tc.ok)
		}
	}
}

func TestJSONModeCycles(t *testing.T) {
	var got []string
	m := JSONRaw
	for range 4 {
		got = append(got, m.String())
		m = m.Next()
	}
	if want := "raw pretty fields raw"; strings.Join(got, " ") != want {
		t.Fatalf("modes %q, want %q", got, want)
	}
}

func TestFieldsSeen(t *testing.T) {
	texts := []string{
		"plain text",
		`{"ts":1,"level":"info","msg":"a"}`,
		`{"level":"warn","msg":"b","err":"x","ts":2}`,
		`[1]`,
		`{"caller":"main.go:1","level":"info"}`,
	}
	for _, tc := range []struct {
		limit int
		want  []string
	}{
		{limit: 10, want: []string{"ts", "level", "msg", "err", "caller"}},
		{limit: 2, want: []string{"ts", "level"}},
		{limit: 0, want: nil},
	} {
		if got := FieldsSeen(texts, tc.limit); !slices.Equal(got, tc.want) {
			t.Errorf("limit %d: %q, want %q", tc.limit, got, tc.want)
		}
	}
	if keys := JSONKeys(`{"b":1,"a":2,"b":3}`); !slices.Equal(keys, []string{"b", "a"}) {
		t.Errorf("keys with a duplicate: %q", keys)
	}
}
