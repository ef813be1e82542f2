package dsl

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// asErrorList reports whether err is an ErrorList, and stores it in l.
func asErrorList(err error, l *ErrorList) bool { return errors.As(err, l) }

// severalErrors is a declaration with an error of each kind but one.
var severalErrors = []string{
	"", "nmber", "",
	"a", "{", "",
	"b", "$", "| x",
	"c", "}", "y",
	"d", "}", "",
	"e", "text", "'z",
	"f",
}

const unknownTypeWant = ` (want none, string, number, float, bool, date, list, object, "[]type", "{", "}" or "$entity")`

var errorTests = []struct {
	name   string
	entity string
	decl   []string
	n      int    // number of errors
	want   string // the full Error() text of the returned error
}{
	{"unknown type near a type", "user", []string{"id", "num", "", "age", "nmber", "min 1"}, 1,
		`dsl: entity "user", field "age" (triple 2, type): unknown type "nmber" (did you mean "number"?)`},
	{"unknown type near no type", "user", []string{"id", "num", "", "age", "colour", "min 1"}, 1,
		`dsl: entity "user", field "age" (triple 2, type): unknown type "colour"` + unknownTypeWant},
	{"unknown type near an alias", "user", []string{"age", "integr", ""}, 1,
		`dsl: entity "user", field "age" (triple 1, type): unknown type "integr" (did you mean "integer"?)`},
	{"typed list of an unknown type near a type", "e", []string{"tags", "[]strng", ""}, 1,
		`dsl: entity "e", field "tags" (triple 1, type): unknown type "[]strng" (did you mean "[]string"?)`},
	{"typed list near a type that is no element type", "e", []string{"tags", "[]objct", ""}, 1,
		`dsl: entity "e", field "tags" (triple 1, type): unknown type "[]objct": a typed list is "[]" and one of string, number, float, bool, date, or "[]$entity"`},
	{"typed list of lists", "e", []string{"tags", "[]list", ""}, 1,
		`dsl: entity "e", field "tags" (triple 1, type): type "[]list": a typed list's elements are of a scalar type (string, number, float, bool, date), or "[]$entity"`},
	{"typed list of none", "e", []string{"tags", "[]none", ""}, 1,
		`dsl: entity "e", field "tags" (triple 1, type): type "[]none": a typed list's elements are of a scalar type (string, number, float, bool, date), or "[]$entity"`},
	{"typed list of typed lists", "e", []string{"tags", "[][]string", ""}, 1,
		`dsl: entity "e", field "tags" (triple 1, type): unknown type "[][]string" (did you mean "[]string"?)`},
	{"typed list of nothing", "e", []string{"tags", "[]", ""}, 1,
		`dsl: entity "e", field "tags" (triple 1, type): unknown type "[]": a typed list is "[]" and one of string, number, float, bool, date, or "[]$entity"`},
	{"typed list of a group", "e", []string{"g", "[]{", ""}, 1,
		`dsl: entity "e", field "g" (triple 1, type): unknown type "[]{": a typed list is "[]" and one of string, number, float, bool, date, or "[]$entity"`},
	{"list of a reference to nothing", "e", []string{"r", "[]$", ""}, 1,
		`dsl: entity "e", field "r" (triple 1, type): "$" names no entity: write "$name"`},
	{"unknown type as written", "user", []string{"age", " Nmber\t", ""}, 1,
		`dsl: entity "user", field "age" (triple 1, type): unknown type " Nmber\t" (did you mean "number"?)`},
	{"empty type", "user", []string{"age", "", ""}, 1,
		`dsl: entity "user", field "age" (triple 1, type): unknown type ""` + unknownTypeWant},
	{"type with rules in it", "user", []string{"age", "num | req", ""}, 1,
		`dsl: entity "user", field "age" (triple 1, type): unknown type "num | req"` + unknownTypeWant},
	{"empty field name", "user", []string{"id", "num", "", "", "num", ""}, 1,
		`dsl: entity "user" (triple 2, name): the field name is empty`},
	{"white space field name", "user", []string{" \t", "num", ""}, 1,
		`dsl: entity "user", field " \t" (triple 1, name): the field name is empty`},
	{"empty group name", "user", []string{"", "{", "", "", "}", ""}, 1,
		`dsl: entity "user" (triple 1, name): the field name is empty`},
	{"empty entity name", "", []string{"id", "num", ""}, 1,
		`dsl: the entity name is empty`},
	{"white space entity name", " \t", []string{"id", "num", ""}, 1,
		`dsl: entity " \t": the entity name is empty`},
	{"empty entity name and a field error", "", []string{"id", "nmber", ""}, 2,
		`dsl: the entity name is empty` + "\n(and 1 more error)"},
	{"dollar alone", "order", []string{"customer", "$", ""}, 1,
		`dsl: entity "order", field "customer" (triple 1, type): "$" names no entity: write "$name"`},
	{"dollar and white space", "order", []string{"customer", " $ \t", ""}, 1,
		`dsl: entity "order", field "customer" (triple 1, type): "$" names no entity: write "$name"`},
	{"stray close", "user", []string{"id", "num", "", "details", "}", ""}, 1,
		`dsl: entity "user", field "details" (triple 2, type): "}" closes no group`},
	{"stray close after a group", "user", []string{"g", "{", "", "g", "}", "", "g", "}", ""}, 1,
		`dsl: entity "user", field "g" (triple 3, type): "}" closes no group`},
	{"unclosed group", "user", []string{"id", "num", "", "details", "{", "", "age", "num", ""}, 1,
		`dsl: entity "user", field "details" (triple 2, name): group "details" opened with "{" is never closed with "}"`},
	{"two unclosed groups", "user", []string{"a", "{", "", "x", "num", "", "b", "{", ""}, 2,
		`dsl: entity "user", field "a" (triple 1, name): group "a" opened with "{" is never closed with "}"` +
			"\n(and 1 more error)"},
	{"rules on close", "user", []string{"g", "{", "", "g", "}", "req"}, 1,
		`dsl: entity "user", field "g" (triple 2, rules): the closing "}" of group "g" takes no rules` + `
    req
    ^`},
	{"rules on close after white space", "user", []string{"g", "{", "", "g", "}", "  req | max 5"}, 1,
		`dsl: entity "user", field "g" (triple 2, rules): the closing "}" of group "g" takes no rules` + `
      req | max 5
      ^`},
	{"one string left over", "user", []string{"id", "num", "", "name"}, 1,
		`dsl: entity "user" (triple 2, name): 1 string is not a whole triple (field, type, rules): "name"`},
	{"two strings left over", "user", []string{"id", "num", "", "name", "text"}, 1,
		`dsl: entity "user" (triple 2, name): 2 strings are not a whole triple (field, type, rules): "name", "text"`},
	{"only one string", "user", []string{"id"}, 1,
		`dsl: entity "user" (triple 1, name): 1 string is not a whole triple (field, type, rules): "id"`},
	{"left over inside a group", "user", []string{"g", "{", "", "g", "}"}, 2,
		`dsl: entity "user", field "g" (triple 1, name): group "g" opened with "{" is never closed with "}"` +
			"\n(and 1 more error)"},
	{"unclosed single quote", "user", []string{"name", "text", "default 'unknown | req"}, 1,
		`dsl: entity "user", field "name" (triple 1, rules): unclosed quote '` + `
    default 'unknown | req
            ^`},
	{"unclosed double quote", "user", []string{"name", "text", `req | default "a ""b"" c`}, 1,
		`dsl: entity "user", field "name" (triple 1, rules): unclosed quote "` + `
    req | default "a ""b"" c
                  ^`},
	{"unclosed quote ending in a doubled quote", "user", []string{"name", "text", `x 'a''`}, 1,
		`dsl: entity "user", field "name" (triple 1, rules): unclosed quote '` + `
    x 'a''
      ^`},
	{"empty rule between bars", "user", []string{"age", "num", "num | | req"}, 1,
		`dsl: entity "user", field "age" (triple 1, rules): empty rule before "|"` + `
    num | | req
          ^`},
	{"empty rule at the end", "user", []string{"age", "num", "num |"}, 1,
		`dsl: entity "user", field "age" (triple 1, rules): empty rule after "|"` + `
    num |
        ^`},
	{"empty rule at the start", "user", []string{"age", "num", "| num"}, 1,
		`dsl: entity "user", field "age" (triple 1, rules): empty rule before "|"` + `
    | num
    ^`},
	{"bar alone", "user", []string{"age", "num", " | "}, 2,
		`dsl: entity "user", field "age" (triple 1, rules): empty rule before "|"` + `
     | 
     ^` + "\n(and 1 more error)"},
	{"quoted rule name", "user", []string{"age", "num", "num | 'max' 5"}, 1,
		`dsl: entity "user", field "age" (triple 1, rules): a rule name cannot be quoted` + `
    num | 'max' 5
          ^`},
	{"double-quoted first rule name", "user", []string{"age", "num", `"num"`}, 1,
		`dsl: entity "user", field "age" (triple 1, rules): a rule name cannot be quoted` + `
    "num"
    ^`},
	{"caret after tabs", "user", []string{"age", "num", "num\t|\t\t|"}, 2,
		`dsl: entity "user", field "age" (triple 1, rules): empty rule before "|"` + "\n" +
			"    num\t|\t\t|\n" +
			"       \t \t\t^" + "\n(and 1 more error)"},
	{"caret after wide runes", "user", []string{"名前", "text", "default 'é | é' | |"}, 2,
		`dsl: entity "user", field "名前" (triple 1, rules): empty rule before "|"` + `
    default 'é | é' | |
                      ^` + "\n(and 1 more error)"},
	{"caret on the line of the error", "user", []string{"age", "num", "num |\n  max 5 |\r\n  'min' 1"}, 1,
		`dsl: entity "user", field "age" (triple 1, rules): a rule name cannot be quoted` + `
      'min' 1
      ^`},
	{"caret at the end of a line", "user", []string{"age", "num", "num |\n  max 5 |\n"}, 1,
		`dsl: entity "user", field "age" (triple 1, rules): empty rule after "|"` + `
      max 5 |
            ^`},
	{"several errors", "user", severalErrors, 8, `dsl: entity "user" (triple 1, name): the field name is empty` + "\n(and 7 more errors)"},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse(tt.entity, tt.decl...)
			if err == nil {
				t.Fatalf("Parse = %v, nil; want an error", e)
			}
			if e != nil {
				t.Errorf("Parse returned an entity with its error: %v", e)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
			}
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("error %T is not an ErrorList", err)
			}
			if l.Len() != tt.n {
				t.Errorf("Len() = %d, want %d:\n%s", l.Len(), tt.n, listText(l))
			}
			var first *Error
			if !errors.As(err, &first) || first != l[0] {
				t.Errorf("errors.As(err, *Error) = %v, want the first error %v", first, l[0])
			}
			if !errors.Is(err, l[len(l)-1]) {
				t.Errorf("errors.Is does not find the last error of the list")
			}
			for _, e := range l {
				if e.Entity != tt.entity || e.Msg == "" {
					t.Errorf("error with entity %q (want %q) or empty message: %#v", e.Entity, tt.entity, e)
				}
			}
		})
	}
}

