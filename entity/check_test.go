package entity_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

type ctxKey struct{}

// checkedOrders returns a handle of an order entity whose check knows
// customer 1, says the database is down for customer 2, and refuses any
// other; ran counts its runs.
func checkedOrders(t *testing.T, ran *int) (*entity.Registry, *entity.Entity) {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.DeclareCode("no_customer", map[string]string{"en": "names no customer", "ja": "顧客が見つかりません"}); err != nil {
		t.Fatal(err)
	}
	base := expose(t, reg, "order", "POST, PATCH", "customer_id", "number", "req", "qty", "number", "range 1 10", "note", "string", "max 5")
	return reg, base.Checked(func(ctx context.Context, o *entity.Object) error {
		*ran++
		if ctx.Value(ctxKey{}) != "req" {
			t.Error("the check did not get the request's context")
		}
		id, ok, err := entity.Value[int64](o, "customer_id")
		switch {
		case err != nil || !ok:
			return err // no valid id: the declared rules say so
		case id == 1:
			return nil
		case id == 2:
			return errors.New("the database is down")
		}
		return entity.NewFieldError("/customer_id", "no_customer", nil)
	})
}

// TestChecked: a handle's request checks run with the request's context
// after the declared rules, whether they passed or not; their field errors
// join the declared rules' in one 400, in the request's language, and any
// other error is the server's.
func TestChecked(t *testing.T) {
	var ran int
	reg, orders := checkedOrders(t, &ran)
	handler := func(w http.ResponseWriter, r *http.Request) {
		var o struct {
			CustomerID int64 `json:"customer_id"`
		}
		if err := orders.Bind(r, &o); err != nil {
			reg.WriteRequestError(w, r, err)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}
	type fe struct{ pointer, code, message string }
	tests := []struct {
		name   string
		body   string
		lang   string
		status int
		errors []fe // the problem's, in order
		ran    int  // how many times the check ran
	}{
		{"passes", `{"customer_id":1,"qty":2}`, "en", 201, nil, 1},
		{"the check's field error", `{"customer_id":7,"qty":2}`, "en", 400,
			[]fe{{"/customer_id", "no_customer", "names no customer"}}, 1},
		{"the check's field error, in Japanese", `{"customer_id":7,"qty":2}`, "ja", 400,
			[]fe{{"/customer_id", "no_customer", "顧客が見つかりません"}}, 1},
		{"the declared rules' and the check's, in one problem", `{"customer_id":7,"qty":20,"note":"too long"}`, "en", 400,
			[]fe{{"/qty", "range", "must be between 1 and 10"}, {"/note", "max", "must be at most 5 characters long"}, {"/customer_id", "no_customer", "names no customer"}}, 1},
		{"in one problem, in Japanese", `{"customer_id":7,"qty":20}`, "ja", 400,
			[]fe{{"/qty", "range", "1以上10以下の値にしてください"}, {"/customer_id", "no_customer", "顧客が見つかりません"}}, 1},
		{"a known customer, a bad quantity", `{"customer_id":1,"qty":0}`, "en", 400,
			[]fe{{"/qty", "range", "must be between 1 and 10"}}, 1},
		{"a value that failed is none to the check", `{"customer_id":"seven","qty":2}`, "en", 400,
			[]fe{{"/customer_id", "type", "must be an integer, got a string"}}, 1},
		{"a missing value is none to the check", `{"qty":2}`, "en", 400,
			[]fe{{"/customer_id", "required", "is required"}}, 1},
		{"the server's error", `{"customer_id":2,"qty":2}`, "en", 500, nil, 1},
		{"the server's error, whatever else failed", `{"customer_id":2,"qty":20}`, "en", 500, nil, 1},
		{"a body that is no JSON: no check", `{"customer_id":`, "en", 400, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = 0
			r := rqRequest("POST", "/orders", "application/json", tt.body, "Accept-Language", tt.lang)
			r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, "req"))
			rec := httptest.NewRecorder()
			handler(rec, r)
			if rec.Code != tt.status || ran != tt.ran {
				t.Fatalf("status %d, the check ran %d times; want %d, %d: %s", rec.Code, ran, tt.status, tt.ran, rec.Body)
			}
			if tt.status == 500 && strings.Contains(rec.Body.String(), "database") {
				t.Errorf("the server's error shows: %s", rec.Body)
			}
			if tt.errors == nil {
				return
			}
			pb, _ := checkProblem(t, rec, 400)
			var got []fe
			for _, f := range pb.Errors {
				got = append(got, fe{f.Pointer, f.Code, f.Message})
			}
			if len(got) != len(tt.errors) {
				t.Fatalf("errors %+v, want %+v", got, tt.errors)
			}
			for i := range got {
				if got[i] != tt.errors[i] {
					t.Errorf("errors[%d] = %+v, want %+v", i, got[i], tt.errors[i])
				}
			}
			if cl := rec.Header().Get("Content-Language"); cl != tt.lang {
				t.Errorf("Content-Language %q, want %q", cl, tt.lang)
			}
		})
	}
	t.Run("the entity itself has no check", func(t *testing.T) {
		if _, err := reg.MustLookup("order").MakeRequest(rqRequest("POST", "/", "application/json", `{"customer_id":7}`)); err != nil {
			t.Error(err)
		}
	})
}

