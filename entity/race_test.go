//go:build race

package entity_test

// raceEnabled reports whether the race detector is on: it allocates, so
// the allocation tests do not hold under it.
const raceEnabled = true
