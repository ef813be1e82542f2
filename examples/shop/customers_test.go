package main

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// TestCreateCustomer: POST /customers answers 201 with the customer, an
// id the server assigns, the tier's default, created_at, never the
// password, and a Location header with the customer's path.
func TestCreateCustomer(t *testing.T) {
	h := newServer()
	for i, body := range []string{ann, bob} {
		rec := call(t, h, "POST", "/customers", body)
		entitytest.CheckResponse(t, rec, customers, http.StatusCreated)
		c := decode(t, rec.Body.Bytes())
		id := float64(i + 1)
		if c["id"] != id {
			t.Errorf("id %v, want %v", c["id"], id)
		}
		if loc, want := rec.Header().Get("Location"), "/customers/"+string(rune('0'+i+1)); loc != want {
			t.Errorf("Location %q, want %q", loc, want)
		}
		if _, ok := c["password"]; ok || strings.Contains(rec.Body.String(), "s3cret") {
			t.Errorf("the answer holds the password: %s", rec.Body)
		}
		if _, ok := c["loyalty_points"]; ok {
			t.Errorf("the public answer holds loyalty_points: %s", rec.Body)
		}
		if at, err := time.Parse(time.RFC3339, c["created_at"].(string)); err != nil || time.Since(at) > time.Minute {
			t.Errorf("created_at %v: %v", c["created_at"], err)
		}
	}
	rec := call(t, h, "GET", "/customers/2", "")
	if c := decode(t, rec.Body.Bytes()); c["tier"] != "bronze" || c["name"] != "Bob" {
		t.Errorf("GET /customers/2 %s: want Bob, tier bronze (the default)", rec.Body)
	}
}

// TestCreateCustomerErrors: a bad body is a 400 listing every failing
// field by pointer; "address":[] is a 400 at /address; text/plain a 415;
// a body that is not JSON a 400.
func TestCreateCustomerErrors(t *testing.T) {
	tests := []struct {
		name, body, contentType string
		status                  int
		want                    []string // pointer code, in order
		problemType             string
	}{
		{name: "empty object", body: `{}`, status: 400, want: []string{
			"/name required", "/email required", "/password required", "/address required"}},
		{name: "every rule", body: `{"name":"","email":"ann","password":"short","tier":"platinum","address":{"city":"Kyoto"}}`, status: 400,
			want: []string{"/name min", "/email email", "/password min", "/tier in", "/address/zip required"}},
		{name: "long name", body: `{"name":"` + strings.Repeat("a", 101) + `","email":"a@example.com","password":"s3cret-pw","address":{"city":"K","zip":"1"}}`,
			status: 400, want: []string{"/name max"}},
		{name: "address a list", body: `{"name":"Ann","email":"ann@example.com","password":"s3cret-pw","address":[]}`, status: 400,
			want: []string{"/address type"}},
		{name: "name a number", body: `{"name":12,"email":"ann@example.com","password":"s3cret-pw","address":{"city":"K","zip":"1"}}`, status: 400,
			want: []string{"/name type"}},
		{name: "text/plain", body: ann, contentType: "text/plain", status: 415, problemType: "/problems/unsupported-media-type"},
		{name: "not JSON", body: `{"name":`, status: 400, problemType: "/problems/invalid-json"},
		{name: "a JSON list", body: `[` + ann + `]`, status: 400, problemType: "/problems/invalid-json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newServer()
			ct := tt.contentType
			if ct == "" {
				ct = "application/json"
			}
			rec := call(t, h, "POST", "/customers", tt.body, "Content-Type", ct)
			entitytest.CheckResponse(t, rec, customers, tt.status)
			p := readProblem(t, rec)
			if got := where(p); !slices.Equal(got, tt.want) {
				t.Errorf("errors at %q, want %q", got, tt.want)
			}
			if tt.problemType != "" && p.Type != tt.problemType {
				t.Errorf("type %q, want %q", p.Type, tt.problemType)
			}
			if strings.Contains(rec.Body.String(), "short") || strings.Contains(rec.Body.String(), "platinum") {
				t.Errorf("the problem quotes the input: %s", rec.Body)
			}
			if rec := call(t, h, "GET", "/customers", ""); strings.Contains(rec.Body.String(), `"id"`) {
				t.Errorf("a refused POST stored a customer: %s", rec.Body)
			}
		})
	}
}