// TestCheckedPastTheLimit: when more fields failed than Limits.Errors
// lists, the problem is full: the checks do not run.
func TestCheckedPastTheLimit(t *testing.T) {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.Errors = 1 })
	ran := 0
	e := expose(t, reg, "pair", "a", "number", "req", "b", "number", "req").Checked(func(context.Context, *entity.Object) error {
		ran++
		return entity.NewFieldError("/a", "required", nil)
	})
	tests := []struct {
		name string
		body string
		ran  int
	}{
		{"one failure, listed", `{"a":1}`, 1},
		{"two failures, one past the limit", `{}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = 0
			_, err := e.MakeRequest(rqRequest("POST", "/", "application/json", tt.body))
			var ve *entity.ValidationError
			if !errors.As(err, &ve) || ran != tt.ran {
				t.Fatalf("ran %d times, want %d: %v", ran, tt.ran, err)
			}
		})
	}
}

// TestObjectFailed: the Object a check gets for a request whose declared
// rules failed says which fields failed, at, below and above their paths;
// every other Object says none did.
func TestObjectFailed(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req", "n", "number", "min 1")
	var seen *entity.Object
	e := expose(t, reg, "cart", "POST",
		"name", "string", "req",
		"address", "{", "",
		"city", "string", "max 3",
		"zip", "string", "",
		"address", "}", "",
		"lines", "[]$line", "",
		"X-Id", "number", "",
	).Checked(func(_ context.Context, o *entity.Object) error {
		seen = o
		return nil
	})
	r := rqRequest("POST", "/", "application/json",
		`{"name":"ann","address":{"city":"Kyoto","zip":"600"},"lines":[{"sku":"a","n":1},{"n":0}]}`, "X-Id", "x")
	if _, err := e.MakeRequest(r); err == nil || seen == nil {
		t.Fatalf("err %v, the check ran: %v", err, seen != nil)
	}
	tests := []struct {
		path string
		want bool
	}{
		{"", true},
		{"name", false},
		{"address", true},
		{"address.city", true},
		{"address.zip", false},
		{"address.city.x", true},
		{"lines", true},
		{"lines[0]", false},
		{"lines[0].sku", false},
		{"lines[1]", true},
		{"lines[1].sku", true},
		{"lines[1].n", true},
		{"lines[10]", false},
		{"X-Id", true},
		{"X", false},
		{"nam", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := seen.Failed(tt.path); got != tt.want {
				t.Errorf("Failed(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
	t.Run("an Object of a request that passed", func(t *testing.T) {
		o, err := e.MakeRequest(rqRequest("POST", "/", "application/json", `{"name":"ann"}`))
		if err != nil || o.Failed("") || seen.Failed("name") {
			t.Errorf("err %v, Failed(\"\") %v", err, o.Failed(""))
		}
	})
	t.Run("a nil Object", func(t *testing.T) {
		if (*entity.Object)(nil).Failed("") {
			t.Error("a nil Object failed")
		}
	})
}

// TestValue: Value reads a typed value at a path; a field that is absent,
// null or failed is no value, and a key the entity does not declare or a
// type that is not the field's is a clear error, never a panic.
func TestValue(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "line", "sku", "string", "req", "n", "number", "min 1")
	var seen *entity.Object
	e := expose(t, reg, "cart", "POST",
		"id", "number", "",
		"name", "string", "",
		"price", "float", "",
		"paid", "bool", "",
		"at", "date", "",
		"tags", "[]string", "",
		"address", "{", "",
		"city", "string", "max 3",
		"address", "}", "",
		"lines", "[]$line", "",
		"meta", "none", "",
		"gone", "string", "readonly",
		"x.y", "string", "",
	).Checked(func(_ context.Context, o *entity.Object) error {
		seen = o
		return nil
	})
	body := `{"x.y":"dotted","id":7,"name":null,"price":1.5,"paid":true,"at":"2026-12-01T10:00:00Z","tags":["a","b"],
		"address":{"city":"Kyoto"},"lines":[{"sku":"a","n":2},{"sku":"b","n":0}],"meta":{"k":1}}`
	if _, err := e.MakeRequest(rqRequest("POST", "/", "application/json", body)); err == nil {
		t.Fatal("the request passed")
	}
	type result struct {
		v   any
		ok  bool
		err string
	}
	of := func(v any, ok bool, err error) result {
		r := result{v: v, ok: ok}
		if err != nil {
			r.err = err.Error()
		}
		return r
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		got  func() result
		want result
	}{
		{"a number", func() result { return of(entity.Value[int64](seen, "id")) }, result{int64(7), true, ""}},
		{"a float", func() result { return of(entity.Value[float64](seen, "price")) }, result{1.5, true, ""}},
		{"a bool", func() result { return of(entity.Value[bool](seen, "paid")) }, result{true, true, ""}},
		{"a date", func() result { return of(entity.Value[time.Time](seen, "at")) }, result{at, true, ""}},
		{"an element of a typed list", func() result { return of(entity.Value[string](seen, "tags[1]")) }, result{"b", true, ""}},
		{"any", func() result { return of(entity.Value[any](seen, "id")) }, result{int64(7), true, ""}},
		{"in a $name list", func() result { return of(entity.Value[string](seen, "lines[0].sku")) }, result{"a", true, ""}},
		{"beside a value that failed", func() result { return of(entity.Value[string](seen, "lines[1].sku")) }, result{"b", true, ""}},
		{"a value that failed", func() result { return of(entity.Value[int64](seen, "lines[1].n")) }, result{int64(0), false, ""}},
		{"a group's field that failed", func() result { return of(entity.Value[string](seen, "address.city")) }, result{"", false, ""}},
		{"null", func() result { return of(entity.Value[string](seen, "name")) }, result{"", false, ""}},
		{"absent", func() result { return of(entity.Value[string](seen, "gone")) }, result{"", false, ""}},
		{"past a list's end", func() result { return of(entity.Value[string](seen, "tags[5]")) }, result{"", false, ""}},
		{"a none field", func() result { return of(entity.Value[map[string]any](seen, "meta")) }, result{map[string]any{"k": 1.0}, true, ""}},
		{"a quoted key", func() result { return of(entity.Value[string](seen, `["x.y"]`)) }, result{"dotted", true, ""}},
		{"a quoted key of a group", func() result { return of(entity.Value[string](seen, `address["city"]`)) }, result{"", false, ""}},
		{"a quoted key that does not end", func() result { return of(entity.Value[string](seen, `["x.y]`)) },
			result{"", false, `entity: Value: "[\"x.y]": a quoted key is ["key"], the key a JSON string`}},
		{"a type that is not the field's", func() result { return of(entity.Value[int](seen, "id")) },
			result{0, false, `entity: Value: "id" holds an int64, not an int`}},
		{"a string for a number", func() result { return of(entity.Value[string](seen, "id")) },
			result{"", false, `entity: Value: "id" holds an int64, not a string`}},
		{"a key the entity does not declare", func() result { return of(entity.Value[int64](seen, "idd")) },
			result{int64(0), false, `entity: Value: "idd": entity "cart" declares no key "idd"`}},
		{"a key a group does not declare", func() result { return of(entity.Value[string](seen, "address.town")) },
			result{"", false, `entity: Value: "address.town": entity "cart" declares no key "town"`}},
		{"a key of a referenced entity it does not declare", func() result { return of(entity.Value[string](seen, "lines[0].skus")) },
			result{"", false, `entity: Value: "lines[0].skus": entity "line" declares no key "skus"`}},
		{"an index into an object", func() result { return of(entity.Value[string](seen, "address[0]")) },
			result{"", false, `entity: Value: "address[0]": an index into an object`}},
		{"a key of a list", func() result { return of(entity.Value[string](seen, "lines.sku")) },
			result{"", false, `entity: Value: "lines.sku": a key of a list`}},
		{"below a value", func() result { return of(entity.Value[string](seen, "id.x")) },
			result{"", false, `entity: Value: "id.x": below an int64, which holds no fields`}},
		{"a nil Object", func() result { return of(entity.Value[string](nil, "id")) },
			result{"", false, `entity: Value: "id": an Object of no entity (a nil or zero one) declares no key "id"`}},
		{"a bad index", func() result { return of(entity.Value[string](seen, "tags[x]")) },
			result{"", false, `entity: Value: "tags[x]": an index is [n], n of digits`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.got()
			gj, _ := json.Marshal(got.v)
			wj, _ := json.Marshal(tt.want.v)
			if string(gj) != string(wj) || got.ok != tt.want.ok || got.err != tt.want.err {
				t.Errorf("got %#v, %v, %q; want %#v, %v, %q", got.v, got.ok, got.err, tt.want.v, tt.want.ok, tt.want.err)
			}
		})
	}
}

