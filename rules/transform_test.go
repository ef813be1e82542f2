package rules

import (
	"strings"
	"testing"
	"unsafe"
)

func TestTransforms(t *testing.T) {
	tests := []struct {
		name, rule string
		in, want   string
		grows      bool // the result is new text in the buffer
	}{
		{"trim spaces", "trim", "  a b \t\n", "a b", false},
		{"trim nothing", "trim", "ab", "ab", false},
		{"trim Unicode space", "trim", "\u3000x\u00a0", "x", false},
		{"trim all", "trim", "   ", "", false},
		{"lower ASCII", "lower", "MiXeD 1", "mixed 1", true},
		{"lower already", "lower", "lower 1", "lower 1", false},
		{"lower Unicode", "lower", "ÉCOLE Ω", "école ω", true},
		{"lower invalid UTF-8", "lower", "A\xff", "a\ufffd", true},
		{"upper ASCII", "upper", "abc-1", "ABC-1", true},
		{"upper already", "upper", "ABC", "ABC", false},
		{"upper Unicode", "upper", "straße", "STRAßE", true},
		{"upper empty", "upper", "", "", false},
	}
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := set.Lookup(tt.rule)
			tr, err := d.Transform(nil, String)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, 64)
			v, out, err := tr.Transform(StringValue(tt.in), buf)
			if err != nil || v.Kind != String || v.Str != tt.want {
				t.Fatalf("Transform(%q) = %#v, %v; want %q", tt.in, v, err, tt.want)
			}
			if got := len(out) > 0; got != tt.grows {
				t.Errorf("Transform(%q) wrote %d bytes to the buffer, want new text: %v", tt.in, len(out), tt.grows)
			}
			s, _ := tr.(StringTransformer).TransformString(tt.in, buf)
			if s != tt.want {
				t.Errorf("TransformString(%q) = %q, want %q", tt.in, s, tt.want)
			}
			if strings.ToLower(tt.in) != tt.want && tt.rule == "lower" && strings.ToValidUTF8(tt.in, "") == tt.in {
				t.Errorf("lower(%q) = %q, strings.ToLower says %q", tt.in, tt.want, strings.ToLower(tt.in))
			}
		})
	}
}

// TestTransformsAppend: a transform appends after what the buffer holds,
// so that the value it was given, which may view the buffer (a transform
// before it), stays as it was.
func TestTransformsAppend(t *testing.T) {
	set := Builtin()
	lower, _ := set.Lookup("lower")
	upper, _ := set.Lookup("upper")
	lt, _ := lower.Transform(nil, String)
	ut, _ := upper.Transform(nil, String)
	buf := make([]byte, 0, 4) // too small: the second append grows it
	v1, buf, _ := lt.Transform(StringValue("ABC"), buf)
	v2, buf, _ := ut.Transform(v1, buf)
	if v1.Str != "abc" || v2.Str != "ABC" {
		t.Errorf("lower then upper = %q then %q, want abc then ABC", v1.Str, v2.Str)
	}
	if len(buf) != 6 {
		t.Errorf("the buffer holds %d bytes, want both results (6)", len(buf))
	}
	if unsafe.StringData(v2.Str) == unsafe.StringData(v1.Str) {
		t.Error("the second result overwrote the first")
	}
}

func TestTransformOtherKinds(t *testing.T) {
	set := Builtin()
	for _, name := range []string{"trim", "lower", "upper"} {
		d, _ := set.Lookup(name)
		tr, _ := d.Transform(nil, Any)
		for _, v := range []Value{IntValue(1), BoolValue(true), {Kind: List, Len: 2}} {
			got, buf, err := tr.Transform(v, nil)
			if err != nil || got != v || buf != nil {
				t.Errorf("%s(%#v) = %#v, %q, %v: want it unchanged", name, v, got, buf, err)
			}
		}
	}
}

func TestTransformArgs(t *testing.T) {
	d, _ := Builtin().Lookup("trim")
	if _, err := d.Transform([]string{"x"}, String); err == nil || err.Error() != "trim: takes 0 arguments, got 1" {
		t.Errorf("trim x: error %v", err)
	}
}

// TestTransformAllocs: a string that a transform leaves as it is
// costs nothing, nor does one it changes into a buffer with room.
func TestTransformAllocs(t *testing.T) {
	set := Builtin()
	buf := make([]byte, 0, 64)
	for _, name := range []string{"trim", "lower", "upper"} {
		d, _ := set.Lookup(name)
		tr, _ := d.Transform(nil, String)
		st := tr.(StringTransformer)
		if n := testing.AllocsPerRun(100, func() { st.TransformString(" Mixed Case ", buf) }); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}
