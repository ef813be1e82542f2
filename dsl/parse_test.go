package dsl

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/rules"
)

// The helpers below build expected trees. Positions are written out: a
// field's Pos is its triple, a rule's and an argument's Pos the byte offset
// of its first byte (for a quoted argument, its opening quote).

func namePos(triple int) Pos { return Pos{Triple: triple, Part: PartName, Offset: -1} }

func typePos(triple int) Pos { return Pos{Triple: triple, Part: PartType, Offset: -1} }

// val is a value field of type t, written typeName, at triple.
func val(triple int, name, typeName string, t rules.Kind, rulesText string, rules ...*Rule) *Field {
	return &Field{Name: name, Kind: FieldValue, Type: t, TypeName: typeName,
		Rules: atTriple(triple, rules), RulesText: rulesText, Pos: namePos(triple), TypePos: typePos(triple)}
}

// ref is a reference field to entity target, written typeName, at triple.
func ref(triple int, name, typeName, target, rulesText string, rules ...*Rule) *Field {
	return &Field{Name: name, Kind: FieldRef, TypeName: typeName, Ref: target,
		Rules: atTriple(triple, rules), RulesText: rulesText, Pos: namePos(triple), TypePos: typePos(triple)}
}

// group is a group opened at triple and closed at closeTriple by closeName.
func group(triple int, name string, closeTriple int, closeName string, fields ...*Field) *Field {
	return &Field{Name: name, Kind: FieldGroup, TypeName: "{", Fields: fields,
		CloseName: closeName, Pos: namePos(triple), TypePos: typePos(triple), ClosePos: namePos(closeTriple)}
}

// listOf makes f a typed list of elem (a list of references for Null).
func listOf(f *Field, elem rules.Kind) *Field {
	f.List, f.Elem = true, elem
	return f
}

// withRules sets a group's rules.
func withRules(f *Field, typeName, rulesText string, rules ...*Rule) *Field {
	f.TypeName, f.RulesText, f.Rules = typeName, rulesText, atTriple(f.Pos.Triple, rules)
	return f
}

// rule is a rule whose name is at byte off of its rules string.
func rule(off int, name string, args ...Arg) *Rule {
	return &Rule{Name: name, Args: args, Pos: Pos{Part: PartRules, Offset: off}}
}

// arg and qarg are an unquoted and a quoted argument at byte off.
func arg(off int, text string) Arg {
	return Arg{Text: text, Pos: Pos{Part: PartRules, Offset: off}}
}

func qarg(off int, text string) Arg {
	return Arg{Text: text, Quoted: true, Pos: Pos{Part: PartRules, Offset: off}}
}

// atTriple fills in the triple of rules and their arguments.
func atTriple(triple int, rules []*Rule) []*Rule {
	for _, r := range rules {
		r.Pos.Triple = triple
		for i := range r.Args {
			r.Args[i].Pos.Triple = triple
		}
	}
	return rules
}

// typeAliasTable lists every type name the DSL accepts.
var typeAliasTable = []struct {
	name string
	t    rules.Kind
}{
	{"none", rules.Any}, {"no", rules.Any},
	{"string", rules.String}, {"text", rules.String},
	{"number", rules.Int}, {"num", rules.Int}, {"int", rules.Int}, {"integer", rules.Int}, {"long", rules.Int},
	{"float", rules.Float}, {"double", rules.Float},
	{"bool", rules.Bool}, {"boolean", rules.Bool}, {"flag", rules.Bool},
	{"date", rules.Time}, {"datetime", rules.Time}, {"timestamp", rules.Time},
	{"list", rules.List}, {"array", rules.List},
	{"object", rules.Object}, {"map", rules.Object}, {"json", rules.Object},
}

// mixedCase alternates upper and lower case: "datetime" → "DaTeTiMe".
func mixedCase(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i += 2 {
		b[i] = strings.ToUpper(string(b[i]))[0]
	}
	return string(b)
}

// typesTest declares one field per type alias, its name spelled by spell.
func typesTest(name string, spell func(string) string) parseTest {
	tt := parseTest{name: name, entity: "types", want: &Entity{Name: "types"}}
	for i, a := range typeAliasTable {
		tn := spell(a.name)
		tt.decl = append(tt.decl, "f_"+a.name, tn, "")
		tt.want.Fields = append(tt.want.Fields, val(i+1, "f_"+a.name, tn, a.t, ""))
	}
	return tt
}

