package entity_test

import (
	"fmt"
	"strings"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// digitsOnly is a transform that keeps the digits of a string. It is a
// rules.StringTransformer too, so its fields keep the fast path; it
// appends what it keeps to buf instead of allocating.
type digitsOnly struct{}

func (digitsOnly) TransformString(s string, buf []byte) (string, []byte) {
	if strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
		return s, buf // nothing to drop
	}
	start := len(buf)
	for i := 0; i < len(s); i++ {
		if '0' <= s[i] && s[i] <= '9' {
			buf = append(buf, s[i])
		}
	}
	return string(buf[start:]), buf
}

func (d digitsOnly) Transform(v rules.Value, buf []byte) (rules.Value, []byte, error) {
	if v.Kind != rules.String {
		return v, buf, nil
	}
	s, buf := d.TransformString(v.Str, buf)
	return rules.StringValue(s), buf, nil
}

// A transform is registered as a rule is, with Transform instead of
// Compile. Transforms run before the checks, whatever their place.
func ExampleRegistry_RegisterRule_transform() {
	reg := entity.NewRegistry()
	err := reg.RegisterRule(rules.Def{
		Name:  "digits",
		Types: rules.Kinds(rules.String),
		Transform: func([]string, rules.Kind) (rules.Transformer, error) {
			return digitsOnly{}, nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reg.RegisterRule(rules.Def{Name: "trim", Transform: func([]string, rules.Kind) (rules.Transformer, error) { return digitsOnly{}, nil }}))

	e := reg.MustExpose("contact",
		"tel", "string", "len 10 | digits",
		"mail", "string", "trim | lower | email",
	)
	out, err := e.MakeJSON(map[string]any{"tel": "(555) 123-4567", "mail": " Ann@Example.COM "})
	fmt.Println(string(out), err)
	// Output:
	// rules: rule "trim" is a built-in rule: register yours under another name
	// {"tel":"5551234567","mail":"ann@example.com"} <nil>
}
