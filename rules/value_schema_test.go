package rules

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/textconv"
)

func TestKindSchema(t *testing.T) {
	tests := []struct {
		kind Kind
		want map[string]any
	}{
		{String, map[string]any{"type": "string"}},
		{Int, map[string]any{"type": "integer"}},
		{Float, map[string]any{"type": "number"}},
		{Bool, map[string]any{"type": "boolean"}},
		{Time, map[string]any{"type": "string", "format": "date-time"}},
		{List, map[string]any{"type": "array"}},
		{Object, map[string]any{"type": "object"}},
		{Any, map[string]any{}},
		{Kind(200), map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.kind.String(), func(t *testing.T) {
			if got := tt.kind.Schema(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Schema() = %v, want %v", got, tt.want)
			}
			got := tt.kind.Schema()
			got["x"] = 1
			if _, shared := tt.kind.Schema()["x"]; shared {
				t.Errorf("Schema() returns a shared map")
			}
		})
	}
}

// TestKindInputSchemaPatterns: the text forms of InputSchema match exactly
// the text that the conversions read (but for the range of int64, which
// no pattern says).
func TestKindInputSchemaPatterns(t *testing.T) {
	texts := []string{"", "0", "-0", "12", "007", "-3", "12.0", "12.00", "12.5", "1e3", "+1", " 1", "1.", ".5",
		"true", "FALSE", "On", "off", "1", "yes", "2024-01-15", "2024/1/5", "2024-02-30", "2024-01-15T12:30:00Z",
		"2024-01-15 12:30:00", "2024-01-15T12:30:00", "2024-01-15T12:30:00.5+09:00", "abc", "NaN", "-1.5e-3"}
	accepts := map[Kind]func(string) bool{
		Int: func(s string) bool {
			_, ok := textconv.ParseInt(s)
			return ok && !strings.ContainsAny(strings.TrimRight(s[strings.IndexByte(s+".", '.'):], "0"), "123456789")
		},
		Float: func(s string) bool { _, ok := textconv.ParseFloat(s); return ok },
		Bool:  func(s string) bool { _, ok := textconv.ParseBool(s); return ok },
		Time:  func(s string) bool { _, ok := textconv.ParseTime(s); return ok },
	}
	for k, accept := range accepts {
		var re *regexp.Regexp
		for _, alt := range k.InputSchema() {
			if alt["type"] == "string" {
				re = regexp.MustCompile(alt["pattern"].(string))
			}
		}
		if re == nil {
			t.Fatalf("%s: no text form in %v", k, k.InputSchema())
		}
		for _, s := range texts {
			if got, want := re.MatchString(s), accept(s); got != want {
				t.Errorf("%s: the pattern matches %q: %v, the conversion reads it: %v", k, s, got, want)
			}
		}
	}
}

func TestKindInputSchemaFirstIsOutput(t *testing.T) {
	for _, name := range TypeNames() {
		k, _ := LookupKind(name)
		in := k.InputSchema()
		if len(in) == 0 || in[0]["type"] != k.Schema()["type"] && k != Time {
			t.Errorf("%s: InputSchema()[0] = %v, want the type of %v", k, in, k.Schema())
		}
	}
}