type parseTest struct {
	name   string
	entity string
	decl   []string
	want   *Entity
}

var parseTests = []parseTest{
	{"empty declaration", "user", nil, &Entity{Name: "user"}},
	{"one field", "user", []string{"id", "number", ""},
		&Entity{Name: "user", Fields: []*Field{val(1, "id", "number", rules.Int, "")}}},
	typesTest("types lower case", strings.ToLower),
	typesTest("types upper case", strings.ToUpper),
	typesTest("types mixed case", mixedCase),
	{"type padded with white space", "user", []string{"id", " \tNum\t ", "", "name", "\u00a0text\n", ""},
		&Entity{Name: "user", Fields: []*Field{
			val(1, "id", " \tNum\t ", rules.Int, ""),
			val(2, "name", "\u00a0text\n", rules.String, ""),
		}}},
	{"names kept as written", "Usér Entity", []string{" id ", "num", "", "名前", "text", "", "}", "num", ""},
		&Entity{Name: "Usér Entity", Fields: []*Field{
			val(1, " id ", "num", rules.Int, ""),
			val(2, "名前", "text", rules.String, ""),
			val(3, "}", "num", rules.Int, ""),
		}}},
	{"doc example", "user", []string{
		"id", "number", "num | rename 'number'",
		"name", "string", "req",
		"details", "{", "",
		"age", "number", "num",
		"mail", "string", "email",
		"details", "}", "",
		"code", "string", "default 'unknown'",
	}, &Entity{Name: "user", Fields: []*Field{
		val(1, "id", "number", rules.Int, "num | rename 'number'",
			rule(0, "num"), rule(6, "rename", qarg(13, "number"))),
		val(2, "name", "string", rules.String, "req", rule(0, "req")),
		group(3, "details", 6, "details",
			val(4, "age", "number", rules.Int, "num", rule(0, "num")),
			val(5, "mail", "string", rules.String, "email", rule(0, "email")),
		),
		val(7, "code", "string", rules.String, "default 'unknown'",
			rule(0, "default", qarg(8, "unknown"))),
	}}},

	// Groups.
	{"empty group", "e", []string{"g", "{", "", "g", "}", ""},
		&Entity{Name: "e", Fields: []*Field{group(1, "g", 2, "g")}}},
	{"group padded", "e", []string{"g", " { ", "", "g", "\t}\t", "   "},
		&Entity{Name: "e", Fields: []*Field{withRules(group(1, "g", 2, "g"), " { ", "")}}},
	{"group close name not checked", "e", []string{"g", "{", "", "a", "num", "", "other", "}", ""},
		&Entity{Name: "e", Fields: []*Field{group(1, "g", 3, "other", val(2, "a", "num", rules.Int, ""))}}},
	{"group close name empty", "e", []string{"g", "{", "", "", "}", ""},
		&Entity{Name: "e", Fields: []*Field{group(1, "g", 2, "")}}},
	{"group with rules", "e", []string{"g", "{", "req | omitempty", "a", "num", "", "g", "}", ""},
		&Entity{Name: "e", Fields: []*Field{
			withRules(group(1, "g", 3, "g", val(2, "a", "num", rules.Int, "")), "{", "req | omitempty",
				rule(0, "req"), rule(6, "omitempty")),
		}}},
	{"groups nested 3 deep", "e", []string{
		"top", "num", "",
		"a", "{", "",
		"a1", "num", "",
		"b", "{", "",
		"c", "{", "",
		"c1", "text", "req",
		"c", "}", "",
		"b1", "bool", "",
		"b", "}", "",
		"a", "}", "",
		"bottom", "flag", "",
	}, &Entity{Name: "e", Fields: []*Field{
		val(1, "top", "num", rules.Int, ""),
		group(2, "a", 10, "a",
			val(3, "a1", "num", rules.Int, ""),
			group(4, "b", 9, "b",
				group(5, "c", 7, "c",
					val(6, "c1", "text", rules.String, "req", rule(0, "req")),
				),
				val(8, "b1", "bool", rules.Bool, ""),
			),
		),
		val(11, "bottom", "flag", rules.Bool, ""),
	}}},
	{"sibling groups", "e", []string{
		"a", "{", "", "x", "num", "", "a", "}", "",
		"b", "{", "", "y", "num", "", "b", "}", "",
	}, &Entity{Name: "e", Fields: []*Field{
		group(1, "a", 3, "a", val(2, "x", "num", rules.Int, "")),
		group(4, "b", 6, "b", val(5, "y", "num", rules.Int, "")),
	}}},

	// References.
	{"ref", "order", []string{"customer", "$user", ""},
		&Entity{Name: "order", Fields: []*Field{ref(1, "customer", "$user", "user", "")}}},
	{"ref with rules", "order", []string{"customer", "$user", "req | rename client"},
		&Entity{Name: "order", Fields: []*Field{ref(1, "customer", "$user", "user", "req | rename client",
			rule(0, "req"), rule(6, "rename", arg(13, "client")))}}},
	{"typed list", "e", []string{"tags", "[]string", "min 1"},
		&Entity{Name: "e", Fields: []*Field{listOf(val(1, "tags", "[]string", rules.List, "min 1", rule(0, "min", arg(4, "1"))), rules.String)}}},
	{"typed list of an alias, padded", "e", []string{"ns", " [] Int ", ""},
		&Entity{Name: "e", Fields: []*Field{listOf(val(1, "ns", " [] Int ", rules.List, ""), rules.Int)}}},
	{"typed list of dates", "e", []string{"ds", "[]timestamp", ""},
		&Entity{Name: "e", Fields: []*Field{listOf(val(1, "ds", "[]timestamp", rules.List, ""), rules.Time)}}},
	{"list of references", "order", []string{"items", "[]$item", "req"},
		&Entity{Name: "order", Fields: []*Field{listOf(ref(1, "items", "[]$item", "item", "req", rule(0, "req")), rules.Null)}}},
	{"ref padded", "order", []string{"customer", " $ user ", ""},
		&Entity{Name: "order", Fields: []*Field{ref(1, "customer", " $ user ", "user", "")}}},
	{"ref case kept", "order", []string{"customer", "$UserV2", ""},
		&Entity{Name: "order", Fields: []*Field{ref(1, "customer", "$UserV2", "UserV2", "")}}},
	{"ref in group", "order", []string{"g", "{", "", "items", "$item", "", "g", "}", ""},
		&Entity{Name: "order", Fields: []*Field{group(1, "g", 3, "g", ref(2, "items", "$item", "item", ""))}}},

	// Rules and arguments.
	{"rule without args", "e", []string{"f", "num", "req"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "req", rule(0, "req"))}}},
	{"rule with one arg", "e", []string{"f", "num", "max 10"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "max 10",
			rule(0, "max", arg(4, "10")))}}},
	{"rule with many args", "e", []string{"f", "num", "between 1 10 -3.5 x"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "between 1 10 -3.5 x",
			rule(0, "between", arg(8, "1"), arg(10, "10"), arg(13, "-3.5"), arg(18, "x")))}}},
	{"several rules", "e", []string{"f", "text", "req | min 1 | max 5 | email"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "req | min 1 | max 5 | email",
			rule(0, "req"), rule(6, "min", arg(10, "1")), rule(14, "max", arg(18, "5")), rule(22, "email"))}}},
	{"bars without spaces", "e", []string{"f", "text", "req|min 1|max 5"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "req|min 1|max 5",
			rule(0, "req"), rule(4, "min", arg(8, "1")), rule(10, "max", arg(14, "5")))}}},
	{"single-quoted arg with spaces", "e", []string{"f", "text", "default 'a b  c'"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "default 'a b  c'",
			rule(0, "default", qarg(8, "a b  c")))}}},
	{"double-quoted arg with spaces", "e", []string{"f", "text", `default "a b"`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `default "a b"`,
			rule(0, "default", qarg(8, "a b")))}}},
	{"quoted bar", "e", []string{"f", "text", "in 'a|b' \"|\" | req"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "in 'a|b' \"|\" | req",
			rule(0, "in", qarg(3, "a|b"), qarg(9, "|")), rule(15, "req"))}}},
	{"doubled single quote", "e", []string{"f", "text", "default 'it''s' ''''"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "default 'it''s' ''''",
			rule(0, "default", qarg(8, "it's"), qarg(16, "'")))}}},
	{"doubled double quote", "e", []string{"f", "text", `default "say ""hi""" """"`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `default "say ""hi""" """"`,
			rule(0, "default", qarg(8, `say "hi"`), qarg(21, `"`)))}}},
	{"other quote inside quotes", "e", []string{"f", "text", `default 'say "hi"' "it's"`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `default 'say "hi"' "it's"`,
			rule(0, "default", qarg(8, `say "hi"`), qarg(19, "it's")))}}},
	{"empty quoted args", "e", []string{"f", "text", `default '' ""`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `default '' ""`,
			rule(0, "default", qarg(8, ""), qarg(11, "")))}}},
	{"quote inside a word", "e", []string{"f", "text", `default it's a"b c'`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `default it's a"b c'`,
			rule(0, "default", arg(8, "it's"), arg(13, `a"b`), arg(17, "c'")))}}},
	{"quoted arg next to a word", "e", []string{"f", "text", `x 'a'b"c"'d'`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `x 'a'b"c"'d'`,
			rule(0, "x", qarg(2, "a"), arg(5, `b"c"'d'`)))}}},
	{"quoted arg next to a quoted arg", "e", []string{"f", "text", `x 'a'"b"'c'|y`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `x 'a'"b"'c'|y`,
			rule(0, "x", qarg(2, "a"), qarg(5, "b"), qarg(8, "c")), rule(12, "y"))}}},
	{"regex quoted", "e", []string{"f", "text", `regex '^a\d+$' | regex "^(a|b)\s*$"`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `regex '^a\d+$' | regex "^(a|b)\s*$"`,
			rule(0, "regex", qarg(6, `^a\d+$`)), rule(17, "regex", qarg(23, `^(a|b)\s*$`)))}}},
	{"regex unquoted", "e", []string{"f", "text", `regex ^[a-z]\w{2,}$`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `regex ^[a-z]\w{2,}$`,
			rule(0, "regex", arg(6, `^[a-z]\w{2,}$`)))}}},
	{"backslash before quote is no escape", "e", []string{"f", "text", `x 'a\' b`},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, `x 'a\' b`,
			rule(0, "x", qarg(2, `a\`), arg(7, "b")))}}},
	{"unicode args", "e", []string{"f", "text", "in 日本 'é è' | max 5"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "in 日本 'é è' | max 5",
			rule(0, "in", arg(3, "日本"), qarg(10, "é è")), rule(20, "max", arg(24, "5")))}}},

	// White space.
	{"empty rules string", "e", []string{"f", "num", ""},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "")}}},
	{"white space rules string", "e", []string{"f", "num", " \t\r\n "},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, " \t\r\n ")}}},
	{"leading and trailing spaces", "e", []string{"f", "num", "  req | max 5  "},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "  req | max 5  ",
			rule(2, "req"), rule(8, "max", arg(12, "5")))}}},
	{"tabs", "e", []string{"f", "num", "\treq\t|\tmax\t5\t"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "\treq\t|\tmax\t5\t",
			rule(1, "req"), rule(7, "max", arg(11, "5")))}}},
	{"newlines", "e", []string{"f", "num", "req |\n\tmax 5 |\r\n\tmin 1"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "req |\n\tmax 5 |\r\n\tmin 1",
			rule(0, "req"), rule(7, "max", arg(11, "5")), rule(17, "min", arg(21, "1")))}}},
	{"many spaces between args", "e", []string{"f", "num", "between   1    2"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "between   1    2",
			rule(0, "between", arg(10, "1"), arg(15, "2")))}}},
	{"vertical tab and form feed", "e", []string{"f", "num", "req\v|\fmax 5"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "req\v|\fmax 5",
			rule(0, "req"), rule(6, "max", arg(10, "5")))}}},
	{"unicode white space", "e", []string{"f", "num", "req\u00a0|\u3000max\u20035"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "num", rules.Int, "req\u00a0|\u3000max\u20035",
			rule(0, "req"), rule(9, "max", arg(15, "5")))}}},
	{"white space kept inside quotes", "e", []string{"f", "text", "default '\t a\u00a0\n'"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "default '\t a\u00a0\n'",
			rule(0, "default", qarg(8, "\t a\u00a0\n")))}}},
	{"invalid UTF-8 is a word", "e", []string{"f", "text", "x \xc2 \x85|\xff"},
		&Entity{Name: "e", Fields: []*Field{val(1, "f", "text", rules.String, "x \xc2 \x85|\xff",
			rule(0, "x", arg(2, "\xc2"), arg(4, "\x85")), rule(6, "\xff"))}}},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.entity, tt.decl...)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseTestNames checks that every case of parseTests has a name of its
// own, so that a failure names one case.
func TestParseTestNames(t *testing.T) {
	seen := map[string]bool{}
	for _, tt := range parseTests {
		if tt.name == "" || seen[tt.name] {
			t.Errorf("parseTests: empty or repeated name %q", tt.name)
		}
		seen[tt.name] = true
	}
}

func TestLookupType(t *testing.T) {
	for _, a := range typeAliasTable {
		for _, name := range []string{a.name, strings.ToUpper(a.name), mixedCase(a.name)} {
			if got, ok := LookupType(name); !ok || got != a.t {
				t.Errorf("LookupType(%q) = %v, %v; want %v, true", name, got, ok, a.t)
			}
		}
	}
	// Case folding is strings.ToLower's: U+0130 (İ) lowers to i, so "İNT"
	// is "int"; ı (dotless) and ſ (long s) have no upper-to-lower mapping
	// to ASCII and are not letters of any type name.
	if got, ok := LookupType("İNT"); !ok || got != rules.Int {
		t.Errorf("LookupType(%q) = %v, %v; want number, true", "İNT", got, ok)
	}
	for _, name := range []string{"", "nums", "str", "{", "}", "$user", " num", "num ", "ınt", "ſtring"} {
		if got, ok := LookupType(name); ok {
			t.Errorf("LookupType(%q) = %v, true; want false", name, got)
		}
	}
	n := 0
	for _, name := range rules.TypeNames() {
		k, _ := LookupType(name)
		n += 1 + len(k.Aliases())
	}
	if len(typeAliasTable) != n {
		t.Errorf("typeAliasTable has %d names, the DSL %d", len(typeAliasTable), n)
	}
}

// TestTypeList: the message for an unknown type lists every type, none
// first.
func TestTypeList(t *testing.T) {
	if want := "none, string, number, float, bool, date, list, object"; typeList != want {
		t.Errorf("typeList = %q, want %q", typeList, want)
	}
}

func TestPartString(t *testing.T) {
	for p, w := range map[Part]string{PartName: "name", PartType: "type", PartRules: "rules", 7: "part(7)"} {
		if got := p.String(); got != w {
			t.Errorf("Part(%d).String() = %q, want %q", p, got, w)
		}
	}
}

var parseRulesTests = []struct {
	name string
	in   string
	want []*Rule
}{
	{"empty", "", nil},
	{"white space", " \t ", nil},
	{"one rule", "req", []*Rule{rule(0, "req")}},
	{"args and quotes", `max 5 | default 'a b' | in "x|y" z`, []*Rule{
		rule(0, "max", arg(4, "5")),
		rule(8, "default", qarg(16, "a b")),
		rule(24, "in", qarg(27, "x|y"), arg(33, "z")),
	}},
}

func TestParseRules(t *testing.T) {
	for _, tt := range parseRulesTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRules(tt.in)
			if err != nil {
				t.Fatalf("ParseRules(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseRules(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestParseRulesPartial checks that ParseRules returns the rules it could
// read along with the errors.
func TestParseRulesPartial(t *testing.T) {
	got, err := ParseRules("req | | 'max' 5 | min 1 | 'x")
	want := []*Rule{rule(0, "req"), rule(18, "min", arg(22, "1"))}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules mismatch (-want +got):\n%s", diff)
	}
	var l ErrorList
	if !asErrorList(err, &l) || l.Len() != 3 {
		t.Fatalf("err = %v, want an ErrorList of 3", err)
	}
	for i, off := range []int{6, 8, 26} {
		if l[i].Pos.Offset != off {
			t.Errorf("error %d at offset %d, want %d: %v", i, l[i].Pos.Offset, off, l[i])
		}
	}
}

// TestParseFresh checks that Parse shares no state between calls.
func TestParseFresh(t *testing.T) {
	decl := []string{"g", "{", "", "a", "num", "req", "g", "}", ""}
	a, err := Parse("e", decl...)
	if err != nil {
		t.Fatal(err)
	}
	a.Fields[0].Fields[0].Rules[0].Name = "changed"
	b, err := Parse("e", decl...)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Fields[0].Fields[0].Rules[0].Name; got != "req" {
		t.Errorf("second Parse sees %q, want %q", got, "req")
	}
}

var parsePartialTests = []struct {
	name  string
	decl  []string
	want  *Entity
	nErrs int
}{
	{"valid", []string{"a", "num", "req"},
		&Entity{Name: "e", Fields: []*Field{val(1, "a", "num", rules.Int, "req", rule(0, "req"))}}, 0},
	{"unclosed quote drops the rule it cuts",
		[]string{"a", "text", "req | regex '^a", "b", "num", "rnge 1 5"},
		&Entity{Name: "e", Fields: []*Field{
			val(1, "a", "text", rules.String, "req | regex '^a", rule(0, "req")),
			val(2, "b", "num", rules.Int, "rnge 1 5", rule(0, "rnge", arg(5, "1"), arg(7, "5"))),
		}}, 1},
	{"unclosed quote of a rule name", []string{"a", "text", "req | 'x"},
		&Entity{Name: "e", Fields: []*Field{val(1, "a", "text", rules.String, "req | 'x", rule(0, "req"))}}, 1},
	{"empty rule keeps the rules", []string{"a", "num", "req | | max 5"},
		&Entity{Name: "e", Fields: []*Field{val(1, "a", "num", rules.Int, "req | | max 5", rule(0, "req"), rule(8, "max", arg(12, "5")))}}, 1},
	{"unknown type keeps the rules, with no type", []string{"a", "nmber", "req | rnge 1", "b", "num", "req"},
		&Entity{Name: "e", Fields: []*Field{
			{Name: "a", TypeName: "nmber", RulesText: "req | rnge 1", Pos: namePos(1), TypePos: typePos(1), Rules: atTriple(1, []*Rule{rule(0, "req"), rule(6, "rnge", arg(11, "1"))})},
			val(2, "b", "num", rules.Int, "req", rule(0, "req")),
		}}, 1},
	{"a typed list of an unknown type has no type", []string{"a", "[]strng", "min 1"},
		&Entity{Name: "e", Fields: []*Field{{Name: "a", TypeName: "[]strng", RulesText: "min 1", List: true, Pos: namePos(1), TypePos: typePos(1), Rules: atTriple(1, []*Rule{rule(0, "min", arg(4, "1"))})}}}, 1},
	{"a typed list of no scalar type has no type", []string{"a", "[]list", "min 1"},
		&Entity{Name: "e", Fields: []*Field{{Name: "a", TypeName: "[]list", RulesText: "min 1", List: true, Pos: namePos(1), TypePos: typePos(1), Rules: atTriple(1, []*Rule{rule(0, "min", arg(4, "1"))})}}}, 1},
	{"a reference to no name has no type", []string{"a", "$", "req"},
		&Entity{Name: "e", Fields: []*Field{{Name: "a", TypeName: "$", RulesText: "req", Pos: namePos(1), TypePos: typePos(1), Rules: atTriple(1, []*Rule{rule(0, "req")})}}}, 1},
	{"a field without a name has no rules", []string{"", "num", "req"},
		&Entity{Name: "e", Fields: []*Field{{Name: "", Type: rules.Int, TypeName: "num", RulesText: "req", Pos: namePos(1), TypePos: typePos(1)}}}, 1},
	{"unclosed group keeps its fields", []string{"g", "{", "", "a", "num", ""},
		&Entity{Name: "e", Fields: []*Field{{Name: "g", Kind: FieldGroup, TypeName: "{", Pos: namePos(1), TypePos: typePos(1),
			Fields: []*Field{val(2, "a", "num", rules.Int, "")}}}}, 1},
}

// TestParsePartial checks the tree ParsePartial returns with its errors:
// each triple read on its own, a broken rules string giving no rules.
func TestParsePartial(t *testing.T) {
	for _, tt := range parsePartialTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePartial("e", tt.decl...)
			var l ErrorList
			if asErrorList(err, &l); l.Len() != tt.nErrs {
				t.Errorf("%d errors, want %d: %v", l.Len(), tt.nErrs, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParsePartial mismatch (-want +got):\n%s", diff)
			}
			strict, serr := Parse("e", tt.decl...)
			if (serr == nil) != (err == nil) || (serr != nil) != (strict == nil) {
				t.Errorf("Parse = %v, %v; want the same errors and a nil entity with them", strict, serr)
			}
		})
	}
}
