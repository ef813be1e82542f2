package entity_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// Bind: MakeRequest of the wire form, then its values into the caller's
// struct or map by their declared names: the struct Make reads.

// bindRegistry declares "signup" (POST only) and the "tag" it references.
func bindRegistry(t testing.TB) *entity.Registry {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "tag",
		"name", "string", "req",
		"weight", "float", "default 1",
	)
	expose(t, reg, "signup", "POST",
		"name", "string", "req | min 2",
		"user_id", "number", "rename 'id'",
		"born", "date", "",
		"address", "{", "rename 'addr'",
		"city", "string", "req",
		"zip", "string", "default '000-0000'",
		"geo", "{", "",
		"lat", "float", "",
		"geo", "}", "",
		"address", "}", "",
		"tags", "[]$tag", "",
		"lead", "$tag", "",
		"pin", "string", "secret",
		"X-Request-Id", "string", "rename requestId",
	)
	return reg
}

type bindTag struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
}

// bindUser is the struct Make reads for "signup": its fields by declared
// name, the groups' fields beside their siblings.
type bindUser struct {
	Name      string    `json:"name"`
	UserID    int64     `json:"user_id"`
	Born      time.Time `json:"born"`
	City      string    `json:"city"`
	Zip       string    `json:"zip"`
	Lat       float64   `json:"lat"`
	Tags      []bindTag `json:"tags"`
	Lead      *bindTag  `json:"lead"`
	Pin       string    `json:"pin"`
	RequestID string    `json:"X-Request-Id"`
}

