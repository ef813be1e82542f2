package schematest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/schema"
)

// TestStreamOpenAPI: a document of streams (NDJSON, a JSON array, both)
// and of conditional operations (ETag, If-None-Match and 304, If-Match
// and 412) is valid OpenAPI 3.1 for both validators; each line EncodeSeq
// writes as NDJSON is valid against the NDJSON media type's schema, and
// its JSON array against the array's.
func TestStreamOpenAPI(t *testing.T) {
	reg := entity.NewRegistry()
	event := reg.MustExpose("event", "id", "number", "req", "name", "string", "req | min 1", "note", "string", "writeonly")
	routes := []schema.Route{
		{Method: "GET", Path: "/events/{id}", Response: event, ETag: true},
		{Method: "PATCH", Path: "/events/{id}", Request: event, Response: event, ETag: true, IfMatch: true},
		{Method: "GET", Path: "/events.ndjson", Response: event, Stream: schema.StreamNDJSON},
		{Method: "GET", Path: "/events", Response: event, Stream: schema.StreamArray | schema.StreamNDJSON},
	}
	doc, err := schema.OpenAPI(schema.Info{Title: "events", Version: "1"}, routes)
	if err != nil {
		t.Fatal(err)
	}
	checkOpenAPI(t, map[string][]byte{"streams.json": doc})

	var d struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]struct{ Schema json.RawMessage }
			}
		}
		Components struct {
			Schemas json.RawMessage
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	defs := strings.ReplaceAll(string(d.Components.Schemas), `"#/components/schemas/`, `"#/$defs/`)
	content := d.Paths["/events"]["get"].Responses["200"].Content
	var b ajvBatch
	for _, mt := range []string{schema.NDJSONType, "application/json"} {
		s := strings.ReplaceAll(string(content[mt].Schema), `"#/components/schemas/`, `"#/$defs/`)
		b.schema(mt, []byte(`{"$schema":"`+schema.Dialect+`","$defs":`+defs+`,"allOf":[`+s+`]}`))
	}
	rows := []map[string]any{{"id": 1, "name": "a", "note": "x"}, {"id": 2, "name": "b"}}
	seq := func(yield func(map[string]any, error) bool) {
		for _, r := range rows {
			if !yield(r, nil) {
				return
			}
		}
	}
	var array bytes.Buffer
	if err := entity.EncodeSeq(&array, event, seq); err != nil {
		t.Fatal(err)
	}
	b.check("application/json", array.Bytes(), true, "the JSON array")
	b.check("application/json", []byte(`[{"id":1}]`), false, "an array of an element without its name")
	for i, line := range bytes.Split(bytes.TrimSpace(ndjson(t, event, seq)), []byte("\n")) {
		b.check(schema.NDJSONType, line, true, fmt.Sprintf("NDJSON line %d", i))
	}
	b.check(schema.NDJSONType, []byte(`{"id":"x","name":"a"}`), false, "a line of the wrong type")
	if n := b.run(t, 10); n != 5 {
		t.Errorf("%d instances checked, want 5", n)
	}
}

// ndjson returns what EncodeSeq writes of seq into a ResponseWriter whose
// Content-Type is application/x-ndjson.
func ndjson(t *testing.T, e *entity.Entity, seq func(yield func(map[string]any, error) bool)) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", schema.NDJSONType)
	if err := entity.EncodeSeq(rec, e, seq); err != nil {
		t.Fatal(err)
	}
	return rec.Body.Bytes()
}
