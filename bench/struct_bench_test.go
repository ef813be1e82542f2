package bench

import (
	"bytes"
	stdjson "encoding/json"
	"testing"

	"github.com/bytedance/sonic"
	goccy "github.com/goccy/go-json"
	segjson "github.com/segmentio/encoding/json"
)

var rowReg = NewRowRegistry()

var (
	rowEntity        = rowReg.MustLookup("row")
	checkedRowEntity = rowReg.MustLookup("checkedrow")
)

// RowSizes are the row counts BenchmarkRows runs at.
var RowSizes = []int{100, 1000}

// structEncoders are the encoders BenchmarkRows times on the rows
// themselves: each writes the bytes the entities write (the rows hold no
// HTML character for encoding/json to escape).
var structEncoders = []struct {
	Name    string
	Marshal marshalFunc
}{
	{"json.Marshal", stdjson.Marshal},
	{"goccy", goccy.Marshal},
	{"sonic", sonic.Marshal},
	{"segmentio", segjson.Marshal},
}

// TestRowsEqual: every encoder and both entities write the same bytes for
// the rows, before anything is timed.
func TestRowsEqual(t *testing.T) {
	for _, n := range append([]int{0, 1}, RowSizes...) {
		checkRows(t, Rows(n))
	}
}

func checkRows(tb testing.TB, rows []Row) {
	tb.Helper()
	want, err := stdjson.Marshal(rows)
	if err != nil {
		tb.Fatal(err)
	}
	if len(rows) == 0 {
		want = []byte("[]") // a nil or empty slice is an empty list to an entity
	}
	for _, e := range [...]struct {
		name string
		f    func() ([]byte, error)
	}{
		{"row", func() ([]byte, error) { return rowEntity.AppendJSON(nil, rows) }},
		{"checkedrow", func() ([]byte, error) { return checkedRowEntity.AppendJSON(nil, rows) }},
		{"row MakeJSON", func() ([]byte, error) { return rowEntity.MakeJSON(rows) }},
		{"row from pointers", func() ([]byte, error) {
			ptrs := make([]*Row, len(rows))
			for i := range rows {
				ptrs[i] = &rows[i]
			}
			return rowEntity.AppendJSON(nil, ptrs)
		}},
	} {
		if got, err := e.f(); err != nil || !bytes.Equal(got, want) {
			tb.Fatalf("%s: %s, %v\nwant %s", e.name, got, err, want)
		}
	}
	if len(rows) == 0 {
		return
	}
	for _, enc := range structEncoders {
		if got, err := enc.Marshal(rows); err != nil || !bytes.Equal(got, want) {
			tb.Fatalf("%s: %s, %v\nwant %s", enc.Name, got, err, want)
		}
	}
}

// BenchmarkRows times a []Row through the entity without rules
// (impl=AppendJSON, into a reused buffer; impl=MakeJSON, a new slice as
// the encoders return), through the checked entity (impl=checked), and
// the encoders' Marshal of the same slice, which check nothing.
func BenchmarkRows(b *testing.B) {
	for _, n := range RowSizes {
		rows := Rows(n)
		checkRows(b, rows)
		var in any = rows // boxed once, for every implementation: a slice in an interface is allocated
		b.Run(name("AppendJSON", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return rowEntity.AppendJSON(dst, in) })
		})
		b.Run(name("checked", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return checkedRowEntity.AppendJSON(dst, in) })
		})
		b.Run(name("MakeJSON", n), func(b *testing.B) {
			loopBench(b, func() ([]byte, error) { return rowEntity.MakeJSON(in) })
		})
		for _, enc := range structEncoders {
			b.Run(name(enc.Name, n), func(b *testing.B) {
				loopBench(b, func() ([]byte, error) { return enc.Marshal(in) })
			})
		}
	}
}

// TestSeedStructEqual: the seed's payload from structs writes what it
// writes from maps.
func TestSeedStructEqual(t *testing.T) {
	for _, n := range Sizes {
		want := libraryJSON(t, Users(n))
		got, err := usersEntity.AppendJSON(nil, UsersStruct(n))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d users: %s, %v\nwant %s", n, got, err, want)
		}
	}
}

// BenchmarkSeedStruct times the seed's payload from maps (impl=maps) and
// the same data from structs (impl=structs), side by side.
func BenchmarkSeedStruct(b *testing.B) {
	for _, n := range Sizes {
		var m, st any = Users(n), UsersStruct(n)
		b.Run(name("maps", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return usersEntity.AppendJSON(dst, m) })
		})
		b.Run(name("structs", n), func(b *testing.B) {
			appendBench(b, func(dst []byte) ([]byte, error) { return usersEntity.AppendJSON(dst, st) })
		})
	}
}
