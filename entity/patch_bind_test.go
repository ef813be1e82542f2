package entity_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// account is a row as the server stores it, its writeonly values too, in
// the form Make reads: a group's field beside its siblings, a merged
// $ref's under the reference's name.
type account struct {
	Name  string      `json:"name"`
	Pass  string      `json:"password"`
	Pin   string      `json:"pin"`
	Token string      `json:"token"` // the writeonly group's
	C     accountCred `json:"c"`
	K     accountKeys `json:"k"`
	Nick  *string     `json:"nick"`
	Tag   string      `json:"tag"`
	N     int         `json:"n"`
}

type accountCred struct {
	Login  string `json:"login"`
	Secret string `json:"secret"`
}

type accountKeys struct {
	Key  string `json:"key"`
	Salt string `json:"salt"`
}

func accountEntity(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "login", "string", "", "secret", "string", "writeonly")
	expose(t, reg, "keys", "key", "string", "", "salt", "string", "")
	return expose(t, reg, "account",
		"name", "string", "",
		"password", "string", "writeonly | min 8",
		"pin", "string", "writeonly | default 'changeme'",
		"g", "{", "writeonly",
		"token", "string", "",
		"g", "}", "",
		"c", "$cred", "merge",
		"k", "$keys", "merge | writeonly",
		"nick", "string", "omitnil",
		"tag", "string", "omitempty",
		"n", "number", "omitempty",
	)
}

func storedAccount() account {
	nick := "annie"
	return account{Name: "ann", Pass: "stored pass", Pin: "1234", Token: "tok", C: accountCred{"ann1", "s3"},
		K: accountKeys{"k1", "salt1"}, Nick: &nick, Tag: "t", N: 3}
}

