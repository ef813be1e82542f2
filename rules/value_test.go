package rules

import (
	"math"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

func TestKindString(t *testing.T) {
	tests := []struct {
		name string
		k    Kind
		want string
	}{
		{"null", Null, "null"},
		{"string", String, "string"},
		{"int", Int, "number"},
		{"float", Float, "float"},
		{"bool", Bool, "bool"},
		{"time", Time, "date"},
		{"list", List, "list"},
		{"object", Object, "object"},
		{"any", Any, "none"},
		{"unknown", Kind(42), "kind(42)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.k.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKindSet(t *testing.T) {
	s := Kinds(String, Any)
	for k := Null; k <= Any; k++ {
		if got, want := s.Has(k), k == String || k == Any; got != want {
			t.Errorf("Kinds(String, Any).Has(%s) = %t, want %t", k, got, want)
		}
	}
	if Kinds().Has(String) {
		t.Errorf("empty set has String")
	}
}

func TestValueNumber(t *testing.T) {
	tests := []struct {
		name string
		v    Value
		want float64
		ok   bool
	}{
		{"int", IntValue(-3), -3, true},
		{"float", FloatValue(2.5), 2.5, true},
		{"string", StringValue("1"), 0, false},
		{"bool", BoolValue(true), 0, false},
		{"time", TimeValue(time.Unix(1, 0)), 0, false},
		{"null", Value{}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.v.Number()
			if got != tt.want || ok != tt.ok {
				t.Errorf("Number() = %g, %t; want %g, %t", got, ok, tt.want, tt.ok)
			}
		})
	}
	if f, ok := FloatValue(math.NaN()).Number(); !ok || !math.IsNaN(f) {
		t.Errorf("NaN Number() = %g, %t", f, ok)
	}
	if !(Value{}).IsNull() || IntValue(0).IsNull() {
		t.Errorf("IsNull wrong")
	}
}

func TestLookupKind(t *testing.T) {
	tests := []struct {
		name string
		want Kind
		ok   bool
	}{
		{"string", String, true}, {"TEXT", String, true},
		{"number", Int, true}, {"num", Int, true}, {"Int", Int, true}, {"integer", Int, true}, {"long", Int, true},
		{"float", Float, true}, {"double", Float, true},
		{"bool", Bool, true}, {"boolean", Bool, true}, {"flag", Bool, true},
		{"date", Time, true}, {"datetime", Time, true}, {"timestamp", Time, true},
		{"list", List, true}, {"array", List, true},
		{"object", Object, true}, {"map", Object, true}, {"json", Object, true},
		{"none", Any, true}, {"no", Any, true},
		{"null", Null, false}, {"", Null, false}, {"nums", Null, false}, {" num", Null, false}, {"{", Null, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := LookupKind(tt.name); got != tt.want || ok != tt.ok {
				t.Errorf("LookupKind(%q) = %v, %t; want %v, %t", tt.name, got, ok, tt.want, tt.ok)
			}
		})
	}
	// Every canonical name and alias reads back as its kind.
	for _, name := range TypeNames() {
		k, ok := LookupKind(name)
		if !ok || k.String() != name {
			t.Errorf("LookupKind(%q) = %v, %t", name, k, ok)
		}
		for _, a := range k.Aliases() {
			if got, ok := LookupKind(a); !ok || got != k {
				t.Errorf("LookupKind(%q) = %v, %t; want %v", a, got, ok, k)
			}
		}
	}
}

func TestKindZeroAndSample(t *testing.T) {
	tests := []struct {
		k            Kind
		zero, sample any
	}{
		{String, "", "sample"},
		{Int, int64(0), int64(1)},
		{Float, 0.0, 1.5},
		{Bool, false, true},
		{Time, time.Unix(0, 0).UTC(), time.Date(2024, 1, 15, 12, 30, 0, 0, time.UTC)},
		{List, []any{}, []any{int64(1)}},
		{Object, map[string]any{}, map[string]any{}},
		{Any, nil, "sample"},
		{Null, nil, nil},
		{Kind(42), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.k.String(), func(t *testing.T) {
			if got := tt.k.Zero(); !reflect.DeepEqual(got, tt.zero) {
				t.Errorf("Zero() = %#v, want %#v", got, tt.zero)
			}
			if got := tt.k.Sample(); !reflect.DeepEqual(got, tt.sample) {
				t.Errorf("Sample() = %#v, want %#v", got, tt.sample)
			}
		})
	}
	// Zero gives a new list and map each time.
	l := List.Zero().([]any)
	_ = append(l, 1)
	m := Object.Zero().(map[string]any)
	m["x"] = 1
	if len(Object.Zero().(map[string]any)) != 0 {
		t.Errorf("Object.Zero() is shared")
	}
}

// TestBuiltinRulesKeepNothing checks that no built-in rule keeps the
// string it is lent (see Value): each is given a Str that views a buffer,
// the buffer is then overwritten, as the entity package reuses its scratch
// space, and the rule's answer, error text included, must not change, nor
// its answer for the next value.
func TestBuiltinRulesKeepNothing(t *testing.T) {
	tests := []struct {
		name string
		rule string
		args []string
		in   string
	}{
		{"min passes", "min", []string{"3"}, "abcdef"},
		{"min fails", "min", []string{"3"}, "ab"},
		{"max passes", "max", []string{"3"}, "ab"},
		{"max fails", "max", []string{"3"}, "abcdef"},
		{"range passes", "range", []string{"1", "4"}, "abc"},
		{"range fails", "range", []string{"1", "4"}, "abcdef"},
		{"url passes", "url", nil, "https://example.com/a"},
		{"url fails", "url", nil, "not a url"},
		{"email passes", "email", nil, "a@example.com"},
		{"email fails", "email", nil, "a@"},
		{"date passes", "date", nil, "2024-02-29"},
		{"date fails", "date", nil, "2024-02-30"},
		{"time passes", "time", nil, "12:30"},
		{"time fails", "time", nil, "25:00"},
		{"regex passes", "regex", []string{"^[a-z]+$"}, "abc"},
		{"regex fails", "regex", []string{"^[a-z]+$"}, "ABC"},
		{"len passes", "len", []string{"3"}, "abc"},
		{"len fails", "len", []string{"3"}, "abcd"},
		{"in passes", "in", []string{"a", "b"}, "b"},
		{"in fails", "in", []string{"a", "b"}, "c"},
		{"num passes", "num", nil, "12.5"},
		{"num fails", "num", nil, "twelve"},
		{"float passes", "float", nil, "1e3"},
		{"float fails", "float", nil, "x"},
		{"bool passes", "bool", nil, "true"},
		{"bool fails", "bool", nil, "yes please"},
		{"timestamp passes", "timestamp", nil, "2024-02-29T12:30:45Z"},
		{"timestamp fails", "timestamp", nil, "yesterday"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		d, ok := Builtin().Lookup(tt.rule)
		if !ok {
			t.Fatalf("Lookup(%q): not found", tt.rule)
		}
		covered[d.Name] = true
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, tt.rule, String, tt.args...)
			buf := []byte(tt.in)
			lent := unsafe.String(unsafe.SliceData(buf), len(buf))
			err := c.Check(StringValue(lent))
			want := errText(err)
			for i := range buf {
				buf[i] = '#' // the scratch space, reused for the next value
			}
			if got := errText(err); got != want {
				t.Errorf("the error of %q reads %q once its bytes are reused, was %q", tt.in, got, want)
			}
			if got := errText(c.Check(StringValue(tt.in))); got != want {
				t.Errorf("after a value whose bytes were reused, %q gives %q, want %q", tt.in, got, want)
			}
			if sc, ok := c.(StringChecker); ok {
				if got := errText(sc.CheckString(tt.in)); got != want {
					t.Errorf("CheckString(%q) = %q, want %q", tt.in, got, want)
				}
			}
		})
	}
	for _, name := range Builtin().Names() {
		if d, _ := Builtin().Lookup(name); !covered[d.Name] && d.Transform == nil { // transforms: transform_test.go
			t.Errorf("built-in rule %q has no case here", d.Name)
		}
	}
}

// errText returns err's text, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
