package ui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

func TestTmpBurst(t *testing.T) {
	h := start(t, 160, 45, func(o *Options) { o.Resource = "pods" })
	src := h.cluster.lastSource()
	src.Put(benchRows(50000)...)
	h.refresh()
	h.sync()
	for round := 0; round < 2; round++ {
		t0 := time.Now()
		h.press(tcell.KeyRune, '/')
		t.Logf("open bar %v", time.Since(t0))
		for _, r := range "pod-02500" {
			t1 := time.Now()
			h.press(tcell.KeyRune, r)
			t.Logf("key %c %v", r, time.Since(t1))
		}
		t1 := time.Now()
		h.press(tcell.KeyEnter, 0)
		t.Logf("enter %v total %v", time.Since(t1), time.Since(t0))
		h.press(tcell.KeyEscape, 0)
		h.refresh()
	}
}
