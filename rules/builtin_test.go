package rules

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// checkTest is one value given to a compiled rule and the message it must
// fail with, or "" if it must pass.
type checkTest struct {
	name string
	v    Value
	want string
}

// compileTest is one use of a rule whose compilation must fail.
type compileTest struct {
	name string
	rule string
	args []string
	want string
}

// mustCompile looks name up in a built-in set and compiles it with args.
func mustCompile(t testing.TB, name string, declared Kind, args ...string) Checker {
	t.Helper()
	d, ok := Builtin().Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q): not found", name)
	}
	c, err := d.Compile(args, declared)
	if err != nil {
		t.Fatalf("%s %q: Compile: %v", name, args, err)
	}
	return c
}

// runChecks checks every value of tests with c.
func runChecks(t *testing.T, c Checker, tests []checkTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Check(tt.v)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check(%+v) = %q, want nil", tt.v, err)
			case tt.want != "" && err == nil:
				t.Errorf("Check(%+v) = nil, want %q", tt.v, tt.want)
			case tt.want != "" && err.Error() != tt.want:
				t.Errorf("Check(%+v) = %q, want %q", tt.v, err, tt.want)
			}
		})
	}
}

// runCompileErrors compiles every use of tests and checks the error.
func runCompileErrors(t *testing.T, tests []compileTest) {
	t.Helper()
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := set.Lookup(tt.rule)
			if !ok {
				t.Fatalf("Lookup(%q): not found", tt.rule)
			}
			c, err := d.Compile(tt.args, String)
			if err == nil {
				t.Fatalf("Compile(%q) = %v, nil; want error %q", tt.args, c, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Compile(%q) error = %q, want %q", tt.args, err, tt.want)
			}
		})
	}
}

func TestBuiltinDefs(t *testing.T) {
	tests := []struct {
		name             string
		lookup           string // as a user may write it
		canonical        string
		minArgs, maxArgs int
		types            KindSet
		stage            Stage
	}{
		{"min", "min", "min", 1, 1, Kinds(String, Int, Float, List, Any), Output},
		{"max upper case", "MAX", "max", 1, 1, Kinds(String, Int, Float, List, Any), Output},
		{"range", "range", "range", 2, 2, Kinds(String, Int, Float, List, Any), Output},
		{"minmax alias", "MinMax", "range", 2, 2, Kinds(String, Int, Float, List, Any), Output},
		{"url", "url", "url", 0, 0, Kinds(String, Any), Output},
		{"email", "Email", "email", 0, 0, Kinds(String, Any), Output},
		{"date", "date", "date", 0, 0, Kinds(String, Any), Output},
		{"time", "time", "time", 0, 0, Kinds(String, Any), Output},
		{"regex", "regex", "regex", 1, 1, Kinds(String, Any), Output},
		{"num", "num", "num", 0, 0, Kinds(String, Int, Float, Any), Output},
		{"number alias", "NUMBER", "num", 0, 0, Kinds(String, Int, Float, Any), Output},
		{"float", "float", "float", 0, 0, Kinds(String, Int, Float, Any), Output},
		{"bool", "bool", "bool", 0, 0, Kinds(String, Bool, Int, Any), Output},
		{"boolean alias", "boolean", "bool", 0, 0, Kinds(String, Bool, Int, Any), Output},
		{"timestamp", "timestamp", "timestamp", 0, 0, Kinds(String, Time, Int, Float, Any), Output},
		{"datetime alias", "DateTime", "timestamp", 0, 0, Kinds(String, Time, Int, Float, Any), Output},
	}
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := set.Lookup(tt.lookup)
			if !ok {
				t.Fatalf("Lookup(%q): not found", tt.lookup)
			}
			if d.Name != tt.canonical {
				t.Errorf("Name = %q, want %q", d.Name, tt.canonical)
			}
			if d.MinArgs != tt.minArgs || d.MaxArgs != tt.maxArgs {
				t.Errorf("args = %d..%d, want %d..%d", d.MinArgs, d.MaxArgs, tt.minArgs, tt.maxArgs)
			}
			if d.Types != tt.types {
				t.Errorf("Types = %b, want %b", d.Types, tt.types)
			}
			if d.Stage != tt.stage {
				t.Errorf("Stage = %d, want %d", d.Stage, tt.stage)
			}
			if d.Compile == nil {
				t.Errorf("Compile is nil")
			}
		})
	}
}

