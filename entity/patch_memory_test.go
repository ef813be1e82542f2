package entity_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestPatchMemoryPerBodyByte: a patch is a request, and "a request's
// memory is proportional to its body" within the bound MakeRequest meets
// (48 bytes allocated per body byte, the target): Patch of a 1
// MiB body of the shapes that cost the most stays within it too, counted
// with runtime.MemStats.
func TestPatchMemoryPerBodyByte(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const size = 1<<20 - 100
	tests := []struct {
		name string
		body []byte
	}{
		{"empty objects", emptyItems(size)},
		{"numbers in a list field", []byte(`{"list":[` + strings.Repeat("0,", size/2-10) + `0]}`)},
		{"numbers in an undeclared key", []byte(`{"zz":[` + strings.Repeat("0,", size/2-10) + `0]}`)},
		{"empty arrays in an object field", []byte(`{"meta":{"a":[` + strings.Repeat("[],", size/3-10) + `[]]}}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			tenFields(t, reg)
			e := expose(t, reg, "patched", "items", "[]$item", "", "list", "list", "", "meta", "object", "")
			var err error
			alloc, _ := allocated(func() {
				r := httptest.NewRequest(http.MethodPatch, "/", bytes.NewReader(tt.body))
				r.Header.Set("Content-Type", entity.MergePatchType)
				_, _, err = e.Patch(r, nil)
			})
			perByte := float64(alloc) / float64(len(tt.body))
			t.Logf("%d-byte body: %v; %d bytes allocated, %.1f per body byte", len(tt.body), err, alloc, perByte)
			if perByte > 48 {
				t.Errorf("%.1f bytes allocated per body byte, want at most 48 (MakeRequest's bound)", perByte)
			}
		})
	}
}

// TestPatchOutputLimitIs413: a patch whose merged value writes more than
// the request's output limit (its body times RequestOutputRatio) is the
// client's, as MakeRequest answers it: a 413 InputError wrapping
// ErrTooLarge, never a 500.
func TestPatchOutputLimitIs413(t *testing.T) {
	reg := entity.NewRegistry()
	tenFields(t, reg)
	e := expose(t, reg, "patched", "items", "[]$item", "")
	tests := []struct {
		name string
		body []byte
	}{
		{"1 MiB of empty objects", emptyItems(1<<20 - 100)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(tt.body))
			r.Header.Set("Content-Type", "application/json")
			_, reqErr := e.MakeRequest(r)
			r = httptest.NewRequest(http.MethodPatch, "/", bytes.NewReader(tt.body))
			r.Header.Set("Content-Type", entity.MergePatchType)
			_, _, err := e.Patch(r, nil)
			if !errors.Is(err, entity.ErrTooLarge) {
				t.Fatalf("Patch: %v, want ErrTooLarge", err)
			}
			w := httptest.NewRecorder()
			reg.WriteError(w, err)
			if w.Code != http.StatusRequestEntityTooLarge {
				t.Errorf("WriteError(Patch's error): %d %s, want 413 (MakeRequest: %v)", w.Code, w.Body, reqErr)
			}
		})
	}
}

// TestPatchMemoryOfRepeatedKeys: a patch's time and memory are bounded by
// its body size plus the current value's, whatever it repeats: a group
// key given hundreds of times is merged once (its last value, as
// MakeRequest reads it), so that a current value's long string is copied
// once, not once per repetition; nor does a repeated key of a merged
// object, a none field's object or an object merged into nothing
// multiply anything. Counted with runtime.MemStats, against a bound
// proportional to the input.
func TestPatchMemoryOfRepeatedKeys(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	reg := entity.NewRegistry()
	expose(t, reg, "ref", "s", "string", "", "x", "string", "")
	e := expose(t, reg, "doc",
		"title", "string", "",
		"g", "{", "",
		"s", "string", "",
		"g", "}", "",
		"meta", "none", "",
		"r", "$ref", "",
	)
	long := strings.Repeat("a", 100<<10)
	current := map[string]any{"title": "t", "s": long, "meta": map[string]any{"s": long}, "r": map[string]any{"s": long}}
	repeat := func(member string, n int) []byte {
		return []byte(`{` + strings.Repeat(member+`,`, n) + `"title":"u"}`)
	}
	tests := []struct {
		name string
		body []byte
	}{
		{"a group given 400 times", repeat(`"g":{}`, 400)},
		{"a none field's object given 400 times", repeat(`"meta":{}`, 400)},
		{"a $name's object given 400 times", repeat(`"r":{}`, 400)},
		{"a key given 400 times inside a group", []byte(`{"g":{` + strings.Repeat(`"s":"b",`, 400) + `"s":"c"}}`)},
		{"a long patch of one repeated key", repeat(`"g":{"s":null}`, 20000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			size := len(tt.body) + 3*len(long)                           // the body and the current value, as JSON
			_, _, err := e.Patch(patchRequest(string(tt.body)), current) // the pools warm
			alloc, _ := allocated(func() {
				_, _, err = e.Patch(patchRequest(string(tt.body)), current)
			})
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			perByte := float64(alloc) / float64(size)
			t.Logf("%d bytes of body and current value: %d bytes allocated, %.1f per byte", size, alloc, perByte)
			if perByte > 16 {
				t.Errorf("%.1f bytes allocated per byte of the body and the current value, want at most 16", perByte)
			}
		})
	}
}
