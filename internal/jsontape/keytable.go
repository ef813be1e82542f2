package jsontape

import "math/bits"

// KeyTable finds the slot of an input key in raw JSON: a small open
// addressing table built once per entity, cheaper per key than a Go map
// (no seeded hash of the whole key: its length and three of its bytes
// pick the bucket, one string comparison confirms).
type KeyTable struct {
	shift   uint8
	buckets []keyBucket
	Names   []string // the keys, by slot
}

type keyBucket struct {
	key  string
	slot int32 // 1 + the slot; 0 for an empty bucket
}

// NewKeyTable builds the table of slots (name → slot).
func NewKeyTable(slots map[string]int) KeyTable {
	size := 8
	for size < 4*len(slots) {
		size *= 2
	}
	t := KeyTable{shift: uint8(32 - bits.TrailingZeros(uint(size))), buckets: make([]keyBucket, size), Names: make([]string, len(slots))}
	for k, slot := range slots {
		t.Names[slot] = k
		i := t.bucket(k)
		for t.buckets[i].slot != 0 {
			i = (i + 1) & (len(t.buckets) - 1)
		}
		t.buckets[i] = keyBucket{key: k, slot: int32(slot) + 1}
	}
	return t
}

// bucket returns the first bucket to look in for k.
func (t *KeyTable) bucket(k string) int {
	h := uint32(len(k))
	if len(k) > 0 {
		h ^= uint32(k[0])<<8 ^ uint32(k[len(k)/2])<<16 ^ uint32(k[len(k)-1])<<24
	}
	return int((h * 0x9E3779B1) >> t.shift)
}

// Lookup returns the slot of k, or -1 when the table does not hold k.
func (t *KeyTable) Lookup(k string) int {
	if len(t.buckets) == 0 {
		return -1
	}
	for i := t.bucket(k); ; i = (i + 1) & (len(t.buckets) - 1) {
		b := &t.buckets[i]
		if b.slot == 0 {
			return -1
		}
		if b.key == k {
			return int(b.slot) - 1
		}
	}
}