// TestCreateCustomerJapanese: Accept-Language: ja gives Japanese
// messages, title and detail.
func TestCreateCustomerJapanese(t *testing.T) {
	rec := call(t, newServer(), "POST", "/customers", `{"email":"ann","password":"short","address":{"city":"Kyoto"}}`,
		"Accept-Language", "ja")
	entitytest.CheckResponse(t, rec, customers, http.StatusBadRequest)
	entitytest.Golden(t, "customer-ja.json", rec.Body.Bytes())
	if v := strings.Join(rec.Header().Values("Vary"), ", "); v != "X-Role, Accept-Language" {
		t.Errorf("Vary %q, want X-Role (a customer has a field only the staff see), Accept-Language", v)
	}
}

// TestGetCustomer: 200 with the customer; an unknown id 404, an id that
// is not an integer 400 naming the path parameter, both problem details.
func TestGetCustomer(t *testing.T) {
	h := withCustomers(t, ann)
	tests := []struct {
		name, target string
		status       int
		want         []string
	}{
		{"known", "/customers/1", 200, nil},
		{"selected", "/customers/1?fields=id,name", 200, nil},
		{"unknown", "/customers/2", 404, nil},
		{"not an integer", "/customers/abc", 400, []string{"path:id type"}},
		{"zero", "/customers/0", 400, []string{"path:id min"}},
		{"too large", "/customers/99999999999999999999", 400, []string{"path:id type"}},
		{"bad selection", "/customers/1?fields=list(id", 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := call(t, h, "GET", tt.target, "")
			entitytest.CheckResponse(t, rec, customers, tt.status, entitytest.Partial())
			if tt.status != 200 {
				if got := where(readProblem(t, rec)); !slices.Equal(got, tt.want) {
					t.Errorf("errors at %q, want %q", got, tt.want)
				}
			}
		})
	}
	rec := call(t, h, "GET", "/customers/1?fields=id,name", "")
	entitytest.Equal(t, rec.Body.Bytes(), `{"id":1,"name":"Ann"}`)
}

// TestGetUnknownCustomer: the 404 of an id that names no customer is in
// the client's language, title and detail, and says so.
func TestGetUnknownCustomer(t *testing.T) {
	h := withCustomers(t, ann)
	tests := []struct {
		accept, lang, title, detail string
	}{
		{"en", "en", "Not Found", "no resource has this id"},
		{"ja", "ja", "見つかりません", "この ID のリソースはありません"},
		{"fr, ja;q=0.5", "ja", "見つかりません", "この ID のリソースはありません"},
		{"fr", "en", "Not Found", "no resource has this id"},
	}
	for _, tt := range tests {
		t.Run(tt.accept, func(t *testing.T) {
			rec := call(t, h, "GET", "/customers/999", "", "Accept-Language", tt.accept)
			entitytest.CheckResponse(t, rec, customers, http.StatusNotFound)
			if p := readProblem(t, rec); p.Title != tt.title || p.Detail != tt.detail {
				t.Errorf("title %q, detail %q; want %q, %q", p.Title, p.Detail, tt.title, tt.detail)
			}
			if h := rec.Header(); h.Get("Content-Language") != tt.lang || !slices.Contains(varies(h), "Accept-Language") {
				t.Errorf("Content-Language %q, Vary %q", h.Get("Content-Language"), h.Values("Vary"))
			}
		})
	}
}

