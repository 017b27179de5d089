// Package treeview is the tree screen (`t` on an object): its owners up to the root and everything it owns,
// found through the ownerReferences of every object of every kind the user may list, with each one's health
// (as kstatus computes it) and age, live. It implements ui.Screen, asks the app for what ui.Navigator offers
// and takes what else it needs as arguments of New (the app's opener of an object's YAML view, its lookup of
// a kind's resource, from ui.Session); it declares itself in Spec (its key on objects and its own keys), which
// the program registers in ui.Options.Registered (one line), and ui never imports it.
// The tree itself (the lists and watches, the layout) is package tree's; this package draws it.
package treeview