func listText(l ErrorList) string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error())
		b.WriteString("\n")
	}
	return b.String()
}

// TestErrorsAll checks every error of a declaration with many, in order.
func TestErrorsAll(t *testing.T) {
	_, err := Parse("user", severalErrors...)
	want := `dsl: entity "user" (triple 1, name): the field name is empty
dsl: entity "user" (triple 1, type): unknown type "nmber" (did you mean "number"?)
dsl: entity "user", field "b" (triple 3, type): "$" names no entity: write "$name"
dsl: entity "user", field "b" (triple 3, rules): empty rule before "|"
    | x
    ^
dsl: entity "user", field "c" (triple 4, rules): the closing "}" of group "a" takes no rules
    y
    ^
dsl: entity "user", field "d" (triple 5, type): "}" closes no group
dsl: entity "user", field "e" (triple 6, rules): unclosed quote '
    'z
    ^
dsl: entity "user" (triple 7, name): 1 string is not a whole triple (field, type, rules): "f"
`
	var l ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("err = %v, want an ErrorList", err)
	}
	if got := listText(l); got != want {
		t.Errorf("errors:\n%s\nwant\n%s", got, want)
	}
}

// TestErrorsSorted checks that Parse reports errors in source order, though
// it finds unclosed groups and left-over strings last.
func TestErrorsSorted(t *testing.T) {
	_, err := Parse("user", "a", "{", "", "b", "{", "", "c", "nmber", "", "d")
	var l ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("err = %v, want an ErrorList", err)
	}
	var got []int
	for _, e := range l {
		got = append(got, e.Pos.Triple)
	}
	if want := []int{1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("error triples = %v, want %v:\n%s", got, want, listText(l))
	}
}