// TestPatchCustomer: a merge patch changes what it names and nothing
// else; a refused patch changes nothing.
func TestPatchCustomer(t *testing.T) {
	tests := []struct {
		name, patch, contentType string
		status                   int
		want                     []string // the problem's entries
		changed                  map[string]any
	}{
		{name: "name", patch: `{"name":"Ann Lee"}`, status: 200, changed: map[string]any{"name": "Ann Lee"}},
		{name: "address zip", patch: `{"address":{"zip":"600-0000"}}`, status: 200,
			changed: map[string]any{"address": map[string]any{"city": "Kyoto", "zip": "600-0000"}}},
		{name: "password", patch: `{"password":"an0ther-pw"}`, status: 200},
		{name: "readonly id ignored", patch: `{"id":7,"created_at":"2000-01-01T00:00:00Z"}`, status: 200},
		{name: "email cleared", patch: `{"email":null}`, status: 400, want: []string{"/email required"}},
		{name: "tier platinum", patch: `{"tier":"platinum"}`, status: 400, want: []string{"/tier in"}},
		{name: "name and bad tier", patch: `{"name":"Ann Lee","tier":"platinum"}`, status: 400, want: []string{"/tier in"}},
		{name: "address cleared", patch: `{"address":null}`, status: 400, want: []string{"/address required"}},
		{name: "short password", patch: `{"password":"short"}`, status: 400, want: []string{"/password min"}},
		{name: "application/json", patch: `{"name":"Ann Lee"}`, contentType: "application/json", status: 415},
		{name: "not JSON", patch: `{"name"`, status: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := withCustomers(t, ann)
			before := call(t, h, "GET", "/customers/1", "").Body.Bytes()
			ct := tt.contentType
			if ct == "" {
				ct = entity.MergePatchType
			}
			rec := call(t, h, "PATCH", "/customers/1", tt.patch, "Content-Type", ct)
			entitytest.CheckResponse(t, rec, customers, tt.status)
			if tt.status != 200 {
				if got := where(readProblem(t, rec)); !slices.Equal(got, tt.want) {
					t.Errorf("errors at %q, want %q", got, tt.want)
				}
			}
			want := decode(t, before)
			for k, v := range tt.changed {
				want[k] = v
			}
			if rec.Code == 200 {
				entitytest.Equal(t, rec.Body.Bytes(), want)
			}
			entitytest.Equal(t, call(t, h, "GET", "/customers/1", "").Body.Bytes(), want)
		})
	}
	h := withCustomers(t, ann)
	if rec := call(t, h, "PATCH", "/customers/9", `{"name":"X"}`, "Content-Type", entity.MergePatchType); rec.Code != 404 {
		t.Errorf("PATCH of an unknown customer: %d, want 404", rec.Code)
	}
}

