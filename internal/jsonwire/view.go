package jsonwire

import "unsafe"

// View views b as a string without copying. The string must not outlive
// the call that reads it, nor be kept after b changes.
func View(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