func TestBuiltinNames(t *testing.T) {
	want := []string{
		"bool", "boolean", "date", "datetime", "email", "float", "in", "len", "lower", "max", "min",
		"minmax", "num", "number", "range", "regex", "time", "timestamp", "trim", "upper", "url",
	}
	if got := Builtin().Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}

// TestBuiltinRejectedTypes checks the declared types each family leaves
// out, which the entity compiler reports as declaration errors.
func TestBuiltinRejectedTypes(t *testing.T) {
	tests := []struct {
		name string
		rule string
		kind Kind
	}{
		{"min on bool", "min", Bool},
		{"max on date", "max", Time},
		{"range on object", "range", Object},
		{"url on number", "url", Int},
		{"email on list", "email", List},
		{"regex on float", "regex", Float},
		{"num on bool", "num", Bool},
		{"bool on float", "bool", Float},
		{"timestamp on list", "timestamp", List},
	}
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := set.Lookup(tt.rule)
			if d.Types.Has(tt.kind) {
				t.Errorf("%s applies to %s", tt.rule, tt.kind)
			}
		})
	}
}

// hookArgs lists, for each built-in rule, the argument lists its hooks are
// tried with: every rule with arguments is tried with several.
var hookArgs = map[string][][]string{
	"min":       {{"3"}, {"0"}, {"-2"}, {"2.5"}, {"9007199254740993"}},
	"max":       {{"5"}, {"0"}, {"0.5"}, {"-3"}, {"-9223372036854775808"}},
	"range":     {{"2", "4"}, {"-1", "1"}, {"1.5", "2.5"}, {"3", "3"}, {"-10", "-5"}},
	"regex":     {{`^[A-Z]{3}-[0-9]{4}$`}, {`^[a-z0-9]+(-[a-z0-9]+)*$`}, {`[0-9]`}, {``}, {`(?i)^hello$`}, {`\bgo\b`}},
	"url":       {nil},
	"email":     {nil},
	"date":      {nil},
	"time":      {nil},
	"num":       {nil},
	"float":     {nil},
	"bool":      {nil},
	"timestamp": {nil},
	"len":       {{"0"}, {"1"}, {"3"}, {"12"}},
	"in":        {{"1"}, {"1", "2", "3"}, {"true", "false"}, {"2024-01-15", "2024-01-16T09:30:00Z"}, {"a", "b c"}},
	"trim":      {nil},
	"lower":     {nil},
	"upper":     {nil},
}

// noSample lists the uses whose Sample has no candidate: no length is
// below 0, and none is made beyond maxSampleLen.
var noSample = map[string]bool{
	"max/-3/string": true, "max/-3/list": true,
	"max/-9223372036854775808/string": true, "max/-9223372036854775808/list": true,
	"range/-10,-5/string": true, "range/-10,-5/list": true,
	"min/9007199254740993/string": true, "min/9007199254740993/list": true,
}

// valueOf turns a sample, a Go value of the kinds a Sample hook returns,
// into the Value a check is given.
func valueOf(t *testing.T, x any) Value {
	t.Helper()
	switch v := x.(type) {
	case string:
		return StringValue(v)
	case int64:
		return IntValue(v)
	case float64:
		return FloatValue(v)
	case bool:
		return BoolValue(v)
	case time.Time:
		return TimeValue(v)
	case []any:
		return Value{Kind: List, Len: len(v), Any: v}
	case map[string]any:
		return Value{Kind: Object, Len: len(v), Any: v}
	}
	t.Fatalf("sample %#v (%T) is of no kind a hook may return", x, x)
	return Value{}
}

