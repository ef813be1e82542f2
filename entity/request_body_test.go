package entity_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// A JSON body is read whatever its Content-Length says: the stated length
// only sizes the read.
func TestRequestBodyLength(t *testing.T) {
	const body = `{"name":"ann"}`
	cases := []struct {
		name    string
		length  int64
		limit   int64
		want    string
		wantErr int
	}{
		{"the stated length", int64(len(body)), 1 << 20, `{"name":"ann"}`, 0},
		{"no length", -1, 1 << 20, `{"name":"ann"}`, 0},
		{"a length too short", 5, 1 << 20, `{"name":"ann"}`, 0},
		{"a length too long", 1000, 1 << 20, `{"name":"ann"}`, 0},
		{"over the limit", int64(len(body)), 8, "", http.StatusRequestEntityTooLarge},
		{"over the limit, stated short", 4, 8, "", http.StatusRequestEntityTooLarge},
		{"over the limit, no length", -1, 8, "", http.StatusRequestEntityTooLarge},
		{"a body that breaks off", int64(len(body)), 1 << 20, "", http.StatusBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			reg.SetMaxBodyBytes(c.limit)
			e := expose(t, reg, "user", "name", "string", "req")
			var rd io.Reader = strings.NewReader(body)
			if c.wantErr == http.StatusBadRequest {
				rd = io.MultiReader(strings.NewReader(body[:5]), errReader{})
			}
			r := httptest.NewRequest(http.MethodPost, "/", io.NopCloser(rd))
			r.ContentLength = c.length
			r.Header.Set("Content-Type", "application/json")
			o, err := e.MakeRequest(r)
			if c.wantErr != 0 {
				var ie *entity.InputError
				if !errors.As(err, &ie) || ie.StatusCode() != c.wantErr {
					t.Fatalf("got %v, want an InputError %d", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := o.String(); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}
