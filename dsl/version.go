package dsl

import "strconv"

// MaxVersionParts is how many numbers a version has at most.
const MaxVersionParts = 4

// A Version is an API version, as `since 'v2'` and `until 'v3'` name one
// and a call asks for one: an optional v or V, then at most 4 dotted
// decimal numbers of at most 9 digits each (v2, 2.1, v2.10). Numbers
// compare numerically and missing ones are 0: v2 is v2.0. The zero
// Version is no version.
type Version struct {
	part [MaxVersionParts]uint32
	set  bool
}

// ParseVersion reads a version; ok is false for text that is none (the
// empty string among them).
func ParseVersion(s string) (v Version, ok bool) {
	if s != "" && (s[0] == 'v' || s[0] == 'V') {
		s = s[1:]
	}
	n, digits := 0, 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if digits == 0 || i < len(s) && n+1 == MaxVersionParts {
				return Version{}, false
			}
			n, digits = n+1, 0
			continue
		}
		c := s[i] - '0'
		if c > 9 || digits == 9 {
			return Version{}, false
		}
		v.part[n] = v.part[n]*10 + uint32(c)
		digits++
	}
	v.set = true
	return v, true
}

// IsSet reports whether v is a version (not the zero Version).
func (v Version) IsSet() bool { return v.set }

// Parts returns v's numbers, the missing ones 0.
func (v Version) Parts() [MaxVersionParts]uint32 { return v.part }

// Compare returns -1, 0 or +1 as v is before, the same as or after w.
func (v Version) Compare(w Version) int {
	for i := range v.part {
		switch {
		case v.part[i] < w.part[i]:
			return -1
		case v.part[i] > w.part[i]:
			return 1
		}
	}
	return 0
}

// String returns v in its canonical form: "v" and its numbers without the
// trailing zeros ("v2" for 2.0.0, "v2.1" for V2.01).
func (v Version) String() string {
	n := len(v.part)
	for n > 1 && v.part[n-1] == 0 {
		n--
	}
	b := []byte{'v'}
	for i := range n {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendUint(b, uint64(v.part[i]), 10)
	}
	return string(b)
}
