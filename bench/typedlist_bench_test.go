package bench

import (
	"strconv"
	"testing"

	"github.com/expose-go/expose/entity"
)

// BenchmarkTypedList compares a typed list of strings with a plain list
// of the same strings, on map input (the target: a `[]string` of 100 tags
// costs at most 1.2× a `list`), and with `each` rules on every element.
func BenchmarkTypedList(b *testing.B) {
	reg := entity.NewRegistry()
	decls := []struct{ impl, typ, rules string }{
		{"list", "list", ""},
		{"[]string", "[]string", ""},
		{"[]string+each", "[]string", "each 'min 1 | max 20'"},
	}
	tags := make([]any, 100)
	for i := range tags {
		tags[i] = "tag-" + strconv.Itoa(i)
	}
	in := map[string]any{"id": 1, "tags": tags}
	var want string
	for _, d := range decls {
		e := reg.MustExpose("tags"+d.impl, "id", "number", "", "tags", d.typ, d.rules)
		out, err := e.MakeJSON(in)
		if err != nil {
			b.Fatal(err)
		}
		if want == "" {
			want = string(out)
		} else if string(out) != want {
			b.Fatalf("%s writes %s, want %s", d.impl, out, want)
		}
		b.Run("impl="+d.impl+"/tags=100", func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return e.AppendJSON(dst, in) })
		})
	}
}