// ExampleValue shows a check that reads a typed value, once the declared
// rules let it: a bad quantity and an unknown customer are answered in one
// problem.
func ExampleValue() {
	reg := entity.NewRegistry()
	reg.DeclareCode("no_customer", map[string]string{"en": "names no customer"})
	orders := reg.MustExpose("order", "POST", "customer_id", "number", "req", "qty", "number", "range 1 10").
		Checked(func(ctx context.Context, o *entity.Object) error {
			id, ok, err := entity.Value[int64](o, "customer_id")
			if err != nil || !ok {
				return err // a programming error; or no valid id, which the declared rules report
			}
			if id != 1 { // the store knows customer 1 only
				return entity.NewFieldError("/customer_id", "no_customer", nil)
			}
			return nil
		})
	r := httptest.NewRequest("POST", "/orders", strings.NewReader(`{"customer_id":7,"qty":0}`))
	r.Header.Set("Content-Type", "application/json")
	_, err := orders.MakeRequest(r)
	fmt.Println(err)
	// Output:
	// entity "order": 2 fields failed: qty: must be between 1 and 10 (range); customer_id: names no customer (no_customer)
}

// TestCheckedPatch: a merge patch's merged value runs the handle's check
// too, whether the declared rules passed or not, its field errors joining
// theirs.
func TestCheckedPatch(t *testing.T) {
	var ran int
	_, orders := checkedOrders(t, &ran)
	current := map[string]any{"customer_id": 1, "qty": 2}
	tests := []struct {
		name  string
		patch string
		want  []string // pointer code, in order; nil: it passes
	}{
		{"passes", `{"qty":3}`, nil},
		{"the check's", `{"customer_id":7}`, []string{"/customer_id no_customer"}},
		{"the declared rules' and the check's", `{"customer_id":7,"qty":0}`, []string{"/qty range", "/customer_id no_customer"}},
		{"a cleared value is none to the check", `{"customer_id":null,"qty":0}`, []string{"/customer_id required", "/qty range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = 0
			r := rqRequest("PATCH", "/orders/1", entity.MergePatchType, tt.patch)
			r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, "req"))
			_, _, err := orders.Patch(r, current)
			var got []string
			for _, f := range fieldErrorsOrNone(err) {
				got = append(got, f.Pointer+" "+f.Code)
			}
			if strings.Join(got, ", ") != strings.Join(tt.want, ", ") || ran != 1 {
				t.Errorf("errors %q (ran %d), want %q: %v", got, ran, tt.want, err)
			}
		})
	}
}