// TestPatchBindLeavesWhatThePatchDoesNotSet: a writeonly field is in the
// merged Object only when the patch gives it (never null, never its
// default otherwise), so that merged.Bind(&current) leaves every field the
// patch did not set as it was: a stored password is never wiped nor reset
// to a default, and the writeonly fields of a writeonly group or a
// writeonly merged $ref are each kept unless the patch gives them.
func TestPatchBindLeavesWhatThePatchDoesNotSet(t *testing.T) {
	e := accountEntity(t)
	tests := []struct {
		name   string
		patch  string
		change func(*account) // what the patch changes in the stored row
		absent []string       // keys the merged Object does not hold
	}{
		{"another field", `{"name":"bob"}`, func(a *account) { a.Name = "bob" },
			[]string{"password", "pin", "g", "secret", "key", "salt"}},
		{"the password", `{"password":"new password"}`, func(a *account) { a.Pass = "new password" },
			[]string{"pin", "g", "secret", "key", "salt"}},
		{"a null clears it", `{"pin":null}`, func(a *account) { a.Pin = "changeme" }, // its default fills it, as a null does
			[]string{"password", "g", "secret", "key", "salt"}},
		{"a writeonly group's field", `{"g":{"token":"t2"}}`, func(a *account) { a.Token = "t2" },
			[]string{"password", "pin", "secret", "key", "salt"}},
		{"a merged $ref's writeonly field", `{"secret":"s4"}`, func(a *account) { a.C.Secret = "s4" },
			[]string{"password", "pin", "g", "key", "salt"}},
		{"one field of a writeonly merged $ref", `{"salt":"salt2"}`, func(a *account) { a.K.Salt = "salt2" },
			[]string{"password", "pin", "g", "secret", "key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stored := storedAccount()
			merged, _, err := e.Patch(patchRequest(tt.patch), stored)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			for _, k := range tt.absent {
				if v, ok := merged.Get(k); ok {
					t.Errorf("Get(%q) = %v, true: the patch does not give it, so the merged Object must not hold it", k, v)
				}
			}
			want := storedAccount()
			tt.change(&want)
			got := stored
			if err := merged.Bind(&got); err != nil {
				t.Fatalf("Bind: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("merged.Bind(&stored):\n got %+v\nwant %+v", got, want)
			}
			for _, secret := range []string{"stored pass", "new password", "1234", "tok", "s3", "s4", "k1", "salt"} {
				if strings.Contains(merged.String(), secret) {
					t.Errorf("the merged Object's response form %s writes a writeonly value", merged)
				}
			}
		})
	}
}

// TestPatchBindClearsOmittedFields: a patch clears an omitnil field and
// empties an omitempty one through merged.Bind(&current), as touched says:
// the merged Object holds the values a response leaves out (Get sees
// them), and its response form leaves them out as a response does.
func TestPatchBindClearsOmittedFields(t *testing.T) {
	e := accountEntity(t)
	tests := []struct {
		name   string
		patch  string
		change func(*account)
	}{
		{"a null for omitnil, empty values for omitempty", `{"nick":null,"tag":"","n":0}`,
			func(a *account) { a.Nick, a.Tag, a.N = nil, "", 0 }},
		{"an omitnil field cleared by an empty value", `{"nick":""}`, func(a *account) { a.Nick = new(string) }},
		{"values a response writes", `{"tag":"u","n":4}`, func(a *account) { a.Tag, a.N = "u", 4 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stored := storedAccount()
			merged, _, err := e.Patch(patchRequest(tt.patch), stored)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			want := storedAccount()
			tt.change(&want)
			got := stored
			if err := merged.Bind(&got); err != nil {
				t.Fatalf("Bind: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("merged.Bind(&stored):\n got %+v\nwant %+v", got, want)
			}
			again, err := e.MakeJSON(want)
			if err != nil {
				t.Fatal(err)
			}
			if merged.String() != string(again) {
				t.Errorf("the merged Object's response form is %s, want %s (what a response of the row writes)", merged, again)
			}
		})
	}
	t.Run("Get sees what the response form leaves out", func(t *testing.T) {
		merged, _, err := e.Patch(patchRequest(`{"nick":null,"tag":""}`), storedAccount())
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := merged.Get("nick"); v != nil || !ok {
			t.Errorf("Get(nick) = %v, %v; want nil, true", v, ok)
		}
		if v, ok := merged.Get("tag"); v != "" || !ok {
			t.Errorf("Get(tag) = %#v, %v; want \"\", true", v, ok)
		}
	})
}

// TestPatchLeavesTheWriteOnlyFieldsOfAGroupItRemoves: a group that is not
// writeonly, which the patch leaves out, sets to null or finds nowhere in
// the current value (a merged $ref's group where the row holds no object
// for the $ref), gives none of its writeonly fields: a writeonly req one
// is not required, and Bind leaves the stored value. A null for a
// writeonly group clears its fields instead, so its req one is required.
func TestPatchLeavesTheWriteOnlyFieldsOfAGroupItRemoves(t *testing.T) {
	group := []string{"kid", "{", "", "s", "string", "", "pass", "string", "writeonly | req", "kid", "}", ""}
	reg := entity.NewRegistry()
	plain := expose(t, reg, "plain", append(group, "w", "{", "writeonly", "p", "string", "req", "w", "}", "")...)
	expose(t, reg, "inner", group...)
	merged := expose(t, reg, "outer", "in", "$inner", "merge", "n", "string", "")
	type kid struct { // Bind's form: a group's fields beside their siblings
		S    string `json:"s"`
		Pass string `json:"pass"`
	}
	type outer struct { // a merged $ref's under its name
		In kid `json:"in"`
	}
	tests := []struct {
		name    string
		e       *entity.Entity
		current any
		patch   string
		want    kid    // Bind of the merged Object into the stored row
		failed  string // the field that fails, "" for none
	}{
		{"left out", plain, map[string]any{"s": "x", "pass": "p1"}, `{}`, kid{"x", "stored"}, ""},
		{"set to null", plain, map[string]any{"s": "x", "pass": "p1"}, `{"kid":null}`, kid{"old", "stored"}, ""}, // a null leaves a string as Bind found it
		{"an empty object", plain, map[string]any{"s": "x"}, `{"kid":{}}`, kid{"x", "stored"}, ""},
		{"its field given", plain, map[string]any{"s": "x"}, `{"kid":{"pass":"p2"}}`, kid{"x", "p2"}, ""},
		{"a merged $ref's, the row holding none", merged, map[string]any{"n": "a"}, `{}`, kid{"old", "stored"}, ""},
		{"a merged $ref's set to null", merged, map[string]any{"n": "a"}, `{"kid":null}`, kid{"old", "stored"}, ""},
		{"a writeonly group's null clears it", plain, map[string]any{}, `{"w":null}`, kid{}, "w.p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, _, err := tt.e.Patch(patchRequest(tt.patch), tt.current)
			if tt.failed != "" {
				var fe *entity.FieldError
				if !errors.As(err, &fe) || fe.Path != tt.failed {
					t.Fatalf("Patch: %v, want a failure at %s", err, tt.failed)
				}
				return
			}
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got := kid{S: "old", Pass: "stored"}
			if tt.e == merged {
				o := outer{In: got}
				err = obj.Bind(&o)
				got = o.In
			} else {
				err = obj.Bind(&got)
			}
			if err != nil {
				t.Fatalf("Bind: %v", err)
			}
			if got != tt.want {
				t.Errorf("Bind of the merged Object %s: %+v, want %+v", obj, got, tt.want)
			}
		})
	}
}

// TestPatchGivesNoWriteOnlyFieldOfARefMadeFromItsDefault: a $name that
// the merged value holds no object for, made from its bare default, holds
// none of its entity's writeonly fields (the patch gives none), so that
// Bind of the merged Object leaves the stored ones as they are.
func TestPatchGivesNoWriteOnlyFieldOfARefMadeFromItsDefault(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "cred", "login", "string", "", "pw", "string", "writeonly")
	e := expose(t, reg, "user", "name", "string", "", "cred", "$cred", "default")
	type cred struct {
		Login string `json:"login"`
		PW    string `json:"pw"`
	}
	type user struct {
		Name string `json:"name"`
		Cred *cred  `json:"cred"`
	}
	tests := []struct {
		name, patch string
		want        *cred // Bind's Cred
	}{
		// the stored null is taken as stored: no default makes an object
		// of it, and Bind clears the pointer
		{"the row holding none", `{"name":"b"}`, nil},
		// a null leaves a string as Bind found it
		{"the patch removing it", `{"name":"b","cred":null}`, &cred{Login: "l", PW: "stored"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, _, err := e.Patch(patchRequest(tt.patch), map[string]any{"name": "a", "cred": nil})
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			got := user{Name: "a", Cred: &cred{Login: "l", PW: "stored"}}
			if err := obj.Bind(&got); err != nil {
				t.Fatalf("Bind: %v", err)
			}
			if got.Name != "b" || (got.Cred == nil) != (tt.want == nil) || got.Cred != nil && *got.Cred != *tt.want {
				t.Errorf("Bind of the merged Object %s: %+v %+v, want Cred %+v", obj, got, got.Cred, tt.want)
			}
		})
	}
}

