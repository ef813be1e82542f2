//go:build race

package entity

// raceDetector reports whether the race detector is on: the exhaustive
// tests enumerate less under it.
const raceDetector = true
