package entity_test

import (
	"errors"
	"fmt"
	"iter"
	"net/http/httptest"
	"os"

	"github.com/expose-go/expose/entity"
)

// EncodeSeq writes a list as its elements come. When one fails, what was
// written stays written, and the array is left open: a client never
// mistakes the cut output for the whole list.
func ExampleEncodeSeq() {
	reg := entity.NewRegistry()
	user := reg.MustExpose("user", "id", "number", "req", "mail", "string", "email")
	rows := func(mails ...string) iter.Seq2[map[string]any, error] {
		return func(yield func(map[string]any, error) bool) {
			for i, m := range mails {
				if !yield(map[string]any{"id": i + 1, "mail": m}, nil) {
					return
				}
			}
		}
	}

	err := entity.EncodeSeq(os.Stdout, user, rows("ann@example.com", "bo@example.com"))
	fmt.Println("\n", err)
	err = entity.EncodeSeq(os.Stdout, user, rows("ann@example.com", "not-an-address", "cy@example.com"))
	fmt.Println("\n", err)

	// Into a ResponseWriter, EncodeSeq is the response; the handler's
	// Content-Type application/x-ndjson asks for one object a line.
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", "application/x-ndjson")
	err = entity.EncodeSeq(rec, user, rows("ann@example.com", "bo@example.com"))
	fmt.Printf("%d %s\n%s%v\n", rec.Code, rec.Header().Get("Content-Type"), rec.Body, err)
	// Output:
	// [{"id":1,"mail":"ann@example.com"},{"id":2,"mail":"bo@example.com"}]
	//  <nil>
	// [{"id":1,"mail":"ann@example.com"}
	//  entity "user": 1 field failed: [1].mail: must be a valid email address (email)
	// 200 application/x-ndjson
	// {"id":1,"mail":"ann@example.com"}
	// {"id":2,"mail":"bo@example.com"}
	// <nil>
}

// Selected tells a handler whether the call's selection writes a field,
// so that it loads only what it sends.
func ExampleEntity_Selected() {
	reg := entity.NewRegistry()
	reg.MustExpose("order", "id", "number", "", "total", "float", "")
	reg.MustExpose("customer", "id", "number", "", "name", "string", "", "orders", "$order", "")
	page := reg.MustExpose("page", "list", "$customer", "")
	// At start-up: a typo in a path the handler asks about fails here.
	if _, err := page.MakeJSON(nil, entity.Only("list.orders")); errors.Is(err, entity.ErrUnknownField) {
		panic(err)
	}

	for _, fields := range []string{"", "list(id,name)", "list(orders(total))"} {
		sel := entity.Select(fields) // from the request's ?fields=
		fmt.Printf("fields=%s: load orders %v\n", fields, page.Selected("list.orders", sel))
	}
	// Output:
	// fields=: load orders true
	// fields=list(id,name): load orders false
	// fields=list(orders(total)): load orders true
}