// TestPatchLeavesTheWriteOnlyFieldsOfAGroupHoldingReadonlyValues: a null
// for a group whose stored object holds readonly values keeps those and
// gives none of its writeonly fields, as a null for any other group does:
// Bind leaves the stored secret; a null for a writeonly group clears its
// fields.
func TestPatchLeavesTheWriteOnlyFieldsOfAGroupHoldingReadonlyValues(t *testing.T) {
	e := expose(t, entity.NewRegistry(), "acct",
		"g", "{", "",
		"id", "string", "readonly",
		"s", "string", "",
		"pass", "string", "writeonly",
		"g", "}", "",
		"w", "{", "writeonly",
		"p", "string", "",
		"w", "}", "",
	)
	type row struct {
		ID   string  `json:"id"`
		S    string  `json:"s"`
		Pass *string `json:"pass"` // a pointer: a null would clear it
		P    *string `json:"p"`
	}
	p, pass := "stored p", "stored"
	obj, _, err := e.Patch(patchRequest(`{"g":null}`), map[string]any{"id": "i1", "s": "x"})
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	got := row{ID: "i1", S: "x", Pass: &pass, P: &p}
	if err := obj.Bind(&got); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	if got.ID != "i1" || got.Pass == nil || *got.Pass != pass || got.P == nil || *got.P != p {
		t.Errorf("Bind of the merged Object %s: %+v, want id, pass and p as stored", obj, got)
	}
	obj, _, err = e.Patch(patchRequest(`{"w":null}`), map[string]any{"id": "i1", "s": "x"})
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	got = row{ID: "i1", S: "x", Pass: &pass, P: &p}
	if err := obj.Bind(&got); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	if got.P != nil || got.Pass == nil {
		t.Errorf("a writeonly group's null: Bind of the merged Object %s: %+v, want p cleared, pass as stored", obj, got)
	}
}