// bindRequest builds a request: a JSON body when body starts with '{', a
// form otherwise (empty for none).
func bindRequest(method, target, body string) *http.Request {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	switch {
	case strings.HasPrefix(body, "{"):
		r.Header.Set("Content-Type", "application/json")
	case body != "":
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return r
}

func TestBind(t *testing.T) {
	reg := bindRegistry(t)
	full := func() bindUser {
		var u bindUser
		u.Name, u.UserID, u.Born = "ann", 12, time.Date(2001, 2, 3, 0, 0, 0, 0, time.UTC)
		u.City, u.Zip, u.Lat = "Tokyo", "100-0001", 35.5
		u.Tags = []bindTag{{"go", 2}, {"web", 1}}
		u.Lead = &bindTag{"lead", 1}
		u.Pin = "1234"
		return u
	}
	tests := []struct {
		name string
		req  func() *http.Request
		opts []entity.Option
		want func() bindUser
	}{
		{
			name: "a JSON body in the wire form: groups flattened, $ref lists into slices, dates into time.Time",
			req: func() *http.Request {
				return bindRequest("POST", "/", `{"name":"ann","id":12,"born":"2001-02-03","addr":{"city":"Tokyo",`+
					`"zip":"100-0001","geo":{"lat":35.5}},"tags":[{"name":"go","weight":2},{"name":"web"}],"lead":{"name":"lead"},"pin":"1234"}`)
			},
			want: full,
		},
		{
			name: "defaults fill absent fields, nulls leave zero values",
			req: func() *http.Request {
				return bindRequest("POST", "/", `{"name":"bo","addr":{"city":"Osaka"},"born":null}`)
			},
			want: func() bindUser {
				return bindUser{Name: "bo", City: "Osaka", Zip: "000-0000"}
			},
		},
		{
			name: "Lax reads a request with the response side's conversions",
			req: func() *http.Request {
				return bindRequest("POST", "/", `{"name":"bo","addr":{"city":"Osaka"},"id":"abc"}`)
			},
			opts: []entity.Option{entity.Lax()},
			want: func() bindUser {
				return bindUser{Name: "bo", City: "Osaka", Zip: "000-0000"}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got bindUser
			if err := reg.Lookup("signup").Bind(tt.req(), &got, tt.opts...); err != nil {
				t.Fatalf("Bind: %v", err)
			}
			if diff := cmp.Diff(tt.want(), got); diff != "" {
				t.Errorf("Bind (-want +got):\n%s", diff)
			}
			// What Bind fills is what Make reads: made again, it is the
			// request's response form (a map keeps the nulls a struct's
			// value fields cannot).
			o, err := reg.Lookup("signup").MakeRequest(tt.req(), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := reg.Lookup("signup").Bind(tt.req(), &m, tt.opts...); err != nil {
				t.Fatal(err)
			}
			again, err := reg.Lookup("signup").MakeJSON(m)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != o.String() {
				t.Errorf("Bind then Make:\n got %s\nwant %s", again, o)
			}
		})
	}
}

// TestBindForm: a form, read by an entity whose methods hold the word
// form, gives top-level fields; a header field is read from the headers.
func TestBindForm(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "login", "POST form", "name", "string", "req", "age", "number", "", "X-Request-Id", "string", "rename requestId")
	var got struct {
		Name      string `json:"name"`
		Age       int    `json:"age"`
		RequestID string `json:"X-Request-Id"`
	}
	r := bindRequest("POST", "/?age=99", "name=ann&age=30")
	r.Header.Set("X-Request-Id", "r-1")
	if err := e.Bind(r, &got); err != nil {
		t.Fatal(err)
	}
	if got.Name != "ann" || got.Age != 30 || got.RequestID != "r-1" {
		t.Errorf("Bind: %+v", got)
	}
}

func TestBindMap(t *testing.T) {
	reg := bindRegistry(t)
	var got map[string]any
	r := bindRequest("POST", "/", `{"name":"ann","addr":{"city":"Tokyo"},"tags":[{"name":"go"}]}`)
	if err := reg.Lookup("signup").Bind(r, &got); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	want := map[string]any{
		"name": "ann", "user_id": nil, "born": nil, "city": "Tokyo", "zip": "000-0000", "lat": nil,
		"tags": []any{map[string]any{"name": "go", "weight": 1.0}}, "lead": nil, "pin": nil, "X-Request-Id": nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Bind into a map (-want +got):\n%s", diff)
	}
}

// readCounter is a request body that counts its reads.
type readCounter struct {
	io.Reader
	reads int
}

func (r *readCounter) Read(p []byte) (int, error) { r.reads++; return r.Reader.Read(p) }

func TestBindErrors(t *testing.T) {
	reg := bindRegistry(t)
	valid := `{"name":"ann","addr":{"city":"Tokyo"},"pin":"s3cr3t-pin"}`
	tests := []struct {
		name   string
		method string
		body   string
		dst    func() any
		is     error  // errors.Is
		as     any    // errors.As target, nil for none
		status int    // what WriteError answers
		msg    string // the message, when checked
		early  bool   // returned before the request is read
	}{
		{name: "a field fails", method: "POST", body: `{"name":"a"}`, dst: func() any { return &bindUser{} },
			is: entity.ErrValidation, as: new(*entity.ValidationError), status: 400},
		{name: "a value of the wrong kind, strictly", method: "POST", body: `{"name":"ann","addr":{"city":"x"},"id":"12.5"}`,
			dst: func() any { return &bindUser{} }, is: entity.ErrValidation, as: new(*entity.ValidationError), status: 400},
		{name: "a method not declared", method: "GET", body: valid, dst: func() any { return &bindUser{} },
			is: entity.ErrMethod, as: new(*entity.InputError), status: 405},
		{name: "a body that is not JSON", method: "POST", body: `{"name":`, dst: func() any { return &bindUser{} },
			is: entity.ErrInvalidJSON, as: new(*entity.InputError), status: 400},
		{name: "dst nil", early: true, method: "POST", body: valid, dst: func() any { return nil }, status: 500,
			msg: `entity "signup": Bind: dst is nil, want a pointer to a struct or a map`},
		{name: "dst not a pointer", early: true, method: "POST", body: valid, dst: func() any { return bindUser{} }, status: 500,
			msg: `entity "signup": Bind: dst is a entity_test.bindUser, not a pointer: pass &dst`},
		{name: "dst a nil pointer", early: true, method: "POST", body: valid, dst: func() any { return (*bindUser)(nil) }, status: 500,
			msg: `entity "signup": Bind: dst is a nil *entity_test.bindUser`},
		{name: "dst a nil map pointer", early: true, method: "POST", body: valid, dst: func() any { return (*map[string]any)(nil) }, status: 500,
			msg: `entity "signup": Bind: dst is a nil *map[string]interface {}`},
		{name: "dst field cannot hold the value", method: "POST", body: valid,
			dst: func() any {
				return &struct {
					Name int `json:"name"`
				}{}
			}, status: 500,
			msg: `entity "signup": Bind: the values do not decode into *struct { Name int "json:\"name\"" }: field name of Go type int cannot hold a JSON string`},
		{name: "a secret into a field that cannot hold it is not quoted", method: "POST", body: valid,
			dst: func() any {
				return &struct {
					Pin int `json:"pin"`
				}{}
			}, status: 500,
			msg: `entity "signup": Bind: the values do not decode into *struct { Pin int "json:\"pin\"" }: field pin of Go type int cannot hold a JSON string`},
		{name: "a secret into an UnmarshalJSON that fails is not quoted", method: "POST", body: valid,
			dst: func() any {
				return &struct {
					Pin time.Time `json:"pin"`
				}{}
			}, status: 500,
			msg: `entity "signup": Bind: the values do not decode into *struct { Pin time.Time "json:\"pin\"" }: a value fails the UnmarshalJSON of its Go field`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := &readCounter{Reader: strings.NewReader(tt.body)}
			r := httptest.NewRequest(tt.method, "/", body)
			r.Header.Set("Content-Type", "application/json")
			dst := tt.dst()
			err := reg.Lookup("signup").Bind(r, dst)
			if err == nil {
				t.Fatalf("Bind succeeded: %+v", dst)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Bind: %v, want errors.Is %v", err, tt.is)
			}
			if tt.as != nil && !errors.As(err, tt.as) {
				t.Errorf("Bind: %T %v, want errors.As %T", err, err, tt.as)
			}
			if tt.msg != "" {
				if err.Error() != tt.msg {
					t.Errorf("Bind:\n got %s\nwant %s", err, tt.msg)
				}
			}
			if tt.early && body.reads > 0 {
				t.Errorf("the body was read before dst was checked")
			}
			if strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("the error quotes the secret: %v", err)
			}
			w := httptest.NewRecorder()
			entity.WriteError(w, err)
			if w.Code != tt.status {
				t.Errorf("WriteError status = %d, want %d", w.Code, tt.status)
			}
			if u, ok := dst.(*bindUser); ok && u != nil && !cmp.Equal(*u, bindUser{}) {
				t.Errorf("dst was written on error: %+v", *u)
			}
		})
	}
}