// declaredKinds returns the declared kinds a Def applies to.
func declaredKinds(d Def) []Kind {
	var out []Kind
	for k := String; k <= Any; k++ {
		if d.Types == 0 || d.Types.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

// TestBuiltinSampleHooks: for every built-in rule, argument list and
// declared type it applies to, Sample gives a value of that type (any
// kind on none) that the compiled Checker passes.
func TestBuiltinSampleHooks(t *testing.T) {
	for _, d := range builtins() {
		if d.Sample == nil {
			t.Errorf("%s: no Sample hook", d.Name)
			continue
		}
		argLists, ok := hookArgs[d.Name]
		if !ok {
			t.Errorf("%s: no arguments in hookArgs", d.Name)
			continue
		}
		for _, args := range argLists {
			for _, k := range declaredKinds(d) {
				t.Run(d.Name+"/"+strings.Join(args, ",")+"/"+k.String(), func(t *testing.T) {
					c, err := compileHooked(d, args, k)
					if err != nil {
						if noCompile(d, args, k) {
							return // `in 1` on a bool field: no sample to make
						}
						t.Fatalf("Compile: %v", err)
					}
					x := d.Sample(args, k)
					if x == nil {
						if noSample[t.Name()[len("TestBuiltinSampleHooks/"):]] {
							return
						}
						t.Fatalf("Sample = nil")
					}
					v := valueOf(t, x)
					if k != Any && v.Kind != k {
						t.Fatalf("Sample = %#v, of kind %s", x, v.Kind)
					}
					if err := c.Check(v); err != nil {
						t.Errorf("Sample = %#v fails: %v", x, err)
					}
				})
			}
		}
	}
}

// schemaKeywords says, for each keyword a hook may give, what its value
// must be.
var schemaKeywords = map[string]func(any) bool{
	"minLength": nonNegativeInteger, "maxLength": nonNegativeInteger,
	"minItems": nonNegativeInteger, "maxItems": nonNegativeInteger,
	"minimum": isJSONNumber, "maximum": isJSONNumber, "exclusiveMaximum": isJSONNumber,
	"pattern": isPattern,
	"format":  func(v any) bool { s, ok := v.(string); return ok && (s == "uri" || s == "email") },
	"type":    isSchemaType,
	"enum":    func(v any) bool { l, ok := v.([]any); return ok && len(l) > 0 },
	// What the hook cannot say as a keyword (a regex ECMA-262 reads otherwise).
	"$comment":      func(v any) bool { s, ok := v.(string); return ok && s != "" },
	"minProperties": nonNegativeInteger, "maxProperties": nonNegativeInteger,
}

func init() { schemaKeywords["anyOf"] = isSchemaList } // it refers back to the table

func nonNegativeInteger(v any) bool {
	switch n := v.(type) {
	case int64:
		return n >= 0
	case float64:
		return n >= 0 && n == math.Trunc(n)
	}
	return false
}

func isJSONNumber(v any) bool {
	switch n := v.(type) {
	case int64:
		return true
	case float64:
		return !math.IsNaN(n) && !math.IsInf(n, 0)
	}
	return false
}

func isPattern(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	_, err := regexp.Compile(s)
	return err == nil
}

var schemaTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "array": true, "object": true, "null": true}

func isSchemaType(v any) bool {
	switch t := v.(type) {
	case string:
		return schemaTypes[t]
	case []any:
		for _, x := range t {
			if s, ok := x.(string); !ok || !schemaTypes[s] {
				return false
			}
		}
		return len(t) > 0
	}
	return false
}

func isSchemaList(v any) bool {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return false
	}
	for _, x := range l {
		m, ok := x.(map[string]any)
		if !ok || wellFormed(m) != "" {
			return false
		}
	}
	return true
}

// wellFormed returns "" when every keyword of m is known and has a value
// of the right form, else the first that does not.
func wellFormed(m map[string]any) string {
	for k, v := range m {
		valid, ok := schemaKeywords[k]
		if !ok || !valid(v) {
			return k
		}
	}
	return ""
}

