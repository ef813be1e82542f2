package jsontape

import (
	"runtime"
	"strings"
	"testing"
)

// tapeBytesPerByte is what the validator's tape may allocate in all, per
// byte of input, whatever the input: one int32 per byte at most (see the
// tape in the package doc), in one allocation, plus tapeSlack.
const tapeBytesPerByte = 4

// tapeSlack is the room for the brackets that invalid input may leave
// open (two words each, at most MaxNesting of them), and a page that
// a large allocation is rounded up to.
const tapeSlack = 8*MaxNesting + 8<<10

// memoryInputs are inputs of about 1 MiB of the shapes that need the most
// tape per byte, valid and not.
func memoryInputs() []struct {
	name, in string
	small    bool // so few literals and containers that the tape is at most tapeSlack
} {
	const size = 1 << 20
	// fill repeats unit between head and tail, separated by sep, to about size bytes.
	fill := func(head, unit, sep, tail string) string {
		n := (size - len(head) - len(tail)) / (len(unit) + len(sep))
		return head + strings.Repeat(unit+sep, n-1) + unit + tail
	}
	const deep = MaxNesting - 1
	nested := strings.Repeat("[", deep) + strings.Repeat("]", deep)
	nestedObj := strings.Repeat(`{"":`, deep/4) + "0" + strings.Repeat("}", deep/4)
	type input = struct {
		name, in string
		small    bool
	}
	return []input{
		{"empty objects in a list in an object", fill(`{"items":[`, "{}", ",", "]}"), false},
		{"empty arrays", fill("[", "[]", ",", "]"), false},
		{"empty strings", fill("[", `""`, ",", "]"), false},
		{"empty keys and strings", fill("{", `"":""`, ",", "}"), false},
		{"strings with escapes", fill("[", `"\""`, ",", "]"), false},
		{"mixed", fill("[", `{},[],"",0,{"":[]}`, ",", "]"), false},
		{"nested arrays", fill("[", nested, ",", "]"), false},
		{"nested arrays without commas", fill("[", nested, "", "]")[:size/2] + "]", false},
		{"nested objects", fill("[", nestedObj, ",", "]"), false},
		{"white space", fill("[", " [ ] ", ",", "]"), false},
		{"numbers", fill("[", "0", ",", "]"), true},
		{"unclosed empty objects", fill("[", "{}", ",", ""), false},
		{"unclosed nested arrays", fill("[", nested, ",", "") + strings.Repeat("[", deep), false},
		{"too deep", strings.Repeat("[", size), true},
		{"quotes in a string", `["` + strings.Repeat(`\"`, size/2) + `"]`, false},
		{"brackets in a string", `["` + strings.Repeat(`[`, size) + `"]`, true},
		{"closing brackets in a string", `["` + strings.Repeat(`]}`, size/2) + `"]`, true},
		{"invalid at the end", fill("[", "{}", ",", "]x"), false},
	}
}

// TestScanJSONMemory measures what scanning about 1 MiB of each shape
// allocates, from an empty tape and from one a small document left: at
// most tapeBytesPerByte a byte. (The race detector allocates too: not
// measured under it.)
func TestScanJSONMemory(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector allocates")
	}
	for _, tt := range memoryInputs() {
		for _, from := range []string{"empty", "used"} {
			t.Run(tt.name+"/"+from, func(t *testing.T) {
				var tape []int32
				if from == "used" {
					Scan(`[{"a":"b"},[1,2],{},"c"]`, MaxNesting, &tape)
				}
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				got, _ := Scan(tt.in, MaxNesting, &tape)
				runtime.ReadMemStats(&after)
				alloc := after.TotalAlloc - before.TotalAlloc
				perByte := float64(alloc) / float64(len(tt.in))
				t.Logf("%d bytes, %v: %d entries, %d allocated, %.2f bytes a byte", len(tt.in), got, len(tape), alloc, perByte)
				if limit := tapeBytesPerByte*uint64(len(tt.in)) + tapeSlack; alloc > limit {
					t.Errorf("Scan allocated %d bytes for %d bytes of input (%.2f a byte), want at most %d a byte", alloc, len(tt.in), perByte, tapeBytesPerByte)
				}
				if tt.small && alloc > tapeSlack {
					t.Errorf("Scan allocated %d bytes for %d entries, want at most %d", alloc, len(tape), tapeSlack)
				}
			})
		}
	}
}
