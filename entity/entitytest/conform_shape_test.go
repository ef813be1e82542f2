package entitytest_test

import (
	"fmt"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// TestConformSharedKeyOrder: a key shared by two fields of disjoint
// version ranges that are not neighbours is checked where the field of the
// call's version stands, as the walker writes it, given the call's version
// (Call), and where the latest stands without one.
func TestConformSharedKeyOrder(t *testing.T) {
	reg := entity.NewRegistry()
	e := reg.MustExpose("u",
		"a", "string", "until 'v2'",
		"b", "string", "",
		"a", "number", "since 'v2'",
	)
	for _, v := range []string{"", "v1", "v3"} {
		out, err := e.MakeJSON(map[string]any{"a": 1, "b": "x"}, entity.Version(v))
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		entitytest.Conform(rec, e, out, entitytest.Call(entity.Version(v)))
		if len(rec.msgs) > 0 {
			t.Errorf("Version(%q) wrote %s; Conform says %q", v, out, rec.msgs)
		}
	}
}

type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, a...))
}
func (r *recorder) Error(a ...any) { r.msgs = append(r.msgs, "error") }
