package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// An API on the application's own mux: each handler registered with what
// its operation reads and answers. The document is made from the routes:
// {id} is an integer because the entity that reads it says so; an unknown
// path and a wrong method answer problem details.
func ExampleNew() {
	reg := entity.NewRegistry()
	ref := reg.MustExpose("customer_ref", "id", "number", "path | min 1")
	customer := reg.MustExpose("customer",
		"id", "number", "readonly",
		"name", "string", "req | min 1 | max 100 | doc 'the full name'",
	)

	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "shop", Version: "1.0.0"}})
	a.HandleFunc("GET /customers/{id}", func(w http.ResponseWriter, r *http.Request) {
		o, err := ref.MakeRequest(r)
		if err != nil {
			entity.WriteError(w, err)
			return
		}
		id, _ := o.Get("id")
		customer.Write(w, map[string]any{"id": id, "name": "Ann Lee"})
	}, api.Operation{
		Summary:  "a customer",
		Request:  ref,
		Response: customer,
		Errors:   []schema.ErrorResponse{{Status: http.StatusNotFound, Description: "no customer has this id"}},
	})

	for _, target := range []string{"GET /customers/42", "DELETE /customers/42", "GET /orders"} {
		var method, path string
		fmt.Sscan(target, &method, &path)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		fmt.Println(target, rec.Code, rec.Header().Get("Allow"), rec.Body.String())
	}

	doc, _ := a.OpenAPI(api.Audience{})
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string
			Parameters  []struct {
				Name   string
				Schema struct{ Type string }
			}
		}
	}
	json.Unmarshal(doc, &d)
	op := d.Paths["/customers/{id}"]["get"]
	fmt.Println(op.OperationID, op.Parameters[0].Name, op.Parameters[0].Schema.Type)
	// Output:
	// GET /customers/42 200  {"id":42,"name":"Ann Lee"}
	// DELETE /customers/42 405 GET, HEAD {"type":"about:blank","title":"Method Not Allowed","status":405,"detail":"the method is not allowed"}
	// GET /orders 404  {"type":"about:blank","title":"Not Found","status":404,"detail":"not found"}
	// getCustomersById id integer
}

// A GET answers the ETag of its bytes, and a 304 to an If-None-Match
// that names it; a PATCH checks If-Match with Precondition before it
// changes anything: a stale tag is a 412, the current one proceeds and
// answers the new value's tag.
func ExamplePrecondition() {
	reg := entity.NewRegistry()
	note := reg.MustExpose("note", "text", "string", "req")
	current := map[string]any{"text": "hello"}

	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "notes", Version: "1"}})
	a.HandleFunc("GET /note", func(w http.ResponseWriter, r *http.Request) {
		note.Write(w, current)
	}, api.Operation{Response: note})
	a.HandleFunc("PATCH /note", func(w http.ResponseWriter, r *http.Request) {
		if err := api.Precondition(r, note, current); err != nil {
			reg.WriteError(w, err)
			return
		}
		merged, _, err := note.Patch(r, current)
		if err != nil {
			reg.WriteError(w, err)
			return
		}
		current = merged.Map()
		note.Write(w, current)
	}, api.Operation{Request: note, Response: note, IfMatch: true})

	send := func(method, header, value, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/note", strings.NewReader(body))
		r.Header.Set("Content-Type", entity.MergePatchType)
		if header != "" {
			r.Header.Set(header, value)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, r)
		return rec
	}
	tag := send("GET", "", "", "").Header().Get("ETag")
	fmt.Println("GET, If-None-Match its tag:", send("GET", "If-None-Match", tag, "").Code)
	fmt.Println("PATCH, a stale If-Match:", send("PATCH", "If-Match", `"stale"`, `{"text":"bye"}`).Code, current["text"])
	rec := send("PATCH", "If-Match", tag, `{"text":"bye"}`)
	fmt.Println("PATCH, its tag:", rec.Code, current["text"], rec.Header().Get("ETag") != tag)
	fmt.Println("GET, If-None-Match the old tag:", send("GET", "If-None-Match", tag, "").Code)
	// Output:
	// GET, If-None-Match its tag: 304
	// PATCH, a stale If-Match: 412 hello
	// PATCH, its tag: 200 bye true
	// GET, If-None-Match the old tag: 200
}