func TestBindEntryPoints(t *testing.T) {
	reg := bindRegistry(t)
	t.Run("an unknown name", func(t *testing.T) {
		err := reg.Lookup("nobody").Bind(bindRequest("POST", "/", `{}`), &bindUser{})
		if !errors.Is(err, entity.ErrUnknownEntity) {
			t.Errorf("Bind: %v, want ErrUnknownEntity", err)
		}
	})
	t.Run("a nil entity", func(t *testing.T) {
		var e *entity.Entity
		if err := e.Bind(bindRequest("POST", "/", `{}`), &bindUser{}); !errors.Is(err, entity.ErrUnknownEntity) {
			t.Errorf("Bind: %v, want ErrUnknownEntity", err)
		}
	})
	t.Run("a nil request is an empty input", func(t *testing.T) {
		var u bindUser
		err := reg.Lookup("signup").Bind(nil, &u)
		if !errors.Is(err, entity.ErrValidation) {
			t.Errorf("Bind(nil request): %v, want the req fields' errors", err)
		}
	})
	t.Run("the Default registry", func(t *testing.T) {
		entity.MustExpose("bind-test-ping", "n", "int", "req")
		var got struct {
			N int `json:"n"`
		}
		if err := entity.Lookup("bind-test-ping").Bind(httptest.NewRequest("GET", "/?n=7", nil), &got); err != nil {
			t.Fatalf("Bind: %v", err)
		}
		if got.N != 7 {
			t.Errorf("Bind: n = %d, want 7", got.N)
		}
	})
}

