package schema_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// secretRefRegistry declares an entity "card" whose fields have values
// to hide (in, regex, default, example, a cross-field rule's values, a
// typed list's and a group's and a nested reference's), and "payment",
// which holds it under secret references (one object, a list, a merge)
// and once under a reference that is not secret.
func secretRefRegistry(t testing.TB) (payment, open *entity.Entity) {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "issuer", "bank", "string", "in 'zurich-vault' 'geneva-vault'")
	expose(t, reg, "card",
		"number", "string", "req | regex '^4[0-9]{15}zz$' | example '4111111111111111zz'",
		"kind", "string", "in 'visa-gold' 'amex-black' | default 'visa-gold'",
		"cvc", "string", "required_if 'kind' 'amex-black'",
		"tags", "[]string", "each 'in \"tag-quartz\"'",
		"meta", "{", "",
		"pin", "number", "in 4711 | example '4711'",
		"meta", "}", "",
		"issuer", "$issuer", "",
	)
	expose(t, reg, "extra", "note", "string", "regex '^memo-onyx$'")
	payment = expose(t, reg, "payment",
		"amount", "number", "req",
		"card", "$card", "secret",
		"cards", "[]$card", "secret",
		"extra", "$extra", "secret | merge",
	)
	open = expose(t, reg, "statement", "card", "$card", "")
	return payment, open
}

// hidden are the values of secretRefRegistry's entities that nothing made
// from a secret reference to them publishes.
var hidden = []string{"4[0-9]", "4111", "visa-gold", "amex-black", "tag-quartz", "4711", "zurich-vault", "memo-onyx"}

// TestSecretReferencePublishesNothingOfItsEntity: under a secret `$ref`
// (one object, a list, a merge) every field of the referenced entity, and
// of those it references, is secret in every document: its JSON Schemas
// in the three modes, the OpenAPI components and document, and the
// warnings hold none of their in values, patterns, defaults, examples or
// cross-field values; the same entity under a reference that is not
// secret keeps them.
func TestSecretReferencePublishesNothingOfItsEntity(t *testing.T) {
	payment, open := secretRefRegistry(t)
	docs := map[string][]byte{}
	for _, mode := range []schema.Mode{schema.Response, schema.Request, schema.Patch} {
		b, err := schema.JSON(payment, mode)
		if err != nil {
			t.Fatal(err)
		}
		docs["JSON "+mode.String()] = b
	}
	c := schema.NewComponents()
	for _, mode := range []schema.Mode{schema.Response, schema.Request, schema.Patch} {
		if _, err := c.Ref(payment, mode); err != nil {
			t.Fatal(err)
		}
	}
	docs["components"], _ = c.MarshalJSON()
	doc, err := schema.OpenAPI(schema.Info{Title: "t", Version: "1"}, []schema.Route{
		{Method: "POST", Path: "/payments", Request: payment, Response: payment},
		{Method: "PATCH", Path: "/payments", Request: payment, Response: payment},
	})
	if err != nil {
		t.Fatal(err)
	}
	docs["openapi"] = doc
	docs["warnings"] = []byte(strings.Join(schema.Warnings(payment), "\n"))
	for what, text := range docs {
		for _, v := range hidden {
			if bytes.Contains(text, []byte(v)) {
				t.Errorf("the %s publishes %q under a secret reference:\n%s", what, v, text)
			}
		}
	}
	for _, want := range []string{`"card.secret"`, `"card.request.secret"`, `"issuer.secret"`, `"card.patch.secret"`} {
		if !bytes.Contains(docs["components"], []byte(want)) {
			t.Errorf("the components have no %s:\n%s", want, docs["components"])
		}
	}

	// The same entity, under a reference that is not secret, says it all.
	b, err := schema.JSON(open, schema.Response)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"visa-gold", "tag-quartz", "4711", "zurich-vault", "4111"} {
		if !bytes.Contains(b, []byte(v)) {
			t.Errorf("the schema of a reference that is not secret lacks %q:\n%s", v, b)
		}
	}
}
