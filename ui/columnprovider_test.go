package ui

// providerOf returns t's column provider of type P (the zero P when it has none). UI goroutine.
func providerOf[P columnProvider](t *LiveTable) P {
	for _, p := range t.providers {
		if p, ok := p.(P); ok {
			return p
		}
	}
	var none P
	return none
}
