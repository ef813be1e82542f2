//go:build race

package jsontape

// raceDetector reports whether the race detector is on: the exhaustive
// tests enumerate less under it, and allocations are not measured.
const raceDetector = true