// TestBuiltinSchemaHooks: every built-in rule's keywords are known JSON
// Schema keywords with values of the right form, encode as JSON, and are
// empty where the rule is Implied.
func TestBuiltinSchemaHooks(t *testing.T) {
	for _, d := range builtins() {
		if d.Transform != nil {
			if d.Schema != nil {
				t.Errorf("%s: a transform with a Schema hook: it changes values, it does not bound them", d.Name)
			}
			continue
		}
		if d.Schema == nil {
			t.Errorf("%s: no Schema hook", d.Name)
			continue
		}
		for _, args := range hookArgs[d.Name] {
			for _, k := range declaredKinds(d) {
				t.Run(d.Name+"/"+strings.Join(args, ",")+"/"+k.String(), func(t *testing.T) {
					m := d.Schema(args, k)
					if bad := wellFormed(m); bad != "" {
						t.Errorf("Schema = %v: keyword %q is unknown or ill-formed", m, bad)
					}
					if _, err := json.Marshal(m); err != nil {
						t.Errorf("Schema = %v: %v", m, err)
					}
					if d.Implied.Has(k) && len(m) > 0 {
						t.Errorf("Schema = %v on %s, where the rule is implied", m, k)
					}
				})
			}
		}
	}
}

func TestSchemaKeywords(t *testing.T) {
	tests := []struct {
		name     string
		rule     string
		args     []string
		declared Kind
		want     map[string]any
	}{
		{"min on a string", "min", []string{"3"}, String, map[string]any{"minLength": int64(3)}},
		{"min rounds lengths up", "min", []string{"2.5"}, String, map[string]any{"minLength": int64(3)}},
		{"min 0 on a string says nothing", "min", []string{"0"}, String, map[string]any{}},
		{"min on a number", "min", []string{"3"}, Int, map[string]any{"minimum": int64(3)}},
		{"min with decimals on a float", "min", []string{"-2.5"}, Float, map[string]any{"minimum": -2.5}},
		{"min exact beyond 2^53", "min", []string{"9007199254740993"}, Int, map[string]any{"minimum": int64(9007199254740993)}},
		{"min on a list", "min", []string{"2"}, List, map[string]any{"minItems": int64(2)}},
		{"min on none", "min", []string{"2"}, Any, map[string]any{"minLength": int64(2), "minItems": int64(2), "minimum": int64(2), "type": []any{"array", "number", "string"}}},
		{"max on a string", "max", []string{"5.5"}, String, map[string]any{"maxLength": int64(5)}},
		{"max below 0 on a string", "max", []string{"-1"}, String, map[string]any{"minLength": int64(1), "maxLength": int64(0)}},
		{"max on a number", "max", []string{"5"}, Float, map[string]any{"maximum": int64(5)}},
		{"max on a list", "max", []string{"5"}, List, map[string]any{"maxItems": int64(5)}},
		{"range on a string", "range", []string{"2", "4"}, String, map[string]any{"minLength": int64(2), "maxLength": int64(4)}},
		{"range on a number", "range", []string{"1.5", "2"}, Float, map[string]any{"minimum": 1.5, "maximum": int64(2)}},
		{"regex", "regex", []string{"^a+$"}, String, map[string]any{"pattern": "^a+$"}},
		{"regex on none", "regex", []string{"^a+$"}, Any, map[string]any{"pattern": "^a+$", "type": "string"}},
		{"regex rewritten for ECMA-262", "regex", []string{"^a.b$"}, String, map[string]any{"pattern": `^a[^\n]b$`}},
		{"regex with case folding", "regex", []string{"(?i)a"}, String, map[string]any{"pattern": "[Aa]"}},
		{"regex without an ECMA-262 form", "regex", []string{"(?m)^a"}, String, map[string]any{"$comment": "regex: not written as a pattern: its line anchors ((?m) ^ or $) have no ECMA-262 form without a flag"}},
		{"email", "email", nil, String, map[string]any{"pattern": emailPattern}},
		{"url", "url", nil, String, map[string]any{"pattern": urlPattern}},
		{"date", "date", nil, String, map[string]any{"pattern": datePattern}},
		{"time on none", "time", nil, Any, map[string]any{"pattern": clockPattern, "type": "string"}},
		{"num on a string", "num", nil, String, map[string]any{"pattern": floatTextPattern}},
		{"num on a number is implied", "num", nil, Int, nil},
		{"bool on a number", "bool", nil, Int, map[string]any{"enum": []any{int64(0), int64(1)}}},
		{"timestamp on a string", "timestamp", nil, String, map[string]any{"pattern": timestampPattern}},
		{"timestamp on a float", "timestamp", nil, Float, map[string]any{"minimum": -0x1p63, "exclusiveMaximum": 0x1p63}},
	}
	set := Builtin()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := set.Lookup(tt.rule)
			if got := d.Schema(tt.args, tt.declared); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Schema = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestBuiltinParams(t *testing.T) {
	want := map[string][]string{"min": {"min"}, "max": {"max"}, "range": {"min", "max"}, "regex": {"pattern"}}
	set := Builtin()
	for _, d := range builtins() {
		t.Run(d.Name, func(t *testing.T) {
			if len(d.Params) != d.MaxArgs && !(d.MaxArgs < 0 && len(d.Params) == d.MinArgs) {
				t.Errorf("Params = %q for %d arguments", d.Params, d.MaxArgs)
			}
			if w, ok := want[d.Name]; ok && !reflect.DeepEqual(d.Params, w) {
				t.Errorf("Params = %q, want %q", d.Params, w)
			}
			got, _ := set.Lookup(d.Name)
			if !reflect.DeepEqual(got.Params, d.Params) {
				t.Errorf("Lookup gives Params %q, want %q", got.Params, d.Params)
			}
		})
	}
}

func TestSampleRegex(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		ok      bool
	}{
		{"literal", `^abc$`, true},
		{"class", `^[A-Z]{3}-[0-9]{4}$`, true},
		{"negated class", `^[^a-zA-Z0-9]+$`, true},
		{"alternation", `^(cat|dog)s?$`, true},
		{"optional groups", `^[a-z0-9]+(-[a-z0-9]+)*$`, true},
		{"unanchored", `[0-9]`, true},
		{"empty", ``, true},
		{"any char", `^.{5}$`, true},
		{"case folding", `(?i)^hello$`, true},
		{"escapes", `^\d{3}\.\d{2}\s\w+$`, true},
		{"unicode class", `^\p{Greek}+$`, true},
		{"word boundary", `\bgo\b`, true},
		{"at least two", `^a{2,}$`, true},
		{"email-like", `^[a-z]+@[a-z]+\.[a-z]{2,}$`, true},
		{"large repeat", `^(?:a{1000}){1000}$`, false},
		{"bad pattern", `[`, false},
		{"empty class", `[^\x00-\x{10FFFF}]`, false},
		{"anchor in the middle", `a^b`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := sampleRegex(tt.pattern)
			if ok != tt.ok {
				t.Fatalf("sampleRegex = %q, %t; want ok %t", s, ok, tt.ok)
			}
			if ok && !regexp.MustCompile(tt.pattern).MatchString(s) {
				t.Errorf("sampleRegex = %q, which /%s/ does not match", s, tt.pattern)
			}
		})
	}
}