// TestBindAsMakeReads: Bind gives the struct what Make reads: a formatted
// date as a date, a merged $ref's keys under the reference's name.
func TestBindAsMakeReads(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "geo", "lat", "float", "", "lng", "float", "")
	e := expose(t, reg, "event", "POST",
		"name", "string", "",
		"at", "date", "format unix",
		"on", "date", "format date",
		"seen", "[]date", "each 'format rfc1123'",
		"where", "$geo", "merge",
	)
	body := `{"name":"n","at":1526568574,"on":"2018-05-17","seen":["Thu, 17 May 2018 14:49:34 GMT"],"lat":1.5,"lng":2}`
	var m map[string]any
	if err := e.Bind(bindRequest("POST", "/", body), &m); err != nil {
		t.Fatal(err)
	}
	if w, ok := m["where"].(map[string]any); !ok || w["lat"] != 1.5 {
		t.Errorf("merged: %v", m)
	}
	var s struct {
		At   time.Time   `json:"at"`
		On   time.Time   `json:"on"`
		Seen []time.Time `json:"seen"`
	}
	if err := e.Bind(bindRequest("POST", "/", body), &s); err != nil {
		t.Fatal(err)
	}
	if s.At.Unix() != 1526568574 || s.On.Format(time.DateOnly) != "2018-05-17" || len(s.Seen) != 1 || s.Seen[0].Hour() != 14 {
		t.Errorf("dates: %+v", s)
	}
	out, err := e.MakeJSON(m)
	if err != nil || string(out) != body {
		t.Errorf("Bind then Make:\n got %s, %v\nwant %s", out, err, body)
	}
}

