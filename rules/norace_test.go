//go:build !race

package rules

// raceEnabled reports whether the race detector is on. Under it sync.Pool
// drops a share of what is put back, so code that allocates nothing once
// its pools are warm (regexp's matchers) allocates now and then.
const raceEnabled = false
