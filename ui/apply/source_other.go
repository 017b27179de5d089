//go:build !unix

package apply

// openFlag is nothing to add where opening a file never waits for a writer.
const openFlag = 0

// entryFlag is nothing to add: the fstat after the open refuses what is not a regular file.
const entryFlag = 0
