package ui

import (
	"errors"

	"kscope/cluster"
	"kscope/tree"
)

// NewChangeSource serves no metadata (the changes screen, package ui/changes, is tested there over a fake
// metadata API, and is a stub in ui's tests).
func (c *fakeCluster) NewChangeSource([]tree.Kind, []string) (cluster.ChangeSource, error) {
	return nil, errors.New("the fake cluster serves no metadata API")
}
