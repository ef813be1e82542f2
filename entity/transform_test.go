package entity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// The transforms (entity/transform.go): trim, lower and upper change the
// value before the checks and the output holds what they return.

type transformStruct struct {
	Name string
	N    int
}

func TestTransforms(t *testing.T) {
	refs := map[string][]string{"u": {"mail", "string", "trim | lower"}}
	runDeclCases(t, refs, []declCase{
		{name: "trim", decl: []string{"Name", "string", "trim"}, in: `{"Name":"  Ann \t"}`,
			st: func() any { return transformStruct{Name: "  Ann \t"} }, out: `{"Name":"Ann"}`},
		{name: "lower", decl: []string{"Name", "string", "lower"}, in: `{"Name":"ÉCOLE"}`,
			st: func() any { return transformStruct{Name: "ÉCOLE"} }, out: `{"Name":"école"}`},
		{name: "upper", decl: []string{"Name", "string", "upper"}, in: `{"Name":"abc"}`,
			st: func() any { return transformStruct{Name: "abc"} }, out: `{"Name":"ABC"}`},
		{name: "upper from an escaped JSON string", decl: []string{"Name", "string", "upper"}, in: `{"Name":"a\u00e9\"b"}`, out: `{"Name":"AÉ\"B"}`},
		{name: "in order: trim then lower", decl: []string{"Name", "string", "trim | lower"}, in: `{"Name":" AB "}`, out: `{"Name":"ab"}`},
		{name: "lower then upper", decl: []string{"Name", "string", "lower | upper"}, in: `{"Name":"Ab"}`, out: `{"Name":"AB"}`},
		{name: "checks see the transformed value", decl: []string{"Name", "string", "len 3 | trim"}, in: `{"Name":"  abc  "}`, out: `{"Name":"abc"}`},
		{name: "in after lower", decl: []string{"Name", "string", "lower | in admin user"}, in: `{"Name":"ADMIN"}`, out: `{"Name":"admin"}`},
		{name: "a failing check of the transformed value", decl: []string{"Name", "string", "trim | min 2"}, in: `{"Name":" a "}`,
			st: func() any { return transformStruct{Name: " a "} }, fails: []string{"Name min"}},
		{name: "a number converted to a string, then upper", decl: []string{"N", "string", "upper"}, in: `{"N":12}`,
			st: func() any { return transformStruct{N: 12} }, out: `{"N":"12"}`},
		{name: "on a none field a string", decl: []string{"v", "none", "upper"}, in: `{"v":"x"}`, out: `{"v":"X"}`},
		{name: "on a none field a number passes unchanged", decl: []string{"v", "none", "upper"}, in: `{"v":1.5}`, out: `{"v":1.5}`},
		{name: "with rename", decl: []string{"Name", "string", "upper | rename n"}, in: `{"Name":"a"}`, out: `{"n":"A"}`},
		{name: "the default is transformed", decl: []string{"Name", "string", "upper | default abc"}, in: `{}`, out: `{"Name":"ABC"}`},
		{name: "absent with req", decl: []string{"Name", "string", "req | trim"}, in: `{}`, fails: []string{"Name required"}},
		{name: "trimmed to empty passes req", decl: []string{"Name", "string", "req | trim"}, in: `{"Name":"  "}`, out: `{"Name":""}`},
		{name: "in a group", decl: []string{"g", "{", "", "Name", "string", "upper", "g", "}", ""}, in: `{"Name":"a"}`, out: `{"g":{"Name":"A"}}`},
		{name: "under a reference", decl: []string{"u", "$u", ""}, in: `{"u":{"mail":" A@B.C "}}`, out: `{"u":{"mail":"a@b.c"}}`},
		{name: "under a list of references", decl: []string{"u", "$u", ""}, in: `{"u":[{"mail":"X"},{"mail":" Y"}]}`, out: `{"u":[{"mail":"x"},{"mail":"y"}]}`},
		{name: "strict", decl: []string{"Name", "string", "lower"}, in: `{"Name":"A"}`, strict: true, out: `{"Name":"a"}`},
		{name: "strict refuses before transforming", decl: []string{"Name", "string", "lower"}, in: `{"Name":1}`, strict: true, fails: []string{"Name type"}},
		{name: "two fields, one transformed", decl: []string{"a", "string", "upper", "b", "string", ""}, in: `{"a":"x","b":"y"}`, out: `{"a":"X","b":"y"}`},
	})
}

