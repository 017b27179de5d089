package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAuditRequestsCountsOneUsersRequestsFromAnOffset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	old := `{"auditID":"0","stage":"ResponseComplete","user":{"username":"tester"}}` + "\n"
	lines := []string{
		`{"auditID":"1","stage":"ResponseComplete","user":{"username":"tester"}}`,
		`{"auditID":"2","stage":"ResponseStarted","user":{"username":"tester"}}`,
		`{"auditID":"2","stage":"ResponseComplete","user":{"username":"tester"}}`, // a watch: one request
		`{"auditID":"3","stage":"ResponseComplete","user":{"username":"viewer"}}`,
		`not json`,
	}
	if err := os.WriteFile(path, []byte(old+strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		user   string
		offset int64
		want   int
	}{
		{user: "tester", offset: int64(len(old)), want: 2},
		{user: "tester", offset: 0, want: 3},
		{user: "viewer", offset: int64(len(old)), want: 1},
		{user: "nobody", offset: 0, want: 0},
	} {
		got, err := auditRequests(path, tc.offset, tc.user)
		if err != nil || got != tc.want {
			t.Errorf("auditRequests(%s from %d) = %d, %v; want %d", tc.user, tc.offset, got, err, tc.want)
		}
	}
}

func TestFarMedianCountsAFailedRunAsInfinitelySlow(t *testing.T) {
	ok := func(s float64) FarSample { return FarSample{CompleteS: s, BytesDown: int64(s * 10)} }
	complete := func(s FarSample) float64 { return s.CompleteS }
	down := func(s FarSample) float64 { return float64(s.BytesDown) }
	for _, tc := range []struct {
		name    string
		samples []FarSample
		get     func(FarSample) float64
		timed   bool
		want    float64
	}{
		{name: "all ran", samples: []FarSample{ok(3), ok(1), ok(2)}, get: complete, timed: true, want: 2},
		{name: "one failed", samples: []FarSample{ok(1), {}, ok(2)}, get: complete, timed: true, want: 2},
		{name: "two failed", samples: []FarSample{ok(1), {}, {}}, get: complete, timed: true, want: math.Inf(1)},
		{name: "bytes skip failed", samples: []FarSample{ok(1), {BytesDown: 99}, ok(3)}, get: down, want: 20},
	} {
		if got := farMedian(tc.samples, tc.get, tc.timed); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
