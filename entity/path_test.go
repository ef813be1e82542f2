package entity_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// step is one step of a path: a key, or an index when key is nil.
type step struct {
	key *string
	idx int
}

func keyStep(s string) step { return step{key: &s} }
func indexStep(n int) step  { return step{idx: n} }

// buildPath writes steps as a path, the first with AppendPathFirstKey.
func buildPath(steps ...step) string {
	var b []byte
	for n, s := range steps {
		switch {
		case s.key == nil:
			b = entity.AppendPathIndex(b, s.idx)
		case n == 0:
			b = entity.AppendPathFirstKey(b, *s.key)
		default:
			b = entity.AppendPathKey(b, *s.key)
		}
	}
	return string(b)
}

func TestPath(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		want  string
	}{
		{"empty", nil, ""},
		{"one key", []step{keyStep("name")}, "name"},
		{"keys", []step{keyStep("details"), keyStep("mail")}, "details.mail"},
		{"key index key", []step{keyStep("list"), indexStep(1), keyStep("details"), keyStep("mail")}, "list[1].details.mail"},
		{"index first", []step{indexStep(0), keyStep("name")}, "[0].name"},
		{"indexes", []step{keyStep("m"), indexStep(2), indexStep(10)}, "m[2][10]"},
		{"key with a dot", []step{keyStep("meta"), keyStep("a.b"), keyStep("x")}, `meta["a.b"].x`},
		{"first key with a dot", []step{keyStep("a.b")}, `["a.b"]`},
		{"key with brackets", []step{keyStep("a"), keyStep("x[0]")}, `a["x[0]"]`},
		{"key with a closing bracket", []step{keyStep("a]")}, `["a]"]`},
		{"empty key", []step{keyStep("a"), keyStep(""), keyStep("b")}, `a[""].b`},
		{"quote in a quoted key", []step{keyStep(`a."b"`)}, `["a.\"b\""]`},
		{"quote in a plain key", []step{keyStep(`say "hi"`)}, `say "hi"`},
		{"unicode key", []step{keyStep("é"), keyStep("名前")}, "é.名前"},
		{"negative index", []step{keyStep("a"), indexStep(-1)}, "a[-1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildPath(tt.steps...); got != tt.want {
				t.Errorf("path = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestPathQuotedKeyIsJSON checks that a quoted key reads back, with
// encoding/json, as the key written.
func TestPathQuotedKeyIsJSON(t *testing.T) {
	for _, key := range []string{"a.b", "[", "]", "", "a\"b.c", "tab\t.", "ctl\x01.", "<&>.", "é.ü"} {
		p := string(entity.AppendPathKey(nil, key))
		if !strings.HasPrefix(p, "[") || !strings.HasSuffix(p, "]") {
			t.Errorf("AppendPathKey(%q) = %s, want a bracketed key", key, p)
			continue
		}
		var back string
		if err := json.Unmarshal([]byte(p[1:len(p)-1]), &back); err != nil || back != key {
			t.Errorf("AppendPathKey(%q) = %s: reads back as %q, %v", key, p, back, err)
		}
	}
}

// TestPathAllocs checks that building a path into a buffer of room enough
// allocates nothing.
func TestPathAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		b := entity.AppendPathFirstKey(buf[:0], "list")
		b = entity.AppendPathIndex(b, 12)
		b = entity.AppendPathKey(b, "details")
		b = entity.AppendPathKey(b, "a.b")
		_ = b
	})
	if allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
}

// FieldError paths use the same notation: a key holding '.', '[' or ']'
// is written ["…"], in Path and OutputPath alike.
func TestFieldErrorPathNotation(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "leaf", "a.b", "string", "req", "ok", "string", "req | rename 'x[1]'")
	e := expose(t, reg, "root", "list", "$leaf", "", "g.h", "{", "", "inner", "$leaf", "", "g.h", "}", "")
	_, err := e.MakeJSON(map[string]any{"list": []any{map[string]any{"ok": "y"}, map[string]any{"a.b": "y"}}, "inner": map[string]any{"a.b": "z"}})
	var ve *entity.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %v, want a ValidationError", err)
	}
	var got []string
	for _, f := range ve.Fields {
		got = append(got, f.Path+" | "+f.OutputPath)
	}
	want := []string{
		`list[0]["a.b"] | list[0]["a.b"]`,
		`list[1].ok | list[1]["x[1]"]`,
		`inner.ok | ["g.h"].inner["x[1]"]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
}
