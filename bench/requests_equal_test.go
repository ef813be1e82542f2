package bench

import (
	stdjson "encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// The tests in this file run before the request benchmarks time anything:
// the library and each baseline must accept and refuse the same bodies,
// name the same failing fields where the baseline can say them, and, on
// success, hold the same values.

var orderEntity = NewOrderRegistry().MustLookup("order")

// orderMap returns OrderBody(lines) decoded, for a case to change.
func orderMap(tb testing.TB, lines int) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := stdjson.Unmarshal(OrderBody(lines), &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// bodyCase is a body and the paths of the fields that fail in it, in the
// library's order (nil: it is accepted). parse means the body is refused
// as a whole (not JSON, not an object), with no field.
type bodyCase struct {
	name  string
	body  string
	fails []string
	parse bool
}

// orderCases builds the table every side is checked on.
func orderCases(tb testing.TB) []bodyCase {
	tb.Helper()
	with := func(lines int, change func(m map[string]any)) string {
		m := orderMap(tb, lines)
		change(m)
		b, err := stdjson.Marshal(m)
		if err != nil {
			tb.Fatal(err)
		}
		return string(b)
	}
	line := func(i int, m map[string]any) map[string]any { return m["lines"].([]any)[i].(map[string]any) }
	addr := func(m map[string]any) map[string]any { return m["address"].(map[string]any) }
	return []bodyCase{
		{name: "valid, 3 lines", body: string(OrderBody(3))},
		{name: "valid, 130 lines", body: string(OrderBody(130))},
		{name: "3 failing fields, 3 lines", body: string(FailingOrderBody(3)), fails: FailingOrderPaths},
		{name: "3 failing fields, 130 lines", body: string(FailingOrderBody(130)), fails: FailingOrderPaths},
		{name: "name missing", body: with(3, func(m map[string]any) { delete(m, "name") }), fails: []string{"name"}},
		{name: "name null", body: with(3, func(m map[string]any) { m["name"] = nil }), fails: []string{"name"}},
		{name: "name empty", body: with(3, func(m map[string]any) { m["name"] = "" }), fails: []string{"name"}},
		{name: "name of 100 runes", body: with(3, func(m map[string]any) { m["name"] = strings.Repeat("é", 100) })},
		{name: "name of 101 runes", body: with(3, func(m map[string]any) { m["name"] = strings.Repeat("a", 101) }), fails: []string{"name"}},
		{name: "name a number", body: with(3, func(m map[string]any) { m["name"] = 5 }), fails: []string{"name"}},
		{name: "email missing", body: with(3, func(m map[string]any) { delete(m, "email") }), fails: []string{"email"}},
		{name: "email without @", body: with(3, func(m map[string]any) { m["email"] = "not-an-email" }), fails: []string{"email"}},
		{name: "age missing", body: with(3, func(m map[string]any) { delete(m, "age") })},
		{name: "age null", body: with(3, func(m map[string]any) { m["age"] = nil })},
		{name: "age 0", body: with(3, func(m map[string]any) { m["age"] = 0 })},
		{name: "age 150", body: with(3, func(m map[string]any) { m["age"] = 150 })},
		{name: "age -1", body: with(3, func(m map[string]any) { m["age"] = -1 }), fails: []string{"age"}},
		{name: "age 151", body: with(3, func(m map[string]any) { m["age"] = 151 }), fails: []string{"age"}},
		{name: "age with a fraction", body: with(3, func(m map[string]any) { m["age"] = 34.5 }), fails: []string{"age"}},
		{name: "age a bool", body: with(3, func(m map[string]any) { m["age"] = true }), fails: []string{"age"}},
		{name: "tags missing", body: with(3, func(m map[string]any) { delete(m, "tags") })},
		{name: "tags null", body: with(3, func(m map[string]any) { m["tags"] = nil })},
		{name: "tags empty", body: with(3, func(m map[string]any) { m["tags"] = []any{} })},
		{name: "10 tags", body: with(3, func(m map[string]any) { m["tags"] = slices.Repeat([]any{"t"}, 10) })},
		{name: "11 tags", body: with(3, func(m map[string]any) { m["tags"] = slices.Repeat([]any{"t"}, 11) }), fails: []string{"tags"}},
		{name: "an empty tag", body: with(3, func(m map[string]any) { m["tags"] = []any{"a", ""} }), fails: []string{"tags[1]"}},
		{name: "a tag of 21 runes", body: with(3, func(m map[string]any) { m["tags"] = []any{strings.Repeat("x", 21)} }), fails: []string{"tags[0]"}},
		{name: "address city missing", body: with(3, func(m map[string]any) { delete(addr(m), "city") }), fails: []string{"address.city"}},
		{name: "address zip too long", body: with(3, func(m map[string]any) { addr(m)["zip"] = "12345678901" }), fails: []string{"address.zip"}},
		{name: "address street and zip empty", body: with(3, func(m map[string]any) { addr(m)["street"], addr(m)["zip"] = "", "" }), fails: []string{"address.street", "address.zip"}},
		{name: "lines missing", body: with(3, func(m map[string]any) { delete(m, "lines") })},
		{name: "lines null", body: with(3, func(m map[string]any) { m["lines"] = nil })},
		{name: "lines empty", body: with(3, func(m map[string]any) { m["lines"] = []any{} })},
		{name: "200 lines", body: string(OrderBody(200))},
		{name: "201 lines", body: string(OrderBody(201)), fails: []string{"lines"}},
		{name: "qty 0", body: with(3, func(m map[string]any) { line(0, m)["qty"] = 0 }), fails: []string{"lines[0].qty"}},
		{name: "qty 100", body: with(3, func(m map[string]any) { line(2, m)["qty"] = 100 }), fails: []string{"lines[2].qty"}},
		{name: "qty missing", body: with(3, func(m map[string]any) { delete(line(1, m), "qty") }), fails: []string{"lines[1].qty"}},
		{name: "sku missing", body: with(3, func(m map[string]any) { delete(line(1, m), "sku") }), fails: []string{"lines[1].sku"}},
		{name: "sku too short", body: with(3, func(m map[string]any) { line(0, m)["sku"] = "AB" }), fails: []string{"lines[0].sku"}},
		{name: "sku of 20 characters", body: with(3, func(m map[string]any) { line(0, m)["sku"] = strings.Repeat("A", 20) })},
		{name: "sku of 21 characters", body: with(3, func(m map[string]any) { line(0, m)["sku"] = strings.Repeat("A", 21) }), fails: []string{"lines[0].sku"}},
		{name: "sku with a space", body: with(3, func(m map[string]any) { line(0, m)["sku"] = "AB 12" }), fails: []string{"lines[0].sku"}},
		{name: "sku with a newline at the end", body: with(3, func(m map[string]any) { line(0, m)["sku"] = "AB-12\n" }), fails: []string{"lines[0].sku"}},
		{name: "sku of full-width digits", body: with(3, func(m map[string]any) { line(0, m)["sku"] = "ＡＢ１２" }), fails: []string{"lines[0].sku"}},
		{name: "a failing field in the last of 130 lines", body: with(130, func(m map[string]any) { line(129, m)["qty"] = 0 }), fails: []string{"lines[129].qty"}},
		{name: "an unknown key", body: with(3, func(m map[string]any) { m["coupon"] = "X" })},
		{name: "not JSON", body: `{"name":`, parse: true},
		{name: "an array", body: `[1,2]`, parse: true},
	}
}

// libraryPaths returns the paths of the library's field errors, and
// whether err is another error (the body refused as a whole).
func libraryPaths(tb testing.TB, err error) (paths []string, other bool) {
	tb.Helper()
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		return nil, err != nil
	}
	for _, f := range ve.Fields {
		paths = append(paths, f.Path)
	}
	return paths, false
}

// wireOf returns the values Bind filled in the wire form, to compare with
// what the baselines decode.
func wireOf(o *OrderRequest) *WireOrder {
	w := &WireOrder{Name: o.Name, Email: o.Email, Age: o.Age, Tags: o.Tags,
		Address: WireAddress{Street: o.Street, City: o.City, Zip: o.Zip}}
	for _, l := range o.Lines {
		w.Lines = append(w.Lines, WireLine(l))
	}
	return w
}

// TestOrderStructs checks that the structs orders_gen.go holds are the
// ones Make reads and Bind fills (`expose gen` writes them: go generate
// writes them again).
func TestOrderStructs(t *testing.T) {
	entitytest.CheckStruct(t, orderEntity, Order{})
	entitytest.CheckStruct(t, orderEntity, OrderRequest{}, entitytest.Request())
}

// TestOrderBodySizes checks the bodies' sizes the benchmarks are named
// for: about 280 bytes and about 4 KB.
func TestOrderBodySizes(t *testing.T) {
	for _, tt := range []struct{ lines, min, max int }{{3, 270, 300}, {130, 3900, 4100}} {
		if n := len(OrderBody(tt.lines)); n < tt.min || n > tt.max {
			t.Errorf("OrderBody(%d) is %d bytes, want %d to %d", tt.lines, n, tt.min, tt.max)
		}
	}
}

// TestRequestEqual checks that Bind, MakeRequest and encoding/json with
// the validator accept and refuse the same bodies, with the same failing
// fields, and that on success Bind, encoding/json, json v2 and goccy hold
// the same values.
func TestRequestEqual(t *testing.T) {
	for _, tt := range orderCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.body)
			var o OrderRequest
			err := orderEntity.Bind(NewRequest("POST", "application/json", body).Reset(), &o)
			got, other := libraryPaths(t, err)
			if tt.parse {
				if !other {
					t.Errorf("Bind: %v, want the body refused", err)
				}
			} else if other || !slices.Equal(got, tt.fails) {
				t.Errorf("Bind fails %q (%v), want %q", got, err, tt.fails)
			}
			_, err = orderEntity.MakeRequest(NewRequest("POST", "application/json", body).Reset())
			if mr, mrOther := libraryPaths(t, err); !slices.Equal(mr, got) || mrOther != other {
				t.Errorf("MakeRequest fails %q (%v), Bind %q", mr, err, got)
			}

			var w WireOrder
			err = DecodeValidate(NewRequest("POST", "application/json", body).Reset(), &w)
			switch {
			case tt.parse:
				if err == nil || FieldPaths(err) != nil {
					t.Errorf("json+validator: %v, want the body refused", err)
				}
			case tt.fails == nil:
				if err != nil {
					t.Fatalf("json+validator: %v", err)
				}
			default:
				// A type error stops encoding/json before the validator
				// runs: it names that one field.
				if p := FieldPaths(err); !slices.Equal(p, tt.fails) {
					t.Errorf("json+validator fails %q (%v), want %q", p, err, tt.fails)
				}
			}
			if tt.fails != nil || tt.parse {
				return
			}
			if !reflect.DeepEqual(wireOf(&o), normalWire(&w)) {
				t.Errorf("Bind holds %+v, encoding/json %+v", wireOf(&o), &w)
			}
			var v2, gc WireOrder
			if err := UnmarshalV2(NewRequest("POST", "application/json", body).Reset(), &v2); err != nil {
				t.Errorf("json v2: %v", err)
			} else if !reflect.DeepEqual(&v2, &w) {
				t.Errorf("json v2 holds %+v, encoding/json %+v", &v2, &w)
			}
			if err := UnmarshalGoccy(NewRequest("POST", "application/json", body).Reset(), &gc); err != nil {
				t.Errorf("goccy: %v", err)
			} else if !reflect.DeepEqual(&gc, &w) {
				t.Errorf("goccy holds %+v, encoding/json %+v", &gc, &w)
			}
		})
	}
}

