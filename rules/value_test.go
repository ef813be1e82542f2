package rules

import (
	"math"
	"testing"
	"time"
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
