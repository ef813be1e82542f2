package entity_test

import (
	"context"
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

// A checked handle runs the handler's check whether the declared rules
// passed or not: a bad quantity and an unknown customer are one 400. The
// check reads a typed value with Value, which reports none for a field
// the declared rules refused (Object.Failed says which), so that it never
// looks up what is no id.
func ExampleEntity_Checked() {
	reg := entity.NewRegistry()
	if err := reg.DeclareCode("no_customer", map[string]string{"en": "names no customer", "ja": "顧客が見つかりません"}); err != nil {
		panic(err)
	}
	customers := map[int64]bool{7: true}
	orders := reg.MustExpose("order", "POST", "customer_id", "number", "req", "quantity", "number", "range 1 1000").
		Checked(func(ctx context.Context, o *entity.Object) error {
			id, ok, err := entity.Value[int64](o, "customer_id")
			if err != nil || !ok {
				return err // no valid id: the declared rules say so
			}
			if !customers[id] {
				return entity.NewFieldError("/customer_id", "no_customer", nil)
			}
			return nil
		})
	for _, body := range []string{`{"customer_id":42,"quantity":0}`, `{"customer_id":"forty-two","quantity":0}`} {
		r := httptest.NewRequest("POST", "/orders", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept-Language", "ja")
		_, err := orders.MakeRequest(r)
		rec := httptest.NewRecorder()
		reg.WriteRequestError(rec, r, err)
		fmt.Println(rec.Code, rec.Header().Get("Content-Language"), rec.Body)
	}
	// Output:
	// 400 ja {"type":"/problems/validation","title":"入力内容に誤りがあります","status":400,"detail":"2件の項目に誤りがあります","errors":[{"pointer":"/quantity","path":"quantity","outputPath":"quantity","code":"range","params":{"max":1000,"min":1},"message":"1以上1000以下の値にしてください"},{"pointer":"/customer_id","path":"customer_id","outputPath":"customer_id","code":"no_customer","message":"顧客が見つかりません"}]}
	// 400 ja {"type":"/problems/validation","title":"入力内容に誤りがあります","status":400,"detail":"2件の項目に誤りがあります","errors":[{"pointer":"/customer_id","path":"customer_id","outputPath":"customer_id","code":"type","params":{"got":"string","type":"number"},"message":"整数で指定してください（文字列が送られました）"},{"pointer":"/quantity","path":"quantity","outputPath":"quantity","code":"range","params":{"max":1000,"min":1},"message":"1以上1000以下の値にしてください"}]}
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
