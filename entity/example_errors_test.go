package entity_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/expose-go/expose/entity"
)

// A handler's own check ("no customer 42") is a field error like the
// library's: a code declared with its messages, an error at a JSON
// Pointer, answered with the library's errors in one problem, in the
// request's language.
func ExampleEntity_Fail() {
	reg := entity.NewRegistry()
	orders := reg.MustExpose("order", "POST", "customer_id", "number", "req", "note", "string", "max 20")
	if err := reg.DeclareCode("no_customer", map[string]string{
		"en": "names no customer ({id})",
		"ja": "顧客{id}は存在しません",
	}); err != nil {
		panic(err)
	}
	customers := map[int64]bool{7: true}

	handler := func(w http.ResponseWriter, r *http.Request) {
		o, err := orders.MakeRequest(r)
		if err == nil {
			v, _ := o.Get("customer_id")
			if id, _ := v.(int64); !customers[id] {
				err = orders.Fail(r, nil, entity.NewFieldError("/customer_id", "no_customer", map[string]any{"id": id}))
			}
		}
		if err != nil {
			entity.WriteError(w, err)
			return
		}
		orders.WriteStatus(w, http.StatusCreated, o)
	}

	for _, lang := range []string{"en", "ja"} {
		r := httptest.NewRequest("POST", "/orders", strings.NewReader(`{"customer_id":42}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept-Language", lang)
		rec := httptest.NewRecorder()
		handler(rec, r)
		fmt.Println(reg.RequestLang(r), rec.Code, rec.Body)
	}
	// Output:
	// en 400 {"type":"/problems/validation","title":"Validation failed","status":400,"detail":"1 field failed validation","errors":[{"pointer":"/customer_id","path":"customer_id","outputPath":"customer_id","code":"no_customer","params":{"id":42},"message":"names no customer (42)"}]}
	// ja 400 {"type":"/problems/validation","title":"入力内容に誤りがあります","status":400,"detail":"1件の項目に誤りがあります","errors":[{"pointer":"/customer_id","path":"customer_id","outputPath":"customer_id","code":"no_customer","params":{"id":42},"message":"顧客42は存在しません"}]}
}

// A handler merges its own field errors with those of the library: one
// problem lists them all.
func ExampleNewFieldError() {
	reg := entity.NewRegistry()
	orders := reg.MustExpose("order", "quantity", "number", "range 1 1000")
	if err := reg.DeclareCode("unknown_sku", map[string]string{"en": "{sku} is not in the catalogue"}); err != nil {
		panic(err)
	}
	r := httptest.NewRequest("POST", "/orders", strings.NewReader(`{"quantity":0}`))
	r.Header.Set("Content-Type", "application/json")
	_, err := orders.MakeRequest(r)
	err = orders.Fail(r, err, entity.NewFieldError("/items/0/sku", "unknown_sku", map[string]any{"sku": "A-1"}))
	var ve *entity.ValidationError
	if errors.As(err, &ve) {
		for _, f := range ve.Fields {
			fmt.Printf("%s %s: %s\n", f.Pointer, f.Code, f.Message)
		}
	}
	// Output:
	// /quantity range: must be between 1 and 1000
	// /items/0/sku unknown_sku: A-1 is not in the catalogue
}
