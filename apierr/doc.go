// Package apierr sorts the errors of Kubernetes API requests into the few classes kscope reacts to: an
// error no retry can fix (the user may not make the request, the resource is not served, it does not support
// the verb, the server refused the credentials, or refused the request itself as bad: a field selector
// naming a field the resource cannot be selected by) or one worth retrying (the server unreachable, a timeout,
// 410 Gone, 429, a 5xx).
//
// It is a package of its own, below both watch and discovery, because both must give the same answer for the
// same error (a live table and the catalog's live refresh must not disagree on whether to retry) and neither
// may import the other: watch sits above discovery (ui → watch → discovery), and discovery must not depend on
// the row machinery of watch. apierr imports only apimachinery, so anything in kscope may use it.
package apierr