// normalWire returns w with an empty list of lines or tags as Bind holds
// it: nil (Bind fills an empty JSON list as an empty slice or nil alike
// for the comparison).
func normalWire(w *WireOrder) *WireOrder {
	c := *w
	if len(c.Lines) == 0 {
		c.Lines = nil
	}
	return &c
}

// TestRequestDifferences documents where the baselines and the library
// judge a body differently on purpose: the library reads a request
// strictly but losslessly, and reports a wrong element where it is.
func TestRequestDifferences(t *testing.T) {
	tests := []struct {
		name    string
		change  func(m map[string]any)
		library []string // the library's failing fields
		json    []string // encoding/json with the validator's
	}{
		{"a number as a numeric string: lossless for the library, a type error for encoding/json",
			func(m map[string]any) { m["age"] = "34" }, nil, []string{"age"}},
		{"a null order line: a type error at its index for the library, an empty struct for encoding/json",
			func(m map[string]any) { m["lines"].([]any)[1] = nil }, []string{"lines[1]"}, []string{"lines[1].sku", "lines[1].qty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := orderMap(t, 3)
			tt.change(m)
			body, _ := stdjson.Marshal(m)
			var o OrderRequest
			got, _ := libraryPaths(t, orderEntity.Bind(NewRequest("POST", "application/json", body).Reset(), &o))
			if !slices.Equal(got, tt.library) {
				t.Errorf("Bind fails %q, want %q", got, tt.library)
			}
			var w WireOrder
			if p := FieldPaths(DecodeValidate(NewRequest("POST", "application/json", body).Reset(), &w)); !slices.Equal(p, tt.json) {
				t.Errorf("json+validator fails %q, want %q", p, tt.json)
			}
		})
	}
}

