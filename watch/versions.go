package watch

// Versions returns the versions of the row with key that the source has seen change since it started, oldest
// first, bounded by RowVersionsPerObject and RowVersionsTotal (nil when the row has not changed). Only
// changes reported after the first list are recorded; the version before a row's first change comes first,
// with a zero Seen. Safe for concurrent use.
func (s *Source) Versions(key string) []RowVersion { return s.store.rowVersions(key) }

// Versions returns the versions of the row with key that Put has replaced, as Source.Versions does.
func (s *StaticSource) Versions(key string) []RowVersion { return s.store.rowVersions(key) }

// rowVersions returns key's recorded versions.
func (s *rowStore) rowVersions(key string) []RowVersion {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.history.versions(key)
}
