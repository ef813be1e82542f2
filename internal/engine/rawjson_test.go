package engine

import (
	"testing"

	"github.com/expose-go/expose/internal/jsontape"
)

// BenchmarkFill times the object walker alone on the users of a list.
func BenchmarkFill(b *testing.B) {
	e := expose(b, newTestEnv(), "user", "id", "number", "", "name", "string", "", "age", "number", "", "mail", "string", "")
	obj := `{"age":40,"id":"1007","mail":"maachang12@example2.com","name":"maachang12"}`
	var o jsonObject
	st := new(jsonStack)
	if code, _ := jsontape.Scan(obj, jsontape.MaxNesting, &st.tape); code != jsontape.OK {
		b.Fatal("invalid")
	}
	b.SetBytes(int64(len(obj)))
	for b.Loop() {
		o.fill(obj, 0, st, e.views[dirResponse].in)
	}
}
