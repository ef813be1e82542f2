package entity_test

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/expose-go/expose/entity"
)

// TestImmutableDeclErrors: immutable applies to a value field of a
// request's body that requests read; anywhere else it is a declaration
// error that says where it applies.
func TestImmutableDeclErrors(t *testing.T) {
	tests := []struct {
		name string
		decl []string
		want string
	}{
		{"with readonly", []string{"a", "string", "immutable | readonly"}, "cannot be both readonly (never read from requests, so never changed by one) and immutable"},
		{"with writeonly", []string{"a", "string", "writeonly | immutable"}, "cannot be both writeonly and immutable: a patch tells a change from the value a response would write"},
		{"in a readonly group", []string{"g", "{", "readonly", "a", "string", "immutable", "g", "}", ""}, "immutable in a readonly group, whose fields no request reads"},
		{"in a writeonly group, deeper", []string{"g", "{", "writeonly", "h", "{", "", "a", "string", "immutable", "h", "}", "", "g", "}", ""}, "immutable in a writeonly group: a patch tells a change"},
		{"on a path parameter", []string{"a", "number", "path | immutable"}, `immutable judges what a patch's body changes: "a" is read from the request's path, not its body`},
		{"on a header field", []string{"X-Trace", "string", "immutable"}, `"X-Trace" is read from the request's header`},
		{"on a group", []string{"g", "{", "immutable", "a", "string", "", "g", "}", ""}, "immutable applies to a value field: declare it on the fields of the group that are set once"},
		{"on a $name", []string{"r", "$p", "immutable"}, "declare it on the fields of $p that are set once"},
		{"on a []$name", []string{"r", "[]$p", "immutable"}, "declare it on the fields of $p that are set once"},
		{"with an argument", []string{"a", "string", "immutable 'x'"}, `rule "immutable" takes no arguments`},
		{"in each", []string{"a", "[]string", "each 'immutable'"}, `"immutable" is the field's own: write it outside each`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "p", "a", "string", "")
			_, err := reg.Expose("e", tt.decl...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Expose(%q) = %v, want an error holding %q", tt.decl, err, tt.want)
			}
		})
	}
}

// TestImmutableFields: Fields and RequestFields report immutable, and
// only where it is declared.
func TestImmutableFields(t *testing.T) {
	reg := entity.NewRegistry()
	e := exposeAccount(t, reg)
	want := []string{"handle", "created", "score", "ratio", "active", "tags", "meta", "profile.born"}
	for _, fs := range [][]*entity.Field{e.Fields(), e.RequestFields()} {
		var got []string
		var walk func(prefix string, fs []*entity.Field)
		walk = func(prefix string, fs []*entity.Field) {
			for _, f := range fs {
				if f.Immutable {
					got = append(got, prefix+f.Key)
				}
				walk(prefix+f.Key+".", f.Fields)
			}
		}
		walk("", fs)
		if !slices.Equal(got, want) {
			t.Errorf("immutable fields %q, want %q", got, want)
		}
	}
}

// TestImmutableFile: a .entity file takes immutable as any directive, in
// groups and in the entities it references, and reports its misuse at
// its place, with a caret.
func TestImmutableFile(t *testing.T) {
	const file = `person {
  ssn   string  immutable
  nick  string
}

account {
  id      number  readonly
  handle  string  immutable | min 3
  profile {
    born  string  immutable
  }
  owner   $person
}
`
	reg := entity.NewRegistry()
	if err := reg.LoadFS(fstest.MapFS{"a.entity": {Data: []byte(file)}}, "*.entity"); err != nil {
		t.Fatal(err)
	}
	e := reg.MustLookup("account")
	current := map[string]any{"id": 1, "handle": "ann", "born": "1990", "owner": map[string]any{"ssn": "1", "nick": "n"}}
	tests := []struct {
		name, patch string
		fails       []string
	}{
		{"the same values", `{"handle":"ann","profile":{"born":"1990"},"owner":{"ssn":"1","nick":"m"}}`, nil},
		{"changed values", `{"handle":"bob","profile":{"born":"1991"},"owner":{"ssn":"2"}}`,
			[]string{"/handle immutable", "/profile/born immutable", "/owner/ssn immutable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := e.Patch(patchRequest(tt.patch), current)
			var got []string
			for _, fe := range fieldErrorsOrNone(err) {
				got = append(got, fe.Pointer+" "+fe.Code)
			}
			if !slices.Equal(got, tt.fails) {
				t.Errorf("Patch(%s) fails %q, want %q", tt.patch, got, tt.fails)
			}
		})
	}

	t.Run("misused", func(t *testing.T) {
		bad := "thing {\n  id  number  readonly | immutable\n}\n"
		err := entity.NewRegistry().LoadFS(fstest.MapFS{"b.entity": {Data: []byte(bad)}}, "*.entity")
		want := "b.entity:2:26: entity \"thing\", field \"id\": a field cannot be both readonly"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "^") {
			t.Errorf("LoadFS = %v, want an error holding %q and a caret", err, want)
		}
	})
}

// TestImmutableCreates: a request that creates reads an immutable field
// as any field (MakeRequest, Bind), and a response writes it.
func TestImmutableCreates(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "account", "handle", "string", "immutable | min 3", "name", "string", "")
	tests := []struct {
		name, body string
		fails      []string
	}{
		{"given", `{"handle":"ann","name":"Ann"}`, nil},
		{"judged by its rules", `{"handle":"x"}`, []string{"/handle min"}},
		{"absent", `{"name":"Ann"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/accounts", strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(r)
			var got []string
			for _, fe := range fieldErrorsOrNone(err) {
				got = append(got, fe.Pointer+" "+fe.Code)
			}
			if !slices.Equal(got, tt.fails) {
				t.Fatalf("MakeRequest fails %q, want %q", got, tt.fails)
			}
			if err != nil {
				return
			}
			var in struct{ Handle, Name string }
			_ = json.Unmarshal([]byte(tt.body), &in)
			var st struct {
				Handle string `json:"handle"`
			}
			if err := o.Bind(&st); err != nil || st.Handle != in.Handle {
				t.Errorf("Object.Bind: %+v, %v; want handle %q", st, err, in.Handle)
			}
			r = httptest.NewRequest("POST", "/accounts", strings.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			st.Handle = ""
			if err := e.Bind(r, &st); err != nil || st.Handle != in.Handle {
				t.Errorf("Bind: %+v, %v; want handle %q", st, err, in.Handle)
			}
			if in.Handle == "" {
				return
			}
			out, err := e.MakeJSON(map[string]any{"handle": in.Handle, "name": in.Name})
			if err != nil || !strings.Contains(string(out), `"handle":"`+in.Handle+`"`) {
				t.Errorf("MakeJSON = %s, %v; want the handle written", out, err)
			}
		})
	}
}
