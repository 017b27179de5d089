package watch

// WithCells returns a copy of r whose cells are cells, for a view that shows rows with cells of its own (a
// NAMESPACE or KIND cell added, columns merged): the copy's search text, which Filter reads, is made from
// cells, leaving out the Age cell at ageCell (-1 for none) as the Source's own rows leave it out. cells must
// not be modified afterwards; r is not changed.
func (r *Row) WithCells(cells []string, ageCell int) *Row {
	c := *r
	c.Cells = cells
	c.text = searchText(cells, ageCell)
	return &c
}
