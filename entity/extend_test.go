package entity_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

func TestExtend(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "user", "POST",
		"id", "number", "",
		"name", "string", "req",
		"mail", "string", "email",
	)
	admin, err := reg.Extend("admin", "user",
		"mail", "", "unexpose",
		"role", "string", "default 'admin'",
	)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"id": 1, "name": "n", "mail": "m@x.io", "role": "root"}
	t.Run("base's fields, minus the unexposed, then its own", func(t *testing.T) {
		if out, err := shapeAll(t, admin, in); err != nil || out != `{"id":1,"name":"n","role":"root"}` {
			t.Errorf("got %s, %v", out, err)
		}
		_, err := admin.MakeJSON(map[string]any{})
		if fe := fieldErrors(t, err); len(fe) != 1 || fe[0].Path != "name" {
			t.Errorf("base's req: %v", err)
		}
	})
	t.Run("base's methods", func(t *testing.T) {
		if got := admin.Decl().Methods; len(got) != 1 || got[0] != "POST" {
			t.Errorf("methods %q", got)
		}
	})
	t.Run("exposing base again compiles the extension again", func(t *testing.T) {
		expose(t, reg, "user", "id", "number", "", "name", "string", "req", "mail", "string", "", "nick", "string", "")
		if out, err := reg.Lookup("admin").MakeJSON(in); err != nil || string(out) != `{"id":1,"name":"n","nick":null,"role":"root"}` {
			t.Errorf("got %s, %v", out, err)
		}
		if err := reg.Verify(); err != nil {
			t.Errorf("Check: %v", err)
		}
	})
	t.Run("extensions of extensions follow", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "")
		reg.MustExtend("b", "a", "y", "string", "")
		reg.MustExtend("c", "b", "z", "string", "")
		expose(t, reg, "a", "w", "string", "", "x", "string", "")
		if out, err := reg.Lookup("c").MakeJSON(map[string]any{"w": 1, "x": 2, "y": 3, "z": 4}); err != nil || string(out) != `{"w":"1","x":"2","y":"3","z":"4"}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
	t.Run("Expose of an extension's name ends it", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "")
		reg.MustExtend("b", "a", "y", "string", "")
		expose(t, reg, "b", "only", "string", "")
		expose(t, reg, "a", "x2", "string", "")
		if out, err := reg.Lookup("b").MakeJSON(map[string]any{}); err != nil || string(out) != `{"only":null}` {
			t.Errorf("got %s, %v", out, err)
		}
	})
}

func TestExtendErrors(t *testing.T) {
	for _, tt := range []struct {
		name, base string
		decl       []string
		err        string
	}{
		{"redeclared without unexpose", "user", []string{"name", "number", ""}, `field "name" is a field of "user": unexpose it first`},
		{"unexpose of nothing", "user", []string{"nope", "", "unexpose"}, `unexpose: "user" has no field "nope"`},
		{"unexpose with other rules", "user", []string{"name", "", "unexpose | req"}, "write it alone"},
		{"no base", "nobody", []string{"x", "string", ""}, `no entity "nobody" to extend`},
		{"itself", "ext", []string{"x", "string", ""}, "cannot extend itself"},
		{"a syntax error", "user", []string{"x", "nmber", ""}, `unknown type "nmber"`},
		{"unexpose then redeclare is fine", "user", []string{"name", "", "unexpose", "name", "number", ""}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "user", "name", "string", "")
			_, err := reg.Extend("ext", tt.base, tt.decl...)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("got %v, want %q", err, tt.err)
			}
		})
	}
	t.Run("a cycle of extensions", func(t *testing.T) {
		reg := entity.NewRegistry()
		expose(t, reg, "a", "x", "string", "")
		reg.MustExtend("b", "a", "y", "string", "")
		if _, err := reg.Extend("a", "b", "z", "string", ""); err == nil || !strings.Contains(err.Error(), "cannot extend itself") {
			t.Errorf("got %v", err)
		}
	})
}

// TestReExposeBaseRebuildsExtensions: exposing a base again compiles every
// extension of it (and theirs) in the same step: a field the base hides
// now is hidden by the extension at once, and when an extension no longer
// compiles the Expose fails, names it, and changes nothing.
func TestReExposeBaseRebuildsExtensions(t *testing.T) {
	newReg := func(t *testing.T) *entity.Registry {
		reg := entity.NewRegistry()
		expose(t, reg, "user", "id", "number", "", "mail", "string", "", "ssn", "string", "")
		reg.MustExtend("admin", "user", "mail", "", "unexpose", "role", "string", "")
		reg.MustExtend("root", "admin", "level", "number", "")
		return reg
	}
	in := map[string]any{"id": 1, "mail": "m", "ssn": "123", "role": "r", "level": 2}
	t.Run("a field hidden by the base is hidden by its extensions at once", func(t *testing.T) {
		reg := newReg(t)
		expose(t, reg, "user", "id", "number", "", "mail", "string", "", "ssn", "string", "writeonly")
		for name, want := range map[string]string{
			"admin": `{"id":1,"role":"r"}`,
			"root":  `{"id":1,"role":"r","level":2}`,
		} {
			if out, err := reg.Lookup(name).MakeJSON(in); err != nil || string(out) != want {
				t.Errorf("%s: got %s, %v; want %s", name, out, err, want)
			}
		}
		if err := reg.Verify(); err != nil {
			t.Errorf("Verify: %v", err)
		}
	})
	for _, tt := range []struct {
		name string
		decl []string
		want []string // in the error, each
	}{
		{"an unexposed field is gone", []string{"id", "number", "", "ssn", "string", ""},
			[]string{`entity "admin"`, `unexpose: "user" has no field "mail"`, `its extension "admin" would no longer compile`}},
		{"a field clashes with the extension's own", []string{"id", "number", "", "mail", "string", "", "role", "string", ""},
			[]string{`field "role" is a field of "user"`, `its extension "admin" would no longer compile`}},
		{"an extension of an extension no longer fits", []string{"id", "number", "", "mail", "string", "", "level", "string", ""},
			[]string{`entity "root"`, `field "level" is a field of "admin"`, `"root", which extends "admin", would no longer compile`}},
	} {
		t.Run("refused: "+tt.name, func(t *testing.T) {
			reg := newReg(t)
			before := map[string]string{}
			for _, name := range reg.Names() {
				out, _ := reg.Lookup(name).MakeJSON(in)
				before[name] = string(out)
			}
			_, err := reg.Expose("user", tt.decl...)
			if err == nil {
				t.Fatal("Expose succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) && !strings.Contains(fullText(err), w) {
					t.Errorf("error %q does not say %q", fullText(err), w)
				}
			}
			for name, want := range before {
				if out, _ := reg.Lookup(name).MakeJSON(in); string(out) != want {
					t.Errorf("%s changed: %s, was %s", name, out, want)
				}
			}
			if err := reg.Verify(); err != nil {
				t.Errorf("Verify: %v", err)
			}
			// The registry still knows admin as an extension of user.
			expose(t, reg, "user", "id", "number", "", "mail", "string", "", "nick", "string", "")
			if out, err := reg.Lookup("root").MakeJSON(in); err != nil || string(out) != `{"id":1,"nick":null,"role":"r","level":2}` {
				t.Errorf("root after a fitting base: %s, %v", out, err)
			}
		})
	}
	t.Run("an extension's merge dependents are checked", func(t *testing.T) {
		reg := newReg(t)
		expose(t, reg, "card", "owner", "$admin", "merge", "nick", "string", "")
		_, err := reg.Expose("user", "id", "number", "", "mail", "string", "", "nick", "string", "")
		if err == nil || !strings.Contains(fullText(err), `merge: output key "nick"`) {
			t.Fatalf("Expose: %v", err)
		}
		if out, _ := reg.Lookup("admin").MakeJSON(in); string(out) != `{"id":1,"ssn":"123","role":"r"}` {
			t.Errorf("admin changed: %s", out)
		}
	})
}

// fullText is every error of a list, one per line.
func fullText(err error) string {
	var l dsl.ErrorList
	if !errors.As(err, &l) {
		return err.Error()
	}
	var msgs []string
	for _, e := range l {
		msgs = append(msgs, e.Error())
	}
	return strings.Join(msgs, "\n")
}

// TestUnexposeEveryVersionOfAField: unexpose drops every declaration of
// the name, a field declared in two version ranges included.
func TestUnexposeEveryVersionOfAField(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "user",
		"id", "number", "",
		"ssn", "string", "until 'v2'",
		"ssn", "number", "since 'v2'",
	)
	pub, err := reg.Extend("public", "user", "ssn", "", "unexpose")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"", "v1", "v2", "v3"} {
		if out, err := pub.MakeJSON(map[string]any{"id": 1, "ssn": 7}, entity.Version(v)); err != nil || string(out) != `{"id":1}` {
			t.Errorf("version %q: got %s, %v", v, out, err)
		}
	}
	if _, err := reg.Extend("again", "user", "ssn", "", "unexpose", "ssn", "string", "secret"); err != nil {
		t.Errorf("unexpose then declare anew: %v", err)
	}
	if _, err := reg.Extend("twice", "user", "ssn", "", "unexpose", "ssn", "", "unexpose"); err == nil || !strings.Contains(err.Error(), "unexposed already") {
		t.Errorf("unexpose twice: %v", err)
	}
}

// TestExtendReportsEveryError: a syntax error in Extend's triples hides
// none of the compiler's errors in the others, as in Expose.
func TestExtendReportsEveryError(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "user", "id", "number", "")
	_, err := reg.Extend("admin", "user",
		"role", "string", "msg 'unclosed",
		"level", "number", "rnge 1 5",
	)
	var list dsl.ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("Extend = %v, want 2 errors", err)
	}
	if !strings.Contains(list[0].Msg, "unclosed quote") || list[1].Msg != `unknown rule "rnge" (did you mean "range"?)` {
		t.Errorf("errors %q, %q", list[0].Msg, list[1].Msg)
	}
}
