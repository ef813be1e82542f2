package schema_test

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
	"github.com/expose-go/expose/rules"
)

// sampleRegistry declares the flag admin, the rule `upc` (twelve digits,
// with a Sample hook) and the format `stars` (a number as that many "*").
func sampleRegistry(t *testing.T, opts ...entity.RegistryOption) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry(opts...)
	err := errors.Join(
		reg.DeclareFlags("admin"),
		reg.RegisterRule(rules.Def{Name: "upc", Types: rules.Kinds(rules.String),
			Compile: func([]string, rules.Kind) (rules.Checker, error) {
				return rules.CheckFunc(func(v rules.Value) error {
					if len(v.Str) != 12 || strings.Trim(v.Str, "0123456789") != "" {
						return errors.New("is no UPC")
					}
					return nil
				}), nil
			},
			Sample: func([]string, rules.Kind) any { return "036000291452" }}),
		reg.RegisterFormat("stars", rules.Kinds(rules.Int), func(v rules.Value, _ []string) (any, error) {
			return strings.Repeat("*", int(v.Int)), nil
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestSample(t *testing.T) {
	decl := []string{
		"id", "number", "readonly",
		"name", "string", "req | rename 'userName'",
		"password", "string", "writeonly | secret | min 8 | default 'hunter22'",
		"tenant", "string", "header 'X-Tenant'",
		"code", "string", "upc",
		"rating", "number", "range 1 5 | format stars",
		"score", "number", "if 'admin'",
		"label", "string", "until 'v2'",
		"label", "number", "since 'v2'",
		"address", "{", "",
		"home_city", "string", "lower",
		"address", "}", "",
	}
	tests := []struct {
		name string
		reg  []entity.RegistryOption
		mode schema.Mode
		opts []entity.Option
		want string
	}{
		{"a response: no writeonly field, rule and format samples", nil, schema.Response, nil,
			`{"id":1,"userName":"sample","tenant":"sample","code":"036000291452","rating":"*","label":1,"address":{"home_city":"sample"}}`},
		{"a request: no readonly field nor parameter, no secret default", nil, schema.Request, nil,
			`{"userName":"sample","password":"aaaaaaaa","code":"036000291452","rating":1,"label":1,"address":{"home_city":"sample"}}`},
		{"a patch is the request body", nil, schema.Patch, nil,
			`{"userName":"sample","password":"aaaaaaaa","code":"036000291452","rating":1,"label":1,"address":{"home_city":"sample"}}`},
		{"the call's flags and version", nil, schema.Response, []entity.Option{entity.With("admin"), entity.Version("v1")},
			`{"id":1,"userName":"sample","tenant":"sample","code":"036000291452","rating":"*","score":1,"label":"sample","address":{"home_city":"sample"}}`},
		{"a request of a version", nil, schema.Request, []entity.Option{entity.Version("v1")},
			`{"userName":"sample","password":"aaaaaaaa","code":"036000291452","rating":1,"label":"sample","address":{"home_city":"sample"}}`},
		{"options that shape nothing are ignored", nil, schema.Response, []entity.Option{entity.Select("id"), entity.Strict()},
			`{"id":1,"userName":"sample","tenant":"sample","code":"036000291452","rating":"*","label":1,"address":{"home_city":"sample"}}`},
		{"the registry's key case", []entity.RegistryOption{entity.KeyCase(entity.CamelCase)}, schema.Request, nil,
			`{"userName":"sample","password":"aaaaaaaa","code":"036000291452","rating":1,"label":1,"address":{"homeCity":"sample"}}`},
		{"a mode that is none", nil, schema.Mode(9), nil, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := expose(t, sampleRegistry(t, tt.reg...), "user", decl...)
			if got := string(schema.Sample(e, tt.mode, tt.opts...)); got != tt.want {
				t.Errorf("Sample(%v):\n got %s\nwant %s", tt.mode, got, tt.want)
			}
		})
	}
	for _, m := range []schema.Mode{schema.Response, schema.Request, schema.Patch} {
		if got := string(schema.Sample(nil, m)); got != "null" {
			t.Errorf("Sample(nil, %v) = %s, want null", m, got)
		}
	}
}

// TestSampleIsMade: a request of the Request sample, refusing unknown
// keys, makes the Response sample.
func TestSampleIsMade(t *testing.T) {
	reg := sampleRegistry(t)
	expose(t, reg, "item",
		"sku", "string", "req | upc",
		"qty", "number", "range 1 99",
		"note", "string", "writeonly | max 10",
	)
	e := expose(t, reg, "order",
		"items", "[]$item", "min 1",
		"when", "date", "req",
		"rating", "number", "format stars",
	)
	in := schema.Sample(e, schema.Request)
	r := httptest.NewRequest("POST", "/", bytes.NewReader(in))
	r.Header.Set("Content-Type", "application/json")
	o, err := e.MakeRequest(r, entity.DenyUnknown())
	if err != nil {
		t.Fatalf("MakeRequest(%s): %v", in, err)
	}
	if got, want := o.String(), string(schema.Sample(e, schema.Response)); got != want {
		t.Errorf("MakeRequest(%s) made\n %s\nnot the Response sample\n %s", in, got, want)
	}
}

// TestSampleHoldsNoParameter: a request's sample body holds no parameter
// field at any depth: the top level's (those of an entity merged there
// too) are read from the request, a nested object's are the server's.
func TestSampleHoldsNoParameter(t *testing.T) {
	reg := sampleRegistry(t)
	expose(t, reg, "account", "id", "number", "path", "X-Tenant", "string", "", "name", "string", "")
	e := expose(t, reg, "holder",
		"title", "string", "",
		"acct", "$account", "merge",
		"owner", "$account", "",
		"meta", "{", "",
		"inner", "$account", "merge",
		"meta", "}", "",
	)
	tests := []struct {
		name string
		mode schema.Mode
		want string
	}{
		{"a request", schema.Request, `{"title":"sample","name":"sample","owner":{"name":"sample"},"meta":{"name":"sample"}}`},
		{"a patch", schema.Patch, `{"title":"sample","name":"sample","owner":{"name":"sample"},"meta":{"name":"sample"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(schema.Sample(e, tt.mode)); got != tt.want {
				t.Errorf("Sample(%v):\n got %s\nwant %s", tt.mode, got, tt.want)
			}
		})
	}
}
