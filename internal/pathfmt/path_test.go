package pathfmt_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/expose-go/expose/internal/pathfmt"
)

// step is one step of a path: a key, or an index when key is nil.
type step struct {
	key *string
	idx int
}

func keyStep(s string) step { return step{key: &s} }
func indexStep(n int) step  { return step{idx: n} }

// buildPath writes steps as a path, the first with AppendFirstKey.
func buildPath(steps ...step) string {
	var b []byte
	for n, s := range steps {
		switch {
		case s.key == nil:
			b = pathfmt.AppendIndex(b, s.idx)
		case n == 0:
			b = pathfmt.AppendFirstKey(b, *s.key)
		default:
			b = pathfmt.AppendKey(b, *s.key)
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
		p := string(pathfmt.AppendKey(nil, key))
		if !strings.HasPrefix(p, "[") || !strings.HasSuffix(p, "]") {
			t.Errorf("AppendKey(%q) = %s, want a bracketed key", key, p)
			continue
		}
		var back string
		if err := json.Unmarshal([]byte(p[1:len(p)-1]), &back); err != nil || back != key {
			t.Errorf("AppendKey(%q) = %s: reads back as %q, %v", key, p, back, err)
		}
	}
}

// TestPathAllocs checks that building a path into a buffer of room enough
// allocates nothing.
func TestPathAllocs(t *testing.T) {
	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		b := pathfmt.AppendFirstKey(buf[:0], "list")
		b = pathfmt.AppendIndex(b, 12)
		b = pathfmt.AppendKey(b, "details")
		b = pathfmt.AppendKey(b, "a.b")
		_ = b
	})
	if allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
}

// TestAppendPointerToken checks the escaping of RFC 6901: ~ as ~0 and / as
// ~1, and nothing else.
func TestAppendPointerToken(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "name", "/name"},
		{"empty", "", "/"},
		{"tilde", "a~b", "/a~0b"},
		{"slash", "a/b", "/a~1b"},
		{"both, in the order that matters", "~1/0", "/~01~10"},
		{"dots and brackets as they are", `a.b["c"]`, `/a.b["c"]`},
		{"non-ASCII as it is", "名前", "/名前"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(pathfmt.AppendPointerToken(nil, tt.in)); got != tt.want {
				t.Errorf("AppendPointerToken(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