var parseRulesErrorTests = []struct {
	name string
	in   string
	want string
}{
	{"unclosed quote", "x | 'y", "dsl: unclosed quote '\n    x | 'y\n        ^"},
	{"empty rule", "x ||", "dsl: empty rule before \"|\"\n    x ||\n       ^\n(and 1 more error)"},
}

func TestParseRulesErrors(t *testing.T) {
	for _, tt := range parseRulesErrorTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRules(tt.in)
			if err == nil {
				t.Fatalf("ParseRules(%q) succeeded", tt.in)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

var errorRenderTests = []struct {
	name string
	err  Error
	want string
}{
	{"everything", Error{Entity: "user", Field: "age", Pos: Pos{Triple: 4, Part: PartRules, Offset: 6},
		Msg: `unknown rule "rnge"`, Source: "num | rnge 1 5"},
		"dsl: entity \"user\", field \"age\" (triple 4, rules): unknown rule \"rnge\"\n    num | rnge 1 5\n          ^"},
	{"entity only", Error{Entity: "user", Pos: Pos{Offset: -1}, Msg: "m"}, `dsl: entity "user": m`},
	{"field without triple", Error{Entity: "user", Field: "f", Pos: Pos{Offset: -1}, Msg: "m"}, `dsl: entity "user", field "f": m`},
	{"triple without field", Error{Entity: "user", Pos: Pos{Triple: 2, Part: PartType, Offset: -1}, Msg: "m"}, `dsl: entity "user" (triple 2, type): m`},
	{"no entity", Error{Field: "f", Pos: Pos{Triple: 2, Part: PartType, Offset: -1}, Msg: "m"}, `dsl: field "f" (triple 2, type): m`},
	{"nothing but a triple", Error{Pos: Pos{Triple: 2, Offset: -1}, Msg: "m"}, `dsl: (triple 2, name): m`},
	{"nothing", Error{Msg: "m"}, `dsl: m`},
	{"quoted names", Error{Entity: "a\"b", Field: "c\nd", Msg: "m"}, `dsl: entity "a\"b", field "c\nd": m`},
	{"offset -1 hides the source", Error{Entity: "e", Pos: Pos{Offset: -1}, Msg: "m", Source: "abc"}, `dsl: entity "e": m`},
	{"offset past the end hides the source", Error{Entity: "e", Pos: Pos{Offset: 4}, Msg: "m", Source: "abc"}, `dsl: entity "e": m`},
	{"offset at the end", Error{Entity: "e", Pos: Pos{Offset: 3}, Msg: "m", Source: "abc"}, "dsl: entity \"e\": m\n    abc\n       ^"},
	{"offset after a two-byte rune", Error{Entity: "e", Pos: Pos{Offset: 2}, Msg: "m", Source: "éa"}, "dsl: entity \"e\": m\n    éa\n     ^"},
	{"offset inside a rune", Error{Entity: "e", Pos: Pos{Offset: 1}, Msg: "m", Source: "éa"}, "dsl: entity \"e\": m\n    éa\n     ^"},
	{"offset on a newline", Error{Entity: "e", Pos: Pos{Offset: 1}, Msg: "m", Source: "a\nb"}, "dsl: entity \"e\": m\n    a\n     ^"},
	{"empty source", Error{Entity: "e", Pos: Pos{Offset: 0}, Msg: "m"}, `dsl: entity "e": m`},
	{"unknown part", Error{Entity: "e", Pos: Pos{Triple: 1, Part: 9, Offset: -1}, Msg: "m"}, `dsl: entity "e" (triple 1, part(9)): m`},
	{"in a file", Error{Entity: "e", Field: "f", Pos: Pos{File: "a.entity", Line: 3, Col: 5}, Msg: "m", Source: "  f\tnmber"},
		"a.entity:3:5: entity \"e\", field \"f\": m\n     3 |   f\tnmber\n       |    \t^"},
	{"in a file, no source", Error{Entity: "e", Pos: Pos{File: "a.entity", Line: 3, Col: 5}, Msg: "m"}, `a.entity:3:5: entity "e": m`},
	{"in a file, column past the line", Error{Pos: Pos{File: "a.entity", Line: 1, Col: 9}, Msg: "m", Source: "ab"}, `a.entity:1:9: m`},
	{"a file only", Error{Pos: Pos{File: "*.entity"}, Msg: "matches no file"}, `*.entity: matches no file`},
	{"a long line number", Error{Pos: Pos{File: "a", Line: 1234567, Col: 1}, Msg: "m", Source: "x"}, "a:1234567:1: m\n 1234567 | x\n         | ^"},
}

func TestErrorRender(t *testing.T) {
	for _, tt := range errorRenderTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestErrorListZero(t *testing.T) {
	var l ErrorList
	if l.Len() != 0 {
		t.Errorf("zero ErrorList has Len %d", l.Len())
	}
	if err := l.Err(); err != nil {
		t.Errorf("zero ErrorList.Err() = %v, want nil", err)
	}
	if got, want := l.Error(), "dsl: no errors"; got != want {
		t.Errorf("zero ErrorList.Error() = %q, want %q", got, want)
	}
	l.Sort() // must not panic
	if got := l.Unwrap(); len(got) != 0 {
		t.Errorf("zero ErrorList.Unwrap() = %v", got)
	}

	e := &Error{Entity: "user", Pos: Pos{Offset: -1}, Msg: "m"}
	l.Add(e)
	if l.Len() != 1 {
		t.Fatalf("Len after Add = %d, want 1", l.Len())
	}
	err := l.Err()
	if err == nil {
		t.Fatal("Err() = nil after Add")
	}
	if got, want := err.Error(), `dsl: entity "user": m`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var got *Error
	if !errors.As(err, &got) || got != e {
		t.Errorf("errors.As found %v, want %v", got, e)
	}
	if !errors.Is(err, e) {
		t.Errorf("errors.Is(err, e) = false")
	}
	if errors.Is(err, &Error{Entity: "user", Pos: Pos{Offset: -1}, Msg: "m"}) {
		t.Errorf("errors.Is matches a different *Error with the same fields")
	}

	l.Add(&Error{Entity: "user", Msg: "n"})
	l.Add(&Error{Entity: "user", Msg: "o"})
	if got, want := l.Error(), "dsl: entity \"user\": m\n(and 2 more errors)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestErrorListSortFiles: errors in files sort by file, line and column,
// before the entity.
func TestErrorListSortFiles(t *testing.T) {
	mk := func(file string, line, col int, entity string) *Error {
		return &Error{Entity: entity, Pos: Pos{File: file, Line: line, Col: col}, Msg: file + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)}
	}
	l := ErrorList{mk("b", 1, 1, "a"), mk("a", 2, 1, "a"), mk("a", 1, 7, "z"), mk("a", 1, 3, "z"), mk("a", 0, 0, "")}
	l.Sort()
	var got []string
	for _, e := range l {
		got = append(got, e.Msg)
	}
	if g, want := strings.Join(got, " "), "a:0:0 a:1:3 a:1:7 a:2:1 b:1:1"; g != want {
		t.Errorf("sorted = %s, want %s", g, want)
	}
}

// TestPosString: a place in triples is its triple, a place in a file its
// file:line:col without what is zero.
func TestPosString(t *testing.T) {
	tests := []struct {
		name string
		pos  Pos
		want string
	}{
		{"triple", Pos{Triple: 4, Part: PartRules, Offset: 3}, "triple 4"},
		{"file line col", Pos{File: "u.entity", Line: 4, Col: 12}, "u.entity:4:12"},
		{"file line", Pos{File: "u.entity", Line: 4}, "u.entity:4"},
		{"file", Pos{File: "u.entity"}, "u.entity"},
		{"line col", Pos{Line: 2, Col: 1}, "2:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.pos.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestErrorListSort(t *testing.T) {
	mk := func(entity string, triple int, part Part, off int, msg string) *Error {
		return &Error{Entity: entity, Pos: Pos{Triple: triple, Part: part, Offset: off}, Msg: msg}
	}
	l := ErrorList{
		mk("b", 1, PartName, -1, "b1"),
		mk("a", 2, PartRules, 5, "a2r5"),
		mk("a", 2, PartRules, 1, "a2r1"),
		mk("a", 2, PartType, -1, "a2t"),
		mk("a", 1, PartRules, 0, "a1r0"),
		mk("a", 0, PartName, -1, "a0"),
		mk("a", 2, PartRules, 1, "a2r1 second"), // equal position: stays after the first
		mk("a", 2, PartName, -1, "a2n"),
	}
	l.Sort()
	var got []string
	for _, e := range l {
		got = append(got, e.Msg)
	}
	want := "a0 a1r0 a2n a2t a2r1 a2r1 second a2r5 b1"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("sorted = %s\nwant     %s", g, want)
	}
}

// TestCaretLongLine: an error in a long line shows the line around the
// fault only, with the caret under it.
func TestCaretLongLine(t *testing.T) {
	tests := []struct {
		name string
		src  string
		off  int
		want string
	}{
		{"short line", "abc def", 4, "\n    abc def\n        ^"},
		{"clipped both sides", strings.Repeat("a", 100) + "X" + strings.Repeat("b", 100), 100,
			"\n    …" + strings.Repeat("a", 80) + "X" + strings.Repeat("b", 79) + "…\n     " + strings.Repeat(" ", 80) + "^"},
		{"multibyte at the cut", strings.Repeat("é", 60) + "X", 120,
			"\n    …" + strings.Repeat("é", 40) + "X\n     " + strings.Repeat(" ", 40) + "^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			writeCaret(&b, tt.src, tt.off)
			if got := b.String(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