// TestRegisterParams: a Def may not name more arguments than it takes.
func TestRegisterParams(t *testing.T) {
	err := NewSet().Register(Def{Name: "in", MinArgs: 1, MaxArgs: 1, Params: []string{"a", "b"}, Compile: compileNothing})
	if want := `rules: rule "in": 2 Params for at most 1 arguments`; err == nil || err.Error() != want {
		t.Errorf("Register = %v, want %q", err, want)
	}
	if err := NewSet().Register(Def{Name: "in", MinArgs: 1, MaxArgs: -1, Params: []string{"values"}, Compile: compileNothing}); err != nil {
		t.Errorf("Register with variadic Params = %v", err)
	}
}

// compileHooked compiles a use of a built-in rule, a check or a transform,
// as the Checker its Sample must pass: a transform's sample is a value it
// leaves as it is.
func compileHooked(d Def, args []string, k Kind) (Checker, error) {
	if d.Transform == nil {
		return d.Compile(args, k)
	}
	tr, err := d.Transform(args, k)
	if err != nil {
		return nil, err
	}
	return CheckFunc(func(v Value) error {
		got, _, err := tr.Transform(v, nil)
		switch {
		case err != nil:
			return err
		case got != v:
			return fmt.Errorf("the transform changes the sample to %#v", got)
		}
		return nil
	}), nil
}

// noCompile reports the uses of hookArgs that are declaration errors:
// `in` with values that are not of the field's type.
func noCompile(d Def, args []string, k Kind) bool {
	_, err := compileIn(args, k)
	return d.Name == "in" && err != nil
}