// TestBindThenMakeRoundTrips: Bind gives the declared form Make reads,
// for every shape of object: Bind of a request's Object (and of Patch's
// merged Object) then Make of what it filled writes the Object's response
// form again. A merged $ref's fields, a group's among them, are gathered
// under the reference's name at any depth, never beside the fields of
// the object that merges it.
func TestBindThenMakeRoundTrips(t *testing.T) {
	tests := []struct {
		name string
		ents [][]string // the entities, the last the one bound
		body string     // a request's body, in the wire form
	}{
		{"a group", [][]string{{"e", "a", "string", "", "g", "{", "", "b", "string", "", "g", "}", ""}},
			`{"a":"1","g":{"b":"2"}}`},
		{"groups in groups", [][]string{{"e", "g", "{", "", "h", "{", "", "b", "string", "", "h", "}", "", "c", "number", "", "g", "}", ""}},
			`{"g":{"h":{"b":"2"},"c":3}}`},
		{"a $ref and a []$ref", [][]string{{"r", "x", "string", "", "g", "{", "", "y", "string", "", "g", "}", ""},
			{"e", "one", "$r", "", "many", "[]$r", ""}},
			`{"one":{"x":"1","g":{"y":"2"}},"many":[{"x":"3","g":{"y":"4"}},{"x":"5","g":{"y":null}}]}`},
		{"a merged $ref's group", [][]string{{"audit", "by", "string", "", "meta", "{", "", "at", "string", "", "meta", "}", ""},
			{"doc", "title", "string", "", "a", "$audit", "merge"}},
			`{"title":"t","by":"b","meta":{"at":"x"}}`},
		{"a merged $ref of a group only", [][]string{{"e2", "f1", "{", "", "f2", "string", "", "f1", "}", ""},
			{"e", "f6", "string", "", "f7", "$e2", "merge"}},
			`{"f6":"a","f1":{"f2":"x"}}`},
		{"a merged $ref in a group", [][]string{{"audit", "by", "string", "", "meta", "{", "", "at", "string", "", "meta", "}", ""},
			{"doc", "g", "{", "", "a", "$audit", "merge", "n", "string", "", "g", "}", ""}},
			`{"g":{"by":"b","meta":{"at":"x"},"n":"1"}}`},
		{"a merge of a merge", [][]string{{"inner", "i", "string", "", "ig", "{", "", "j", "string", "", "ig", "}", ""},
			{"mid", "in", "$inner", "merge", "m", "string", ""},
			{"e", "n", "string", "", "md", "$mid", "merge"}},
			`{"n":"1","i":"2","ig":{"j":"3"},"m":"4"}`},
		{"merged $refs in a list's elements", [][]string{{"audit", "by", "string", "", "meta", "{", "", "at", "string", "", "meta", "}", ""},
			{"row", "v", "string", "", "a", "$audit", "merge"},
			{"e", "rows", "[]$row", ""}},
			`{"rows":[{"v":"1","by":"b","meta":{"at":"x"}},{"v":"2","by":null,"meta":{"at":null}}]}`},
		{"renamed fields and formats", [][]string{{"r", "at", "date", "format unix | rename 'when'", "meta", "{", "rename 'm'", "on", "date", "format date", "meta", "}", ""},
			{"e", "x", "$r", "merge", "tags", "[]string", "rename 'labels'"}},
			`{"when":1526568574,"m":{"on":"2018-05-17"},"labels":["a"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			var e *entity.Entity
			for _, d := range tt.ents {
				e = expose(t, reg, d[0], d[1:]...)
			}
			o, err := e.MakeRequest(bindRequest("POST", "/", tt.body))
			if err != nil {
				t.Fatalf("MakeRequest: %v", err)
			}
			merged, _, err := e.Patch(patchRequest(`{}`), o)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			for what, o := range map[string]*entity.Object{"MakeRequest's Object": o, "Patch's merged Object": merged} {
				var m map[string]any
				if err := o.Bind(&m); err != nil {
					t.Fatalf("%s: Bind: %v", what, err)
				}
				out, err := e.MakeJSON(m)
				if err != nil {
					t.Fatalf("%s: Make of what Bind filled: %v", what, err)
				}
				if string(out) != o.String() {
					t.Errorf("%s: Bind then Make:\n got %s\nwant %s\n(Bind filled %v)", what, out, o, m)
				}
			}
		})
	}
}

// TestBindKeepsAMergedRefWhoseKeysAreNotThere: a request's Object holds
// none of the keys of a merged $ref whose fields are all readonly (or
// hidden), yet Make of the Object reads its keys there; Bind gives it an
// object under its name all the same, so that Make of what Bind filled
// writes what Make of the Object writes.
func TestBindKeepsAMergedRefWhoseKeysAreNotThere(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "stamp", "at", "string", "readonly | rename 'k'")
	e := expose(t, reg, "doc", "name", "string", "", "st", "$stamp", "merge")
	o, err := e.MakeRequest(jsonRequest(t, `{"name":"a"}`))
	if err != nil {
		t.Fatalf("MakeRequest: %v", err)
	}
	want, err := e.MakeJSON(o)
	if err != nil {
		t.Fatalf("MakeJSON of the Object: %v", err)
	}
	var m map[string]any
	if err := o.Bind(&m); err != nil {
		t.Fatalf("Bind: %v", err)
	}
	got, err := e.MakeJSON(m)
	if err != nil {
		t.Fatalf("MakeJSON of the map: %v", err)
	}
	if string(got) != string(want) {
		t.Errorf("Make of what Bind filled %s (from %v), want %s, as Make of the Object", got, m, want)
	}
}
