package entity_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// rawFuzzEntity declares the entity FuzzRawJSON makes: every value type but
// the pass-through ones (none, list, object keep their raw text, so they
// differ from the map path by design), a group, a recursive $ref read as a
// list and as an object, and rules that pass and fail. Short field names,
// shared by parent and child, so that the fuzzer finds them.
func rawFuzzEntity(t testing.TB) *entity.Entity {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.Depth = 8 })
	expose(t, reg, "rawchild",
		"a", "string", "max 10",
		"n", "number", "range 0 150",
		"d", "date", "",
		"l", "$rawchild", "",
	)
	e := expose(t, reg, "rawfuzz",
		"s", "string", "max 20",
		"n", "number", "num",
		"f", "float", "",
		"b", "bool", "default",
		"d", "date", "",
		"g", "{", "rename grp",
		"e", "string", "email",
		"t", "string", "time",
		"i", "int", "min -5 | rename int",
		"g", "}", "",
		"r", "text", "regex '^[a-z]*$' | default 'none'",
		"l", "$rawchild", "",
		"o", "$rawchild", "rename one",
	)
	if err := reg.Verify(); err != nil {
		t.Fatal(err)
	}
	return e
}

// rawFuzzSeeds returns the seed inputs: testdata/inputs (the core's fuzz
// seeds) and testdata/rawjson.
func rawFuzzSeeds(f *testing.F) [][]byte {
	var files []string
	for _, pattern := range []string{"inputs/*.json", "rawjson/*.json", "rawjson/*.txt"} {
		m, err := filepath.Glob(filepath.Join("testdata", pattern))
		if err != nil {
			f.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		f.Fatal("no seeds in testdata")
	}
	var seeds [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// FuzzRawJSON gives the raw JSON path arbitrary bytes. It never panics;
// bytes that are not valid JSON (by encoding/json's judgement) are an
// InputError wrapping ErrInvalidJSON, 500 as the server's data is, with
// nothing appended; valid JSON that encoding/json decodes into an object
// or a list gives exactly the bytes, or exactly the field errors, that the
// decoded value gives; other valid JSON (a scalar, null) is such an
// InputError too.
func FuzzRawJSON(f *testing.F) {
	for _, s := range rawFuzzSeeds(f) {
		f.Add(s)
	}
	for _, s := range rawJSONCorpus {
		f.Add([]byte(s.json))
	}
	e := rawFuzzEntity(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rawOut, rawErr := e.MakeJSON(data)
		const prefix = "p:"
		app, appErr := e.AppendJSON([]byte(prefix), data)
		switch {
		case rawErr != nil:
			if appErr == nil || appErr.Error() != rawErr.Error() || string(app) != prefix {
				t.Fatalf("AppendJSON = %q, %v; MakeJSON failed with %v", app, appErr, rawErr)
			}
		case appErr != nil || string(app) != prefix+string(rawOut):
			t.Fatalf("AppendJSON = %q, %v; MakeJSON gave %s", app, appErr, rawOut)
		}
		obj, objErr := e.Make(data)
		if objErr == nil {
			b, err := obj.MarshalJSON()
			if err != nil || !bytes.Equal(b, rawOut) {
				t.Fatalf("Object.MarshalJSON = %s, %v; MakeJSON gave %s, %v", b, err, rawOut, rawErr)
			}
		}

		wantInvalid := func(why string) {
			t.Helper()
			var ie *entity.InputError
			if !errors.As(rawErr, &ie) || ie.StatusCode() != 500 || !errors.Is(rawErr, entity.ErrInvalidJSON) {
				t.Fatalf("%s: MakeJSON = %.200s, %v; want a 500 InputError (the server's JSON) wrapping ErrInvalidJSON", why, rawOut, rawErr)
			}
		}
		if len(data) == 0 {
			wantInvalid("empty input") // a nil []byte is no input; an empty one is not JSON
			return
		}
		if !json.Valid(data) {
			wantInvalid("not valid JSON for encoding/json")
			return
		}
		var decoded any
		if err := json.Unmarshal(data, &decoded); err != nil {
			return // a number out of float64's range: anything but a panic
		}
		switch decoded.(type) {
		case map[string]any, []any:
		default:
			wantInvalid("not an object or array")
			return
		}
		mapOut, mapErr := e.MakeJSON(decoded)
		switch {
		case mapErr != nil && rawErr != nil:
			if diff := cmp.Diff(cmpFieldErrors(mapErr), cmpFieldErrors(rawErr)); diff != "" {
				t.Fatalf("field errors differ (-map +raw):\n%s", diff)
			}
			if mapErr.Error() != rawErr.Error() {
				t.Fatalf("errors differ:\n map %v\n raw %v", mapErr, rawErr)
			}
		case mapErr != nil:
			t.Fatalf("the decoded value failed (%v), raw JSON gave %s", mapErr, rawOut)
		case rawErr != nil:
			t.Fatalf("raw JSON failed (%v), the decoded value gave %s", rawErr, mapOut)
		case !bytes.Equal(rawOut, mapOut):
			t.Fatalf("outputs differ:\n raw %s\n map %s", rawOut, mapOut)
		}
	})
}