// humaPaths returns the paths of the fields huma's 422 names (its
// "location"s without "body.", a missing property's path from its
// message), and whether the request was refused at all.
func humaPaths(tb testing.TB, rec *httptest.ResponseRecorder) (paths []string, refused bool) {
	tb.Helper()
	if rec.Code == http.StatusCreated {
		return nil, false
	}
	var problem struct {
		Errors []struct{ Message, Location string }
	}
	if err := stdjson.Unmarshal(rec.Body.Bytes(), &problem); err != nil {
		tb.Fatalf("huma answers %d %s", rec.Code, rec.Body)
	}
	for _, e := range problem.Errors {
		p := strings.TrimPrefix(strings.TrimPrefix(e.Location, "body"), ".")
		if prop, ok := strings.CutPrefix(e.Message, "expected required property "); ok {
			prop, _, _ = strings.Cut(prop, " ")
			p = strings.TrimPrefix(p+"."+prop, ".")
		}
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, true
}

// TestHandlerEqual checks that the library's POST handler and huma's
// answer the same bodies alike: 201 with the same order, or a refusal
// naming the same fields (huma reports each set of fields in its schema's
// order and a missing property at its object, so the paths are compared
// as sets).
func TestHandlerEqual(t *testing.T) {
	ours, theirs := NewExposeHandler(orderEntity), NewHumaHandler()
	for _, tt := range orderCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			a, b := httptest.NewRecorder(), httptest.NewRecorder()
			ours.ServeHTTP(a, NewRequest("POST", "application/json", []byte(tt.body)).Reset())
			theirs.ServeHTTP(b, NewRequest("POST", "application/json", []byte(tt.body)).Reset())
			refusedA := a.Code != http.StatusCreated
			paths, refusedB := humaPaths(t, b)
			if refusedA != (tt.fails != nil || tt.parse) {
				t.Fatalf("the library answers %d %s", a.Code, a.Body)
			}
			if refusedA != refusedB {
				t.Fatalf("the library answers %d, huma %d %s", a.Code, b.Code, b.Body)
			}
			if tt.fails != nil {
				slices.Sort(paths)
				want := slices.Sorted(slices.Values(tt.fails))
				if !slices.Equal(paths, want) {
					t.Errorf("huma fails %q, want %q", paths, want)
				}
			}
			if refusedA {
				return
			}
			var got, want any
			if err := stdjson.Unmarshal(a.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if err := stdjson.Unmarshal(b.Body.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			// A nil slice of order lines is an empty list in the library's
			// response ([]), null in encoding/json's, huma's.
			if m, _ := want.(map[string]any); m != nil && m["lines"] == nil {
				m["lines"] = []any{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the library answers\n%s\nhuma\n%s", a.Body, b.Body)
			}
		})
	}
}

// TestPatchEqual checks that Patch (then Bind of the merged value) and the
// RFC 7396 merge with encoding/json and the validator accept and refuse
// the same patches of the stored order, with the same failing fields, and
// merge to the same order.
func TestPatchEqual(t *testing.T) {
	tests := []struct {
		name  string
		patch string
		fails []string
	}{
		{"3 fields", OrderPatch, nil},
		{"nothing", `{}`, nil},
		{"age cleared", `{"age":null}`, nil},
		{"tags replaced", `{"tags":["a","b"]}`, nil},
		{"lines replaced", `{"lines":[{"sku":"NEW-1","qty":9}]}`, nil},
		{"an unknown key", `{"coupon":"X"}`, nil},
		{"email refused", `{"email":"bad"}`, []string{"email"}},
		{"name cleared", `{"name":null}`, []string{"name"}},
		{"zip cleared", `{"address":{"zip":null}}`, []string{"address.zip"}},
		{"an empty tag", `{"tags":["a",""]}`, []string{"tags[1]"}},
		{"a line refused", `{"lines":[{"sku":"ab","qty":1}]}`, []string{"lines[0].sku"}},
		{"two fields refused", `{"age":-1,"address":{"city":""}}`, []string{"age", "address.city"}},
	}
	for _, lines := range LineCounts {
		for _, tt := range tests {
			t.Run(tt.name+"/lines="+strconv.Itoa(lines), func(t *testing.T) {
				merged, _, err := orderEntity.Patch(NewRequest("PATCH", entity.MergePatchType, []byte(tt.patch)).Reset(), StoredOrder(lines))
				got, other := libraryPaths(t, err)
				if other || !slices.Equal(got, tt.fails) {
					t.Fatalf("Patch fails %q (%v), want %q", got, err, tt.fails)
				}
				w, err := MergeDecodeValidate(NewRequest("PATCH", entity.MergePatchType, []byte(tt.patch)).Reset(), StoredWireOrder(lines))
				if p := FieldPaths(err); !slices.Equal(p, tt.fails) || (err != nil) != (tt.fails != nil) {
					t.Fatalf("merge+json+validator fails %q (%v), want %q", p, err, tt.fails)
				}
				if tt.fails != nil {
					return
				}
				var o Order
				if err := merged.Bind(&o); err != nil {
					t.Fatal(err)
				}
				if got := wireOf(requestOf(&o)); !reflect.DeepEqual(got, normalWire(w)) {
					t.Errorf("Patch merges to %+v, the merge %+v", got, w)
				}
			})
		}
	}
}

// requestOf returns the order o as the request struct holds it.
func requestOf(o *Order) *OrderRequest {
	r := &OrderRequest{Name: o.Name, Email: o.Email, Age: o.Age, Tags: o.Tags, Street: o.Street, City: o.City, Zip: o.Zip}
	for _, l := range o.Lines {
		r.Lines = append(r.Lines, LineRequest(l))
	}
	return r
}

// TestOrderMap checks that the order as a map (OrderMap, cmd/opcount's
// order/AppendJSON) is the stored struct's value.
func TestOrderMap(t *testing.T) {
	for _, lines := range LineCounts {
		a, err := orderEntity.MakeJSON(OrderMap(lines))
		if err != nil {
			t.Fatal(err)
		}
		b, err := orderEntity.MakeJSON(StoredOrder(lines))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("%d lines: the map writes\n%s\nthe struct\n%s", lines, a, b)
		}
	}
}
