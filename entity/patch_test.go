package entity_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

func patchEntity(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	return expose(t, reg, "customer", "PATCH",
		"id", "number", "readonly | req",
		"name", "string", "req | min 1 | max 100",
		"email", "string", "req | email",
		"password", "string", "writeonly | req | min 8",
		"tier", "string", "in bronze silver gold | default bronze",
		"address", "{", "",
		"city", "string", "req",
		"zip", "string", "req",
		"address", "}", "",
		"tags", "[]string", "",
	)
}

func patchRequest(body string) *http.Request {
	r := httptest.NewRequest("PATCH", "/customers/1", strings.NewReader(body))
	r.Header.Set("Content-Type", entity.MergePatchType)
	return r
}

// patchCurrent is a customer as the server holds it: no password.
type patchCurrent struct {
	ID    int64    `json:"id"`
	Name  string   `json:"name"`
	Email string   `json:"email"`
	Tier  string   `json:"tier"`
	City  string   `json:"city"`
	Zip   string   `json:"zip"`
	Tags  []string `json:"tags"`
}

func TestPatch(t *testing.T) {
	e := patchEntity(t)
	current := patchCurrent{ID: 1, Name: "Ann", Email: "ann@example.com", Tier: "gold", City: "Tokyo", Zip: "100", Tags: []string{"a"}}
	tests := []struct {
		name    string
		patch   string
		want    string   // the merged value's response form
		touched []string // the paths the patch touched
		fails   string   // path code, comma-separated
	}{
		{"a name only", `{"name":"Ann Lee"}`,
			`{"id":1,"name":"Ann Lee","email":"ann@example.com","tier":"gold","address":{"city":"Tokyo","zip":"100"},"tags":["a"]}`, []string{"name"}, ""},
		{"nothing", `{}`,
			`{"id":1,"name":"Ann","email":"ann@example.com","tier":"gold","address":{"city":"Tokyo","zip":"100"},"tags":["a"]}`, nil, ""},
		{"a group merges", `{"address":{"city":"Osaka"}}`,
			`{"id":1,"name":"Ann","email":"ann@example.com","tier":"gold","address":{"city":"Osaka","zip":"100"},"tags":["a"]}`, []string{"address.city"}, ""},
		{"null clears: a default fills it", `{"tier":null}`,
			`{"id":1,"name":"Ann","email":"ann@example.com","tier":"bronze","address":{"city":"Tokyo","zip":"100"},"tags":["a"]}`, []string{"tier"}, ""},
		{"a list is replaced", `{"tags":["x","y"]}`,
			`{"id":1,"name":"Ann","email":"ann@example.com","tier":"gold","address":{"city":"Tokyo","zip":"100"},"tags":["x","y"]}`, []string{"tags"}, ""},
		{"a readonly field is ignored", `{"id":99,"name":"B"}`,
			`{"id":1,"name":"B","email":"ann@example.com","tier":"gold","address":{"city":"Tokyo","zip":"100"},"tags":["a"]}`, []string{"name"}, ""},
		{"a writeonly field set", `{"password":"correct horse"}`,
			`{"id":1,"name":"Ann","email":"ann@example.com","tier":"gold","address":{"city":"Tokyo","zip":"100"},"tags":["a"]}`, []string{"password"}, ""},
		{"a req field cleared", `{"email":null}`, "", nil, "email required"},
		{"a value the rules refuse", `{"tier":"platinum"}`, "", nil, "tier in"},
		{"a type error", `{"name":3}`, "", nil, "name type"},
		{"a group's req field cleared", `{"address":{"zip":null}}`, "", nil, "address.zip required"},
		{"a writeonly req field cleared", `{"password":null}`, "", nil, "password required"},
		{"a writeonly field checked", `{"password":"short"}`, "", nil, "password min"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := current
			o, touched, err := e.Patch(patchRequest(tt.patch), current)
			if !reflect.DeepEqual(current, before) {
				t.Fatalf("the current value changed")
			}
			if tt.fails != "" {
				var got []string
				for _, f := range fieldErrorsOrNone(err) {
					got = append(got, f.Path+" "+f.Code)
				}
				var ve *entity.ValidationError
				if strings.Join(got, ",") != tt.fails || !errors.As(err, &ve) || ve.StatusCode() != 400 {
					t.Errorf("got %q (%v), want %q, a 400", got, err, tt.fails)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := o.String(); got != tt.want {
				t.Errorf("merged:\n got %s\nwant %s", got, tt.want)
			}
			if !reflect.DeepEqual(touched, tt.touched) {
				t.Errorf("touched %q, want %q", touched, tt.touched)
			}
		})
	}
	t.Run("the merged Object holds the writeonly value for Get and Bind", func(t *testing.T) {
		o, _, err := e.Patch(patchRequest(`{"password":"correct horse"}`), current)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := o.Get("password"); v != "correct horse" {
			t.Errorf("Get(password) = %v", v)
		}
		var got struct {
			Password string `json:"password"`
			City     string `json:"city"`
		}
		if err := o.Bind(&got); err != nil || got.Password != "correct horse" || got.City != "Tokyo" {
			t.Errorf("Bind: %+v, %v", got, err)
		}
	})
	t.Run("any input kind is a current value", func(t *testing.T) {
		for what, cur := range map[string]any{
			"a map":    map[string]any{"id": 1, "name": "Ann", "email": "ann@example.com", "city": "T", "zip": "1"},
			"raw JSON": []byte(`{"id":1,"name":"Ann","email":"ann@example.com","city":"T","zip":"1"}`),
		} {
			o, _, err := e.Patch(patchRequest(`{"name":"B"}`), cur)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if v, _ := o.Get("name"); v != "B" {
				t.Errorf("%s: name %v", what, v)
			}
			// an Object a response made, and the merged Object itself
			again, _, err := e.Patch(patchRequest(`{"email":"b@example.com"}`), o)
			if err != nil {
				t.Fatalf("%s, patched again: %v", what, err)
			}
			if v, _ := again.Get("name"); v != "B" {
				t.Errorf("%s, patched again: name %v", what, v)
			}
		}
	})
	t.Run("another Content-Type is a 415", func(t *testing.T) {
		r := patchRequest(`{"name":"B"}`)
		r.Header.Set("Content-Type", "application/json")
		_, _, err := e.Patch(r, current)
		rec := httptest.NewRecorder()
		entity.WriteError(rec, err)
		if rec.Code != 415 || rec.Header().Get("Accept") != entity.MergePatchType {
			t.Errorf("%d, Accept %q: %s", rec.Code, rec.Header().Get("Accept"), rec.Body)
		}
	})
	t.Run("a body that is no object is a 400", func(t *testing.T) {
		for _, body := range []string{`[1]`, `"x"`, ``, `{"name":`} {
			_, _, err := e.Patch(patchRequest(body), current)
			if !errors.Is(err, entity.ErrInvalidJSON) {
				t.Errorf("%q: %v, want ErrInvalidJSON", body, err)
			}
		}
	})
	t.Run("DenyUnknown judges the patch", func(t *testing.T) {
		_, _, err := e.Patch(patchRequest(`{"nick":"x","id":2}`), current, entity.DenyUnknown())
		if fs := fieldErrorsOrNone(err); len(fs) != 1 || fs[0].Path != "nick" || fs[0].Code != "unknown" {
			t.Errorf("got %v, want nick unknown (id: a readonly key, accepted)", err)
		}
	})
}

// FuzzPatch: whatever the body, Patch of a valid current value answers a
// merged value or the client's error (4xx), never a panic nor a 500; the
// check of a checked handle gets a merged value that is JSON, passed or
// failed, and says failed every field the error names.
func FuzzPatch(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"B","address":{"city":null}}`, `{"tags":["x"],"id":2}`,
		`{"address":{"zip":{"a":null}}}`, `{"na\u006de":"x","zz":null}`, `{"address":[1]}`, `[`, `{"a":{"b":[{},null]}}`} {
		f.Add(s)
	}
	base := patchEntity(f)
	current := patchCurrent{ID: 1, Name: "Ann", Email: "ann@example.com", Tier: "gold", City: "Tokyo", Zip: "100"}
	f.Fuzz(func(t *testing.T, body string) {
		var seen *entity.Object
		e := base.Checked(func(_ context.Context, o *entity.Object) error {
			seen = o
			fzCheckedObject(t, o)
			return nil
		})
		o, _, err := e.Patch(patchRequest(body), current)
		var ve *entity.ValidationError
		if errors.As(err, &ve) && seen != nil {
			for _, fe := range ve.Fields {
				if !seen.Failed(fe.Path) {
					t.Fatalf("Patch of %q: the check's Object does not say %q failed", body, fe.Path)
				}
			}
		}
		if err != nil {
			w := httptest.NewRecorder()
			entity.WriteError(w, err)
			if w.Code < 400 || w.Code >= 500 {
				t.Fatalf("Patch of %q: %v, status %d; want a 4xx", body, err, w.Code)
			}
			return
		}
		if o == nil {
			t.Fatalf("Patch of %q: no Object and no error", body)
		}
	})
}
