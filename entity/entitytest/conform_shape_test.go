package entitytest_test

import (
	"fmt"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// TestConformRegressionConformSharedKeyOrder: a key shared by version is checked at
// the place of its first field (conform.go, declOrder uses declared[key]),
// but the walker writes it where the field that wrote it stands: a key
// shared by two fields that are not neighbours fails Conform, with or
// without Partial, on the very output of a call without options.
func TestConformRegressionConformSharedKeyOrder(t *testing.T) {
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
		entitytest.Conform(rec, e, out)
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
