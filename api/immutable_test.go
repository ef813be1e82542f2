package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/expose-go/expose/api"
	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestImmutableOverHTTP: an API of accounts whose handle is immutable
// (an .entity file): a POST sets it, a PATCH that sends it again is a
// 200, one that changes it a 400 problem naming it with code immutable
// (and nothing is stored), and the document's PATCH body says that it
// cannot change.
func TestImmutableOverHTTP(t *testing.T) {
	reg := entity.NewRegistry()
	err := reg.LoadFS(fstest.MapFS{"accounts.entity": {Data: []byte(`account {
  id      number  readonly
  handle  string  immutable | req | min 3
  name    string
}
`)}}, "*.entity")
	if err != nil {
		t.Fatal(err)
	}
	account := reg.MustLookup("account")
	var mu sync.Mutex
	stored := map[string]any{}
	mux := http.NewServeMux()
	a := api.New(mux, api.Config{Info: schema.Info{Title: "accounts", Version: "1"}})
	a.HandleFunc("POST /accounts", func(w http.ResponseWriter, r *http.Request) {
		o, err := account.MakeRequest(r)
		if err != nil {
			reg.WriteError(w, err)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		stored = o.Map()
		stored["id"] = 1
		account.WriteStatus(w, http.StatusCreated, stored)
	}, api.Operation{Request: account, Response: account, Status: http.StatusCreated})
	a.HandleFunc("PATCH /accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		merged, _, err := account.Patch(r, stored)
		if err != nil {
			reg.WriteError(w, err)
			return
		}
		stored = merged.Map()
		stored["id"] = 1
		account.Write(w, stored)
	}, api.Operation{Request: account, Response: account})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	send := func(method, path, ctype, body string) (int, string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	steps := []struct {
		name, method, path, ctype, body string
		status                          int
		holds                           []string
	}{
		{"a POST sets it", "POST", "/accounts", "application/json", `{"handle":"ann","name":"Ann"}`, 201, []string{`"handle":"ann"`}},
		{"a PATCH sends it again", "PATCH", "/accounts/1", entity.MergePatchType, `{"handle":"ann","name":"Annie"}`, 200, []string{`"handle":"ann"`, `"name":"Annie"`}},
		{"a PATCH changes it", "PATCH", "/accounts/1", entity.MergePatchType, `{"handle":"mallory","name":"M"}`, 400,
			[]string{`"pointer":"/handle"`, `"code":"immutable"`, `"message":"cannot change once set"`}},
		{"nothing was stored", "PATCH", "/accounts/1", entity.MergePatchType, `{}`, 200, []string{`"handle":"ann"`, `"name":"Annie"`}},
		{"the document's PATCH body", "GET", "/openapi.json", "", "", 200, []string{"a patch may send the value it holds"}},
	}
	for _, s := range steps {
		status, body := send(s.method, s.path, s.ctype, s.body)
		if status != s.status {
			t.Fatalf("%s: %s %s = %d %s, want %d", s.name, s.method, s.path, status, body, s.status)
		}
		for _, h := range s.holds {
			if !strings.Contains(body, h) {
				t.Errorf("%s: %s %s = %s, want it to hold %s", s.name, s.method, s.path, body, h)
			}
		}
		if strings.Contains(body, "mallory") {
			t.Errorf("%s: %s quotes the value sent", s.name, body)
		}
	}
}
