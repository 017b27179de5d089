// Package files is what kscope writes for the user outside the cluster: the files ctrl-s saves, in a folder
// of kscope's that is private to the user (created 0700, a folder someone else could have planted refused, a
// new file each time), and the clipboard it writes through the terminal (OSC 52). It knows nothing of the UI;
// package ui's App calls it for Navigator's SaveFile and CopyToClipboard.
package files
