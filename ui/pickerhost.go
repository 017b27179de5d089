package ui

import (
	"kscope/discovery"
	"kscope/ui/picker"
	"kscope/ui/theme"
)

// pickerHost is the app as the resource picker's host (picker.Host). UI goroutine.
type pickerHost struct{ *App }

var _ picker.Host = pickerHost{}

// Theme implements picker.Host.
func (h pickerHost) Theme() *theme.Theme { return h.theme }

// StatusChanged implements picker.Host.
func (h pickerHost) StatusChanged() {
	if v := h.top(); v != nil {
		h.UpdateStatus(v)
	}
}

// Resources implements picker.Host: the catalog's.
func (h pickerHost) Resources() []discovery.Resource { return h.cluster.Catalog().Resources() }

// Open implements picker.Host.
func (h pickerHost) Open(r discovery.Resource) { h.openTop(r) }
