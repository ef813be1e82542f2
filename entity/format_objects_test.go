package entity_test

import (
	"testing"

	"github.com/expose-go/expose/entity"
)

// formatEntity has a formatted field of each built-in format, alone, in a
// typed list and in a reference.
func formatEntity(t testing.TB) *entity.Entity {
	t.Helper()
	reg := entity.NewRegistry()
	expose(t, reg, "stamp", "d", "date", "format unix")
	return expose(t, reg, "formatted",
		"u", "date", "format unix",
		"ms", "date", "format unixms",
		"r", "date", "format rfc1123",
		"dt", "date", "format date",
		"lay", "date", "format '2006/01/02 15h04'",
		"fx", "float", "format fixed 2",
		"lu", "[]date", "each 'format unix'",
		"ref", "$stamp", "",
		"refs", "[]$stamp", "",
	)
}

// formatRow is server data for formatEntity, and formatWant its response.
var formatRow = map[string]any{
	"u": "2020-01-01T00:00:00Z", "ms": "2020-01-01T00:00:00.123Z", "r": "2020-01-01T00:00:00Z",
	"dt": "2020-01-01T00:00:00Z", "lay": "2020-01-01T10:00:00Z", "fx": 1.5,
	"lu": []any{"2020-01-01T00:00:00Z"}, "ref": map[string]any{"d": "2020-01-01T00:00:00Z"},
	"refs": []any{map[string]any{"d": "2020-01-01T00:00:00Z"}},
}

const formatWant = `{"u":1577836800,"ms":1577836800123,"r":"Wed, 01 Jan 2020 00:00:00 GMT","dt":"2020-01-01",` +
	`"lay":"2020/01/01 10h00","fx":1.50,"lu":[1577836800],"ref":{"d":1577836800},"refs":[{"d":1577836800}]}`

// TestMakeOfARequestObjectKeepsFormats: an Object of a request (or of a
// patch) holds a formatted value in its format (the wire form); Make and
// Write of it make it again through the response view: the same response
// a client sent back, never a date read as another unit, nor null.
func TestMakeOfARequestObjectKeepsFormats(t *testing.T) {
	e := formatEntity(t)
	if got, err := e.MakeJSON(formatRow); err != nil || string(got) != formatWant {
		t.Fatalf("MakeJSON(row) = %s, %v; want %s", got, err, formatWant)
	}
	req, err := e.MakeRequest(bindRequest("POST", "/", formatWant))
	if err != nil {
		t.Fatalf("MakeRequest: %v", err)
	}
	patched, _, err := e.Patch(patchRequest(`{}`), formatRow)
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	tests := []struct {
		name string
		o    *entity.Object
	}{
		{"an Object of a request", req},
		{"an Object of a patch", patched},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.String(); got != formatWant {
				t.Errorf("String() = %s, want %s", got, formatWant)
			}
			got, err := e.MakeJSON(tt.o)
			if err != nil || string(got) != formatWant {
				t.Errorf("MakeJSON(Object) = %s, %v; want %s", got, err, formatWant)
			}
		})
	}
}

// TestPatchOfAFormattedCurrentValue: the current value is any input Make
// reads; an Object a response made of the row, the row's own response
// JSON, or the Object an earlier Patch returned give the same merged value
// as the row: no formatted date shifted a thousandfold or cleared.
func TestPatchOfAFormattedCurrentValue(t *testing.T) {
	e := formatEntity(t)
	resp, err := e.Make(formatRow)
	if err != nil {
		t.Fatal(err)
	}
	first, _, err := e.Patch(patchRequest(`{}`), formatRow)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		current any
	}{
		{"the response's Object", resp},
		{"an earlier patch's Object", first},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, err := e.Patch(patchRequest(`{}`), tt.current)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := o.String(); got != formatWant {
				t.Errorf("merged = %s, want %s", got, formatWant)
			}
		})
	}
}
