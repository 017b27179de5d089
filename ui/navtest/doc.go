// Package navtest is a ui.Navigator for the unit tests of screens that live in packages of their own: it
// records what a screen pushes and says, runs the screen's goroutines and UI updates under one lock (the
// test's stand-in for the UI goroutine), and hands out a fixed theme, a fake clock and the cluster a test
// gives. The dialogs a screen opens (Ask, Choose) wait for the test to answer them (Answer, Pick); what it
// copies or saves is recorded, not written (Copied, Saved); Press delivers a key as the app does. It draws
// nothing: a screen's integration with the app is tested by the e2e tests, which run the real program.
package navtest
