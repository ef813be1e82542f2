package textconv_test

import (
	"fmt"

	"github.com/expose-go/expose/internal/textconv"
)

func ExampleParseInt() {
	for _, s := range []string{"007", "-3.9", "1e5", "9223372036854775808"} {
		n, ok := textconv.ParseInt(s)
		fmt.Println(s, n, ok)
	}
	// Output:
	// 007 7 true
	// -3.9 -3 true
	// 1e5 0 false
	// 9223372036854775808 0 false
}

func ExampleParseTime() {
	for _, s := range []string{"2024-02-29T12:00:00+05:30", "2024/2/9", "2023-02-29"} {
		t, ok := textconv.ParseTime(s)
		fmt.Printf("%s: %v %t\n", s, t, ok)
	}
	// Output:
	// 2024-02-29T12:00:00+05:30: 2024-02-29 06:30:00 +0000 UTC true
	// 2024/2/9: 2024-02-09 00:00:00 +0000 UTC true
	// 2023-02-29: 0001-01-01 00:00:00 +0000 UTC false
}
