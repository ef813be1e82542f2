package entity

// CachedMasks returns how many selections e keeps compiled, for the
// cache's bound to be tested.
func CachedMasks(e *Entity) int {
	e.cache.masks.mu.RLock()
	defer e.cache.masks.mu.RUnlock()
	return len(e.cache.masks.m)
}

// SetServerErrors sets r's log hook of 500s, as Configure's ServerErrors
// option will.
func SetServerErrors(r *Registry, f func(id string, err error)) { r.setServerErrors(f) }
