package entitytest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/expose-go/expose/entity"
)

// seedObject is the seed's payload as an *entity.Object.
func seedObject(t *testing.T) *entity.Object {
	t.Helper()
	o, err := corpus.Lookup("users").Make(seedInput)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

type point struct {
	Y int `json:"y"`
	X int `json:"x"`
}

type jsonText string

func (j jsonText) MarshalJSON() ([]byte, error) { return []byte(j), nil }

func TestEqual(t *testing.T) {
	seed := seedObject(t)
	users, err := corpus.Lookup("user").MakeList([]any{map[string]any{"name": "a"}, map[string]any{"name": "b", "id": 2}})
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2024, 1, 15, 21, 30, 0, 0, time.FixedZone("JST", 9*3600))
	tests := []struct {
		name      string
		got, want any
		lines     []string // the lines before go-cmp's diff; nil: equal
	}{
		// Equal values.
		{"Object and JSON bytes", seed, []byte(seedJSON), nil},
		{"JSON string and Object", seedJSON, seed, nil},
		{"JSON and JSON, white space aside", "{\n  \"a\": [1, 2],\n  \"b\": null\n}", []byte(`{"a":[1,2],"b":null}`), nil},
		{"json.RawMessage", json.RawMessage(`[true]`), []any{true}, nil},
		{"map, in any order", map[string]any{"list": []any{}, "offset": 0, "limit": int64(0)}, `{"offset":0,"limit":0,"list":[]}`, nil},
		{"nested maps ignore order, JSON keeps it", map[string]any{"a": map[string]int{"y": 1, "x": 2}}, `{"a":{"x":2,"y":1}}`, nil},
		{"numbers by value", `[12, 12.0, 1.2e1, 0.5, -0]`, []any{int64(12), 12.0, uint8(12), float32(0.5), 0}, nil},
		{"big integers", `[9223372036854775807, 1e21]`, []any{int64(9223372036854775807), 1e21}, nil},
		{"json.Number", []any{json.Number("7"), json.Number("0.25")}, `[7,0.25]`, nil},
		{"time as the entity writes it", []any{when}, `["2024-01-15T12:30:00Z"]`, nil},
		{"struct in field order", point{Y: 1, X: 2}, `{"y":1,"x":2}`, nil},
		{"pointer and nil", &point{}, `{"y":0,"x":0}`, nil},
		{"nil", nil, `null`, nil},
		{"nil slice and map", map[string]any{"l": []int(nil), "m": map[string]any(nil)}, `{"l":null,"m":null}`, nil},
		{"list of Objects", users, `[{"number":null,"name":"a","details":{"age":null,"mail":null},"code":"unknown"},{"number":2,"name":"b","details":{"age":null,"mail":null},"code":"unknown"}]`, nil},
		{"json.Marshaler", jsonText(`{"b":1,"a":2}`), `{"b":1,"a":2}`, nil},
		{"bytes as base64", map[string]any{"b": []any{[]byte("hi")}}, `{"b":["aGk="]}`, nil},

		// Different values.
		{"value differs", `{"offset":0,"limit":2,"list":[{"name":"saito"}]}`, `{"offset":0,"limit":2,"list":[{"name":"sato"}]}`, []string{
			`list[0].name: got "saito", want "sato"`,
		}},
		{"Object and JSON differ", seed, strings.Replace(seedJSON, `"age":27`, `"age":28`, 1), []string{
			`list[1].details.age: got 27, want 28`,
		}},
		{"missing and unexpected keys", `{"a":1,"c":3}`, `{"a":1,"b":2}`, []string{
			`b: missing, want 2`,
			`c: unexpected, got 3`,
		}},
		{"key order", `{"b":1,"a":{"y":1,"x":2}}`, `{"a":{"x":2,"y":1},"b":1}`, []string{
			`(root): keys out of order: got [b a], want [a b]`,
			`a: keys out of order: got [y x], want [x y]`,
		}},
		{"longer list", `[1,2,3]`, `[1,2]`, []string{
			`[2]: unexpected, got 3`,
		}},
		{"shorter list", `{"l":[1]}`, []any{}, []string{
			`(root): got {"l":[1]}, want []`,
		}},
		{"JSON types differ", `{"n":"1","m":null,"o":{}}`, map[string]any{"n": 1, "m": false, "o": []any{}}, []string{
			`m: got null, want false`,
			`n: got "1", want 1`,
			`o: got {}, want []`,
		}},
		{"numbers differ", `[0.1]`, []any{0.2}, []string{
			`[0]: got 0.1, want 0.2`,
		}},
		{"quoted path key", `{"a.b":{"#":1}}`, `{"a.b":{"#":2}}`, []string{
			`["a.b"].#: got 1, want 2`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := Equal(tb, tt.got, tt.want)
			if tt.lines == nil {
				checkReport(t, tb, ok, nil)
				return
			}
			if ok || len(tb.errors) != 1 {
				t.Fatalf("Equal = %v with %d errors, want false with 1", ok, len(tb.errors))
			}
			lines, diff, found := strings.Cut(tb.errors[0], "\n(-want +got):\n")
			if !found || strings.TrimSpace(diff) == "" {
				t.Errorf("no go-cmp diff in %q", tb.errors[0])
			}
			tb.errors = strings.Split(lines, "\n")
			checkReport(t, tb, ok, tt.lines)
		})
	}
}

func TestEqualErrors(t *testing.T) {
	tests := []struct {
		name      string
		got, want any
		msg       string
	}{
		{"got not JSON", []byte(`{"a":`), `{}`, `got: invalid JSON: unexpected end of JSON input (at byte 5)`},
		{"want not JSON", `{}`, `nope`, `want: invalid JSON: invalid character 'o' in literal null (expecting 'u') (at byte 2)`},
		{"bad json.Number", json.Number("x"), `1`, `got: json.Number "x" is not a number`},
		{"cannot marshal", map[string]any{"c": make(chan int)}, `{}`, `got: json: unsupported type: chan int`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := Equal(tb, tt.got, tt.want)
			checkReport(t, tb, ok, []string{tt.msg})
		})
	}
}
