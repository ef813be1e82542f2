package rules

import "testing"

// BenchmarkIsEmail times the email rule's scanner on typical addresses.
func BenchmarkIsEmail(b *testing.B) {
	addrs := []string{"maachang12@example2.com", "saito@maachang.com", "a.very.long.local-part+tag@sub.domain.example.org"}
	for b.Loop() {
		for _, a := range addrs {
			if !isEmail(a) {
				b.Fatal(a)
			}
		}
	}
}
