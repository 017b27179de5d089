// Package history holds what kscope knows of the versions of the objects it watches, apart from drawing
// them: the Book of full versions, who made each version (FieldOwners, LastWriter: decoded from
// managedFields with structured-merge-diff), what changed between two versions (ChangedPaths, Summarize, a
// row's cells) and the line diff of their YAML (DiffLines, FoldDiff, ChangedLines). It draws nothing and never
// imports the terminal interface (package ui), which shows its answers in the history, diff and blame views
// and the YAML view's highlight of the last update.
//
// Where versions come from: the YAML views' watches record each full object in one Book (Record: 50
// versions an object, 32 MB estimated in all, the oldest dropped first), and each table's source keeps its
// rows' versions (watch.Source.Versions: 50 a row, 5000 a table). Entries merges both for one object,
// oldest first, a row version only where no full version has its resourceVersion. An Entry names its writer
// (Writer: the managedFields entry new or changed since the version before) and what changed (Changes,
// Summary).
//
// Goroutine contracts: Book is safe for concurrent use (the views' watch goroutines record, the UI
// goroutine reads); the versions it returns share their objects, which nobody modifies. Everything else is
// plain values and functions of their arguments, safe to call from any goroutine; none blocks.
package history