// TestListCustomers: the customers in the order they were created,
// offset skips, limit caps (1 to 100, a 400 naming the query parameter),
// fields selects; loyalty_points only for X-Role: admin.
func TestListCustomers(t *testing.T) {
	h := withCustomers(t, ann, bob, cid)
	tests := []struct {
		name, query, role string
		status            int
		offset, limit     float64
		names             []string
		want              []string // the problem's entries
	}{
		{name: "default", status: 200, limit: 20, names: []string{"Ann", "Bob", "Cid"}},
		{name: "offset", query: "offset=1", status: 200, offset: 1, limit: 20, names: []string{"Bob", "Cid"}},
		{name: "limit", query: "limit=2", status: 200, limit: 2, names: []string{"Ann", "Bob"}},
		{name: "both", query: "limit=1&offset=1", status: 200, offset: 1, limit: 1, names: []string{"Bob"}},
		{name: "past the end", query: "offset=5", status: 200, offset: 5, limit: 20},
		{name: "limit 100", query: "limit=100", status: 200, limit: 100, names: []string{"Ann", "Bob", "Cid"}},
		{name: "limit abc", query: "limit=abc", status: 400, want: []string{"query:limit type"}},
		{name: "limit 0", query: "limit=0", status: 400, want: []string{"query:limit range"}},
		{name: "limit 101", query: "limit=101", status: 400, want: []string{"query:limit range"}},
		{name: "offset -1", query: "offset=-1", status: 400, want: []string{"query:offset min"}},
		{name: "loyalty_points selected", query: "fields=list(loyalty_points)", status: 400},
		{name: "admin", role: "admin", status: 200, limit: 20, names: []string{"Ann", "Bob", "Cid"}},
		{name: "admin selects loyalty_points", query: "fields=list(loyalty_points)", role: "admin", status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := call(t, h, "GET", "/customers?"+tt.query, "", "X-Role", tt.role)
			var opts []entitytest.Option
			if tt.role == "admin" {
				opts = append(opts, entitytest.Call(entity.With("admin")))
			}
			if strings.Contains(tt.query, "fields") {
				opts = append(opts, entitytest.Partial())
			}
			entitytest.CheckResponse(t, rec, customerPage, tt.status, opts...)
			if tt.status != 200 {
				if got := where(readProblem(t, rec)); tt.want != nil && !slices.Equal(got, tt.want) {
					t.Errorf("errors at %q, want %q", got, tt.want)
				}
				return
			}
			page := decode(t, rec.Body.Bytes())
			list, _ := page["list"].([]any)
			if tt.names != nil {
				if page["offset"] != tt.offset || page["limit"] != tt.limit {
					t.Errorf("offset %v, limit %v; want %v, %v", page["offset"], page["limit"], tt.offset, tt.limit)
				}
				var names []string
				for _, c := range list {
					names = append(names, c.(map[string]any)["name"].(string))
				}
				if !slices.Equal(names, tt.names) {
					t.Errorf("customers %q, want %q", names, tt.names)
				}
			}
			for _, c := range list {
				if _, ok := c.(map[string]any)["loyalty_points"]; ok != (tt.role == "admin") {
					t.Errorf("loyalty_points there: %v, for role %q", ok, tt.role)
				}
			}
		})
	}
	rec := call(t, h, "GET", "/customers?limit=2&fields=list(id,name)", "")
	entitytest.Equal(t, rec.Body.Bytes(), `{"list":[{"id":1,"name":"Ann"},{"id":2,"name":"Bob"}]}`)
	rec = call(t, h, "GET", "/customers?limit=1&fields=list(loyalty_points)", "", "X-Role", "admin")
	entitytest.Equal(t, rec.Body.Bytes(), `{"list":[{"loyalty_points":0}]}`)
}

// TestRolesFromHeaderOnly: only X-Role: admin makes a call the staff's.
func TestRolesFromHeaderOnly(t *testing.T) {
	h := withCustomers(t, ann)
	for _, role := range []string{"", "Admin", "admin ", "user"} {
		rec := call(t, h, "GET", "/customers/1", "", "X-Role", role)
		entitytest.CheckResponse(t, rec, customers, http.StatusOK)
		if strings.Contains(rec.Body.String(), "loyalty_points") {
			t.Errorf("X-Role %q sees loyalty_points", role)
		}
	}
}

// TestCreateCustomerReadsTheBodyOnly: a POST reads its fields from the
// body only (a query value fills none), and ignores the readonly keys a
// client sends back.
func TestCreateCustomerReadsTheBodyOnly(t *testing.T) {
	h := newServer()
	body := `{"id":42,"created_at":"2000-01-01T00:00:00Z","loyalty_points":1000,` + bob[1:]
	rec := call(t, h, "POST", "/customers?tier=gold&name=Eve", body, "X-Role", "admin")
	entitytest.CheckResponse(t, rec, customers, http.StatusCreated, entitytest.Call(entity.With("admin")))
	c := decode(t, rec.Body.Bytes())
	if c["id"] != float64(1) || c["tier"] != "bronze" || c["name"] != "Bob" || c["loyalty_points"] != float64(0) ||
		strings.HasPrefix(c["created_at"].(string), "2000") {
		t.Errorf("the customer %s holds a value of the query or a readonly key", rec.Body)
	}
}
