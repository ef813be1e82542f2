package entity

// CachedMasks returns how many selections e keeps compiled, for the
// cache's bound to be tested.
func CachedMasks(e *Entity) int {
	e.masks.mu.RLock()
	defer e.masks.mu.RUnlock()
	return len(e.masks.m)
}