// A transform of the user's own: registered as a rule is, with Transform
// instead of Compile. It is not a StringTransformer, so its field takes
// the general path.
func TestTransformRegistered(t *testing.T) {
	reg := entity.NewRegistry()
	errEmpty := errors.New("is empty once its dashes are gone")
	err := reg.RegisterRule(rules.Def{Name: "nodash", Types: rules.Kinds(rules.String),
		Transform: func([]string, rules.Kind) (rules.Transformer, error) {
			return transformFunc(func(v rules.Value, buf []byte) (rules.Value, []byte, error) {
				s := strings.ReplaceAll(v.Str, "-", "")
				if s == "" {
					return v, buf, errEmpty
				}
				return rules.StringValue(s), buf, nil
			}), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterRule(rules.Def{Name: "boomx", Transform: func([]string, rules.Kind) (rules.Transformer, error) {
		return transformFunc(func(rules.Value, []byte) (rules.Value, []byte, error) { panic("boom") }), nil
	}}); err != nil {
		t.Fatal(err)
	}
	e := expose(t, reg, "t", "tel", "string", "nodash | len 4", "x", "string", "boomx")
	out, err := e.MakeJSON(map[string]any{"tel": "12-34"})
	if err != nil || string(out) != `{"tel":"1234","x":null}` {
		t.Errorf("got %s, %v", out, err)
	}
	_, err = e.MakeJSON([]byte(`{"tel":"--","x":"a"}`))
	var ve *entity.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != 2 {
		t.Fatalf("error %v, want two field errors", err)
	}
	if fe := ve.Fields[0]; fe.Path != "tel" || fe.Code != "nodash" || fe.Message != errEmpty.Error() {
		t.Errorf("first error %+v, want tel's nodash", fe)
	}
	if fe := ve.Fields[1]; fe.Path != "x" || fe.Code != "boomx" || fe.Message != "is not valid" {
		t.Errorf("second error %+v, want x's boomx, whose panic is not valid", fe)
	}
	if f := e.Fields()[0]; strings.Join(f.Rules, ",") != "nodash,len" {
		t.Errorf("Fields()[0].Rules = %q, want the transform listed with the checks", f.Rules)
	}
}

type transformFunc func(v rules.Value, buf []byte) (rules.Value, []byte, error)

func (f transformFunc) Transform(v rules.Value, buf []byte) (rules.Value, []byte, error) {
	return f(v, buf)
}

// TestTransformAllocs: a string field with transforms keeps the fast
// path: trimmed, lowered, checked and written without allocating.
func TestTransformAllocs(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts do not hold under the race detector or coverage")
	}
	reg := entity.NewRegistry()
	e := expose(t, reg, "t", "mail", "string", "trim | lower | email", "name", "string", "upper | max 20")
	in := map[string]any{"mail": " Ann@Example.COM ", "name": "ann"}
	buf := make([]byte, 0, 256)
	out, err := e.AppendJSON(buf, in)
	if err != nil || string(out) != `{"mail":"ann@example.com","name":"ANN"}` {
		t.Fatalf("got %s, %v", out, err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := e.AppendJSON(buf[:0], in); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("AppendJSON: %v allocations, want 0", n)
	}
}

// TestTransformsOnNoneBytes: on a none field, transforms change strings
// only: a []byte (directly, through a pointer, in a struct) passes as
// encoding/json writes it, base64 text, unchanged.
func TestTransformsOnNoneBytes(t *testing.T) {
	type withBytes struct {
		B []byte `json:"b"`
	}
	for _, tt := range []struct {
		name, rules string
		in          any
		want        string
	}{
		{"lower, a []byte", "lower", map[string]any{"b": []byte("AB")}, `{"b":"QUI="}`},
		{"upper, a pointer to a []byte", "upper", map[string]any{"b": stPtr([]byte("ab"))}, `{"b":"YWI="}`},
		{"trim, a struct's []byte", "trim", withBytes{[]byte(" a ")}, `{"b":"IGEg"}`},
		{"lower, a string still", "lower", map[string]any{"b": "QUI="}, `{"b":"qui="}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, entity.NewRegistry(), "e", "b", "none", tt.rules)
			if out, err := e.MakeJSON(tt.in); err != nil || string(out) != tt.want {
				t.Errorf("got %s, %v; want %s", out, err, tt.want)
			}
		})
	}
}
