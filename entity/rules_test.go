package entity_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
)

// ruleCase is one use of rules on a field `"v", typ, rules` and one input
// value (absent for none). A passing case gives {"<key>":<want>}; a failing
// one a ValidationError whose fields failed exactly the rules in fail.
type ruleCase struct {
	name  string
	typ   string
	rules string
	in    any
	want  string   // the field's JSON on success
	fail  []string // the failing rules, canonical names; nil on success
	key   string   // the output key; "v" when empty
}

func fails(rules ...string) []string { return rules }

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := exposeOne(t, c.typ, c.rules)
			out, _, err := makeAll(t, e, input(c.in))
			if c.fail == nil {
				if err != nil {
					t.Fatalf("%s %q, in %#v: %v", c.typ, c.rules, c.in, err)
				}
				key := c.key
				if key == "" {
					key = "v"
				}
				if want := `{"` + key + `":` + c.want + `}`; string(out) != want {
					t.Errorf("%s %q, in %#v:\n got %s\nwant %s", c.typ, c.rules, c.in, out, want)
				}
				return
			}
			if err == nil {
				t.Fatalf("%s %q, in %#v: got %s, want failures %v", c.typ, c.rules, c.in, out, c.fail)
			}
			var got []string
			for _, fe := range fieldErrors(t, err) {
				got = append(got, canonicalRule(fe.Rule))
				if fe.Path != "v" || fe.Message == "" {
					t.Errorf("FieldError %+v: want Path \"v\" and a Message", fe)
				}
			}
			if diff := cmp.Diff(c.fail, got); diff != "" {
				t.Errorf("%s %q, in %#v: failing rules (-want +got):\n%s\nerror: %v", c.typ, c.rules, c.in, diff, err)
			}
		})
	}
}

var allTypes = []string{"none", "string", "number", "float", "bool", "date", "list", "object"}

func TestRuleReq(t *testing.T) {
	var cases []ruleCase
	for _, typ := range allTypes {
		cases = append(cases,
			ruleCase{name: typ + " absent", typ: typ, rules: "req", in: absent, fail: fails("req")},
			ruleCase{name: typ + " nil", typ: typ, rules: "req", in: nil, fail: fails("req")},
		)
	}
	cases = append(cases, []ruleCase{
		{name: "string present", typ: "string", rules: "req", in: "a", want: `"a"`},
		{name: "empty string is not null", typ: "string", rules: "req", in: "", want: `""`},
		{name: "zero is not null", typ: "number", rules: "req", in: 0, want: `0`},
		{name: "false is not null", typ: "bool", rules: "req", in: false, want: `false`},
		{name: "empty list is not null", typ: "list", rules: "req", in: []any{}, want: `[]`},
		{name: "empty object is not null", typ: "object", rules: "req", in: map[string]any{}, want: `{}`},
		{name: "none present", typ: "none", rules: "req", in: 0, want: `0`},
		{name: "unconvertible string", typ: "string", rules: "req", in: []any{"a"}, fail: fails("req")},
		{name: "unconvertible number", typ: "number", rules: "req", in: "abc", fail: fails("req")},
		{name: "unconvertible bool", typ: "bool", rules: "req", in: "yes", fail: fails("req")},
		{name: "unconvertible date", typ: "date", rules: "req", in: "2023-02-30", fail: fails("req")},
		{name: "unconvertible list", typ: "list", rules: "req", in: "[]", fail: fails("req")},
		{name: "alias required", typ: "string", rules: "required", in: absent, fail: fails("req")},
		{name: "upper case REQ", typ: "string", rules: "REQ", in: absent, fail: fails("req")},
		{name: "mixed case Required", typ: "number", rules: "Required", in: 5, want: `5`},
		{name: "req after default", typ: "number", rules: "default 5 | req", in: absent, want: `5`},
		{name: "req before default", typ: "number", rules: "req | default 5", in: absent, want: `5`},
		{name: "req with default fills unconvertible", typ: "number", rules: "req | default 5", in: "abc", want: `5`},
		{name: "req with bare default", typ: "string", rules: "req | default", in: absent, want: `""`},
		// A typed nil map, slice or pointer is written as null: it is a null
		// value for req and default too.
		{name: "object req nil map", typ: "object", rules: "req", in: map[string]any(nil), fail: fails("req")},
		{name: "list req nil slice", typ: "list", rules: "req", in: []any(nil), fail: fails("req")},
		{name: "list req nil []int", typ: "list", rules: "req", in: []int(nil), fail: fails("req")},
		{name: "none req nil pointer", typ: "none", rules: "req", in: (*int)(nil), fail: fails("req")},
		{name: "none req nil map", typ: "none", rules: "req", in: map[string]int(nil), fail: fails("req")},
		// On none a bare default is null: req still rejects it.
		{name: "none req with default value", typ: "none", rules: "default 1 | req", in: absent, want: `1`},
	}...)
	runRuleCases(t, cases)
}

func TestRuleDefault(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// A bare default gives the type's zero.
		{name: "bare none", typ: "none", rules: "default", in: absent, want: `null`},
		{name: "bare string", typ: "string", rules: "default", in: absent, want: `""`},
		{name: "bare number", typ: "number", rules: "default", in: absent, want: `0`},
		{name: "bare float", typ: "float", rules: "default", in: absent, want: `0`},
		{name: "bare bool", typ: "bool", rules: "default", in: absent, want: `false`},
		{name: "bare date", typ: "date", rules: "default", in: absent, want: `"1970-01-01T00:00:00Z"`},
		{name: "bare list", typ: "list", rules: "default", in: absent, want: `[]`},
		{name: "bare object", typ: "object", rules: "default", in: absent, want: `{}`},
		{name: "bare def alias", typ: "number", rules: "def", in: absent, want: `0`},
		{name: "bare DEFAULT upper", typ: "bool", rules: "DEFAULT", in: absent, want: `false`},

		// The default's text goes through the field's conversion.
		{name: "string 0.10", typ: "string", rules: "default 0.10", in: absent, want: `"0.10"`},
		{name: "float 0.10", typ: "float", rules: "default 0.10", in: absent, want: `0.1`},
		{name: "number 12.7", typ: "number", rules: "default 12.7", in: absent, want: `12`},
		{name: "number quoted 007", typ: "number", rules: "default '007'", in: absent, want: `7`},
		{name: "number -3.9", typ: "number", rules: "default -3.9", in: absent, want: `-3`},
		{name: "float 1e21 spelled out", typ: "float", rules: "default 1000000000000000000000", in: absent, want: `1e+21`},
		{name: "bool on", typ: "bool", rules: "default on", in: absent, want: `true`},
		{name: "bool 0", typ: "bool", rules: "default 0", in: absent, want: `false`},
		{name: "bool TRUE", typ: "bool", rules: "default TRUE", in: absent, want: `true`},
		{name: "date", typ: "date", rules: "default 2020-01-02", in: absent, want: `"2020-01-02T00:00:00Z"`},
		{name: "date with slashes", typ: "date", rules: "default 2020/01/02", in: absent, want: `"2020-01-02T00:00:00Z"`},
		{name: "date and time quoted", typ: "date", rules: "default '2020-01-02 03:04:05'", in: absent, want: `"2020-01-02T03:04:05Z"`},
		{name: "date RFC 3339 with offset", typ: "date", rules: "default 2020-01-02T09:00:00+09:00", in: absent, want: `"2020-01-02T00:00:00Z"`},
		{name: "string with spaces", typ: "string", rules: "default 'hello world'", in: absent, want: `"hello world"`},
		{name: "string double quotes", typ: "string", rules: `default "a | b"`, in: absent, want: `"a | b"`},
		{name: "string doubled quote", typ: "string", rules: `default 'it''s'`, in: absent, want: `"it's"`},
		{name: "string escaped in output", typ: "string", rules: `default '<&>'`, in: absent, want: `"\u003c\u0026\u003e"`},
		{name: "string empty quoted", typ: "string", rules: `default ''`, in: absent, want: `""`},

		// On none a quoted default is a string, an unquoted one a JSON
		// literal when it is one.
		{name: "none quoted", typ: "none", rules: "default 'abc'", in: absent, want: `"abc"`},
		{name: "none unquoted word", typ: "none", rules: "default abc", in: absent, want: `"abc"`},
		{name: "none number", typ: "none", rules: "default 12", in: absent, want: `12`},
		{name: "none decimal", typ: "none", rules: "default 0.10", in: absent, want: `0.1`},
		{name: "none quoted number", typ: "none", rules: "default '12'", in: absent, want: `"12"`},
		{name: "none true", typ: "none", rules: "default true", in: absent, want: `true`},
		{name: "none quoted true", typ: "none", rules: "default 'true'", in: absent, want: `"true"`},
		{name: "none null", typ: "none", rules: "default null", in: absent, want: `null`},
		{name: "none quoted null", typ: "none", rules: "default 'null'", in: absent, want: `"null"`},
		{name: "none list", typ: "none", rules: "default [1,2]", in: absent, want: `[1,2]`},
		{name: "none object sorted", typ: "none", rules: `default {"b":1,"a":2}`, in: absent, want: `{"a":2,"b":1}`},

		// When the default applies.
		{name: "fills nil", typ: "number", rules: "default 7", in: nil, want: `7`},
		{name: "fills unconvertible", typ: "number", rules: "default 7", in: "abc", want: `7`},
		{name: "fills unconvertible bool", typ: "bool", rules: "default true", in: "maybe", want: `true`},
		{name: "fills unconvertible date", typ: "date", rules: "default 2020-01-02", in: "2023-02-30", want: `"2020-01-02T00:00:00Z"`},
		{name: "fills unconvertible list", typ: "list", rules: "default", in: "x", want: `[]`},
		{name: "fills nil slice", typ: "list", rules: "default", in: []any(nil), want: `[]`},
		{name: "fills nil map", typ: "object", rules: "default", in: map[string]any(nil), want: `{}`},
		{name: "none fills nil pointer", typ: "none", rules: "default 1", in: (*int)(nil), want: `1`},
		{name: "keeps a value", typ: "number", rules: "default 7", in: 5, want: `5`},
		{name: "keeps zero", typ: "number", rules: "default 7", in: 0, want: `0`},
		{name: "keeps empty string", typ: "string", rules: "default x", in: "", want: `""`},

		// Before the checks, wherever it stands.
		{name: "before min, written after", typ: "number", rules: "min 3 | default 5", in: absent, want: `5`},
		{name: "before min, written first", typ: "number", rules: "default 5 | min 3", in: absent, want: `5`},
		{name: "before email, written after", typ: "string", rules: "email | default 'a@b.co'", in: absent, want: `"a@b.co"`},
		{name: "between checks", typ: "string", rules: "min 1 | default abc | max 5", in: absent, want: `"abc"`},
		{name: "checks still judge a value", typ: "number", rules: "min 3 | default 5", in: 1, fail: fails("min")},
		{name: "filled unconvertible then checked", typ: "number", rules: "num | default 7", in: "abc", want: `7`},
		{name: "filled unconvertible string then checked", typ: "string", rules: "num | default 7", in: []any{}, want: `"7"`},

		// Last one wins.
		{name: "last wins", typ: "number", rules: "default 1 | default 2", in: absent, want: `2`},
		{name: "last wins across aliases", typ: "string", rules: "def a | DEFAULT b | Def c", in: absent, want: `"c"`},
		{name: "last wins, bare last", typ: "number", rules: "default 1 | default", in: absent, want: `0`},
		{name: "last wins, bare first", typ: "number", rules: "default | default 3", in: absent, want: `3`},
	})
}

func TestRuleNoneAliases(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "none", typ: "number", rules: "none", in: "5", want: `5`},
		{name: "no", typ: "number", rules: "no", in: "5", want: `5`},
		{name: "not", typ: "number", rules: "not", in: "5", want: `5`},
		{name: "NOT upper", typ: "string", rules: "NOT", in: 5, want: `"5"`},
		{name: "with others", typ: "string", rules: "none | req | none", in: absent, fail: fails("req")},
	})
}

// TestChecksSkipNull: every check but req judges only values that are there.
func TestChecksSkipNull(t *testing.T) {
	var cases []ruleCase
	for _, c := range []struct{ typ, rules string }{
		{"string", "min 3"}, {"string", "max 1"}, {"string", "range 2 3"}, {"string", "minmax 2 3"},
		{"number", "min 3"}, {"float", "max 0.5"}, {"list", "min 1"},
		{"string", "regex '^a$'"}, {"string", "url"}, {"string", "email"}, {"string", "date"}, {"string", "time"},
		{"string", "num"}, {"string", "number"}, {"string", "float"}, {"string", "bool"}, {"string", "boolean"},
		{"string", "timestamp"}, {"string", "datetime"},
		{"number", "num"}, {"float", "float"}, {"bool", "bool"}, {"date", "timestamp"},
		{"none", "min 3"}, {"none", "email"}, {"none", "num"}, {"none", "regex x"},
	} {
		cases = append(cases,
			ruleCase{name: c.typ + " " + c.rules + " absent", typ: c.typ, rules: c.rules, in: absent, want: `null`},
			ruleCase{name: c.typ + " " + c.rules + " nil", typ: c.typ, rules: c.rules, in: nil, want: `null`},
		)
	}
	cases = append(cases, []ruleCase{
		// A value that does not convert becomes null: the checks skip it.
		{name: "email on a list given to a string", typ: "string", rules: "email", in: []any{"a"}, want: `null`},
		{name: "min on a map given to a string", typ: "string", rules: "min 3", in: map[string]any{}, want: `null`},
		{name: "max on a bad number", typ: "number", rules: "max 1", in: "abc", want: `null`},
		{name: "num on a list given to a string", typ: "string", rules: "num", in: []any{1}, want: `null`},
		{name: "num on a bool given to a number", typ: "number", rules: "num", in: true, want: `null`},
		{name: "float rule on a list given to a float", typ: "float", rules: "float", in: []any{}, want: `null`},
		{name: "timestamp on a bad date", typ: "date", rules: "timestamp", in: "2023-02-30", want: `null`},
	}...)
	runRuleCases(t, cases)
}

func TestRuleMinMaxRange(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Strings: length in runes.
		{name: "string min pass", typ: "string", rules: "min 3", in: "abc", want: `"abc"`},
		{name: "string min fail", typ: "string", rules: "min 3", in: "ab", fail: fails("min")},
		{name: "string min runes pass", typ: "string", rules: "min 3", in: "日本語", want: `"日本語"`},
		{name: "string min runes fail", typ: "string", rules: "min 3", in: "日本", fail: fails("min")},
		{name: "string max runes pass", typ: "string", rules: "max 3", in: "日本語", want: `"日本語"`},
		{name: "string max runes fail", typ: "string", rules: "max 3", in: "日本語x", fail: fails("max")},
		{name: "string max emoji", typ: "string", rules: "max 1", in: "😀", want: `"😀"`},
		{name: "string range low", typ: "string", rules: "range 2 3", in: "a", fail: fails("range")},
		{name: "string range in", typ: "string", rules: "range 2 3", in: "ab", want: `"ab"`},
		{name: "string range high", typ: "string", rules: "range 2 3", in: "abcd", fail: fails("range")},
		{name: "string minmax alias", typ: "string", rules: "minmax 2 3", in: "abcd", fail: fails("range")},
		{name: "string MIN upper", typ: "string", rules: "MIN 2", in: "a", fail: fails("min")},
		{name: "string min decimal fail", typ: "string", rules: "min 2.5", in: "ab", fail: fails("min")},
		{name: "string min decimal pass", typ: "string", rules: "min 2.5", in: "abc", want: `"abc"`},
		{name: "string max decimal fail", typ: "string", rules: "max 2.5", in: "abc", fail: fails("max")},
		{name: "string min 0 empty", typ: "string", rules: "min 0", in: "", want: `""`},
		{name: "string max 0 empty", typ: "string", rules: "max 0", in: "", want: `""`},
		{name: "string from number", typ: "string", rules: "max 2", in: 12345, fail: fails("max")},
		{name: "string from bytes", typ: "string", rules: "max 3", in: []byte("日本語"), want: `"日本語"`},

		// Numbers: value, decimals allowed.
		{name: "number min equal", typ: "number", rules: "min 5", in: 5, want: `5`},
		{name: "number min fail", typ: "number", rules: "min 5", in: 4, fail: fails("min")},
		{name: "number min from string", typ: "number", rules: "min 5", in: "4", fail: fails("min")},
		{name: "number max fail", typ: "number", rules: "max 5", in: 6, fail: fails("max")},
		{name: "number max negative", typ: "number", rules: "max -1", in: 0, fail: fails("max")},
		{name: "number min decimal fail", typ: "number", rules: "min 1.5", in: 1, fail: fails("min")},
		{name: "number min decimal pass", typ: "number", rules: "min 1.5", in: 2, want: `2`},
		{name: "number max -1.5 fail", typ: "number", rules: "max -1.5", in: -1, fail: fails("max")},
		{name: "number max -1.5 pass", typ: "number", rules: "max -1.5", in: -2, want: `-2`},
		{name: "number range in", typ: "number", rules: "range 1 10", in: 10, want: `10`},
		{name: "number range low", typ: "number", rules: "range 1 10", in: 0, fail: fails("range")},
		{name: "number range high", typ: "number", rules: "range 1 10", in: 11, fail: fails("range")},
		{name: "number range decimals", typ: "number", rules: "range -1.5 1.5", in: -2, fail: fails("range")},
		{name: "number range decimals pass", typ: "number", rules: "range -1.5 1.5", in: -1, want: `-1`},
		{name: "number judged after truncation", typ: "number", rules: "max 12", in: 12.7, want: `12`},
		{name: "number max beyond 2^53 equal", typ: "number", rules: "max 9007199254740993", in: int64(9007199254740993), want: `9007199254740993`},
		{name: "number min beyond 2^53 below", typ: "number", rules: "min 9007199254740993", in: int64(9007199254740992), fail: fails("min")},

		// Floats.
		{name: "float min fail", typ: "float", rules: "min 0.5", in: 0.49, fail: fails("min")},
		{name: "float min equal", typ: "float", rules: "min 0.5", in: 0.5, want: `0.5`},
		{name: "float max fail", typ: "float", rules: "max 0.5", in: 0.51, fail: fails("max")},
		{name: "float range in", typ: "float", rules: "range 0.1 0.2", in: 0.15, want: `0.15`},
		{name: "float range out", typ: "float", rules: "range 0.1 0.2", in: "0.25", fail: fails("range")},
		{name: "float min from int", typ: "float", rules: "min 2", in: 1, fail: fails("min")},

		// Lists: length.
		{name: "list min fail", typ: "list", rules: "min 2", in: []any{1}, fail: fails("min")},
		{name: "list min pass", typ: "list", rules: "min 2", in: []any{1, 2}, want: `[1,2]`},
		{name: "list max fail", typ: "list", rules: "max 1", in: []int{1, 2}, fail: fails("max")},
		{name: "list range empty", typ: "list", rules: "range 1 2", in: []any{}, fail: fails("range")},
		{name: "list max array", typ: "list", rules: "max 2", in: [3]int{1, 2, 3}, fail: fails("max")},
		{name: "list min decimal", typ: "list", rules: "min 1.5", in: []any{1}, fail: fails("min")},

		// none: judged at run time by the value's own kind.
		{name: "none min string pass", typ: "none", rules: "min 3", in: "abc", want: `"abc"`},
		{name: "none min string fail", typ: "none", rules: "min 3", in: "日本", fail: fails("min")},
		{name: "none min number pass", typ: "none", rules: "min 3", in: 5, want: `5`},
		{name: "none min number fail", typ: "none", rules: "min 3", in: 2.5, fail: fails("min")},
		{name: "none min list pass", typ: "none", rules: "min 3", in: []any{1, 2, 3}, want: `[1,2,3]`},
		{name: "none min list fail", typ: "none", rules: "min 3", in: []string{"a"}, fail: fails("min")},
		{name: "none min bool cannot apply", typ: "none", rules: "min 3", in: true, fail: fails("min")},
		{name: "none max object cannot apply", typ: "none", rules: "max 3", in: map[string]any{}, fail: fails("max")},
		{name: "none range time cannot apply", typ: "none", rules: "range 1 2", in: time.Unix(0, 0), fail: fails("range")},

		// Repeated: every one judges.
		{name: "repeated min", typ: "string", rules: "min 2 | min 4", in: "abc", fail: fails("min")},
		{name: "repeated max", typ: "string", rules: "max 5 | max 3", in: "abcd", fail: fails("max")},
		{name: "repeated both fail", typ: "number", rules: "min 10 | min 20", in: 5, fail: fails("min", "min")},
		{name: "repeated pass", typ: "number", rules: "min 1 | max 9 | min 2", in: 5, want: `5`},
	})
}

func TestRuleFormats(t *testing.T) {
	cases := []ruleCase{
		// regex: RE2, unanchored, as written.
		{name: "regex pass", typ: "string", rules: "regex '^[a-z]+$'", in: "abc", want: `"abc"`},
		{name: "regex fail", typ: "string", rules: "regex '^[a-z]+$'", in: "ab1", fail: fails("regex")},
		{name: "regex with bar", typ: "string", rules: `regex "^(a|b)$"`, in: "b", want: `"b"`},
		{name: "regex unanchored", typ: "string", rules: `regex '\d{3}'`, in: "a123b", want: `"a123b"`},
		{name: "regex unanchored fail", typ: "string", rules: `regex '\d{3}'`, in: "12", fail: fails("regex")},
		{name: "regex unquoted", typ: "string", rules: `regex ^x`, in: "xy", want: `"xy"`},
		{name: "REGEX upper", typ: "string", rules: `REGEX '^x'`, in: "y", fail: fails("regex")},
		{name: "regex on converted number", typ: "string", rules: `regex '^\d+$'`, in: 123, want: `"123"`},
		{name: "regex on none string", typ: "none", rules: `regex '^a'`, in: "ab", want: `"ab"`},
		{name: "regex on none number cannot apply", typ: "none", rules: `regex '^1'`, in: 12, fail: fails("regex")},
		{name: "regex unicode", typ: "string", rules: `regex '^\p{Han}+$'`, in: "日本", want: `"日本"`},

		// url: absolute http or https with a host.
		{name: "url http", typ: "string", rules: "url", in: "http://example.com", want: `"http://example.com"`},
		{name: "url https path", typ: "string", rules: "url", in: "https://example.com/a?b=c#d", want: `"https://example.com/a?b=c#d"`},
		{name: "url port", typ: "string", rules: "url", in: "http://localhost:3333/api/test", want: `"http://localhost:3333/api/test"`},
		{name: "url upper scheme", typ: "string", rules: "URL", in: "HTTPS://EXAMPLE.COM", want: `"HTTPS://EXAMPLE.COM"`},
		{name: "url ftp", typ: "string", rules: "url", in: "ftp://example.com", fail: fails("url")},
		{name: "url no host", typ: "string", rules: "url", in: "http://", fail: fails("url")},
		{name: "url empty host", typ: "string", rules: "url", in: "http:///path", fail: fails("url")},
		{name: "url relative", typ: "string", rules: "url", in: "/path", fail: fails("url")},
		{name: "url no scheme", typ: "string", rules: "url", in: "example.com", fail: fails("url")},
		{name: "url mailto", typ: "string", rules: "url", in: "mailto:a@b.co", fail: fails("url")},
		{name: "url empty", typ: "string", rules: "url", in: "", fail: fails("url")},
		{name: "url with space", typ: "string", rules: "url", in: "http://exa mple.com", fail: fails("url")},
		{name: "url on none number", typ: "none", rules: "url", in: 1, fail: fails("url")},

		// email: one @, a local part, a dotted domain.
		{name: "email pass", typ: "string", rules: "email", in: "a@b.co", want: `"a@b.co"`},
		{name: "email long", typ: "string", rules: "email", in: "first.last+tag@mail.example.org", want: `"first.last+tag@mail.example.org"`},
		{name: "email seed", typ: "string", rules: "EMAIL", in: "maachang@maachang.com", want: `"maachang@maachang.com"`},
		{name: "email no dot", typ: "string", rules: "email", in: "a@b", fail: fails("email")},
		{name: "email no local", typ: "string", rules: "email", in: "@b.co", fail: fails("email")},
		{name: "email two ats", typ: "string", rules: "email", in: "a@b@c.co", fail: fails("email")},
		{name: "email double at", typ: "string", rules: "email", in: "a@@b.co", fail: fails("email")},
		{name: "email no at", typ: "string", rules: "email", in: "ab.co", fail: fails("email")},
		{name: "email empty label", typ: "string", rules: "email", in: "a@b..co", fail: fails("email")},
		{name: "email leading dot", typ: "string", rules: "email", in: "a@.b.co", fail: fails("email")},
		{name: "email trailing dot", typ: "string", rules: "email", in: "a@b.co.", fail: fails("email")},
		{name: "email empty", typ: "string", rules: "email", in: "", fail: fails("email")},
		{name: "email on none bool", typ: "none", rules: "email", in: true, fail: fails("email")},

		// date: a real calendar date.
		{name: "date dashes", typ: "string", rules: "date", in: "2024-02-29", want: `"2024-02-29"`},
		{name: "date slashes short", typ: "string", rules: "date", in: "2024/2/9", want: `"2024/2/9"`},
		{name: "date slashes long", typ: "string", rules: "date", in: "2024/02/09", want: `"2024/02/09"`},
		{name: "date not leap", typ: "string", rules: "date", in: "2023-02-29", fail: fails("date")},
		{name: "date april 31", typ: "string", rules: "date", in: "2024-04-31", fail: fails("date")},
		{name: "date month 13", typ: "string", rules: "date", in: "2024/13/1", fail: fails("date")},
		{name: "date day 0", typ: "string", rules: "date", in: "2024-01-00", fail: fails("date")},
		{name: "date short year", typ: "string", rules: "date", in: "24-01-01", fail: fails("date")},
		{name: "date with time", typ: "string", rules: "date", in: "2024-01-01T00:00:00Z", fail: fails("date")},
		{name: "date words", typ: "string", rules: "date", in: "today", fail: fails("date")},

		// time: H:mm or HH:mm.
		{name: "time H:mm", typ: "string", rules: "time", in: "9:05", want: `"9:05"`},
		{name: "time HH:mm", typ: "string", rules: "time", in: "09:05", want: `"09:05"`},
		{name: "time 23:59", typ: "string", rules: "time", in: "23:59", want: `"23:59"`},
		{name: "time 0:00", typ: "string", rules: "time", in: "0:00", want: `"0:00"`},
		{name: "time 24:00", typ: "string", rules: "time", in: "24:00", fail: fails("time")},
		{name: "time 12:60", typ: "string", rules: "time", in: "12:60", fail: fails("time")},
		{name: "time 12:5", typ: "string", rules: "time", in: "12:5", fail: fails("time")},
		{name: "time with seconds", typ: "string", rules: "time", in: "12:00:00", fail: fails("time")},
		{name: "time 123:00", typ: "string", rules: "time", in: "123:00", fail: fails("time")},
	}
	runRuleCases(t, cases)
}

func TestRuleTypeChecks(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// num / number: a number or numeric string.
		{name: "num string", typ: "string", rules: "num", in: "12", want: `"12"`},
		{name: "num string decimal", typ: "string", rules: "num", in: "-3.5", want: `"-3.5"`},
		{name: "num string abc", typ: "string", rules: "num", in: "abc", fail: fails("num")},
		{name: "num string empty", typ: "string", rules: "num", in: "", fail: fails("num")},
		{name: "num string from int", typ: "string", rules: "num", in: 12, want: `"12"`},
		{name: "num string from bool", typ: "string", rules: "num", in: true, fail: fails("num")},
		{name: "number alias", typ: "string", rules: "number", in: "x", fail: fails("num")},
		{name: "NUM upper", typ: "string", rules: "NUM", in: "7", want: `"7"`},
		{name: "num number", typ: "number", rules: "num", in: 12, want: `12`},
		{name: "num number from string", typ: "number", rules: "num", in: "12", want: `12`},
		{name: "num float", typ: "float", rules: "num", in: "1.5", want: `1.5`},
		{name: "num none int", typ: "none", rules: "num", in: 12, want: `12`},
		{name: "num none string", typ: "none", rules: "num", in: "12", want: `"12"`},
		{name: "num none word", typ: "none", rules: "num", in: "x", fail: fails("num")},
		{name: "num none bool", typ: "none", rules: "num", in: true, fail: fails("num")},

		// float: decimal point not required.
		{name: "float rule int text", typ: "string", rules: "float", in: "12", want: `"12"`},
		{name: "float rule decimal", typ: "string", rules: "float", in: "1.5", want: `"1.5"`},
		{name: "float rule word", typ: "string", rules: "float", in: "x", fail: fails("float")},
		{name: "float rule none bool", typ: "none", rules: "float", in: false, fail: fails("float")},
		{name: "float rule on float", typ: "float", rules: "float", in: 2, want: `2`},

		// bool / boolean: what the bool conversion accepts.
		{name: "bool rule on", typ: "string", rules: "bool", in: "on", want: `"on"`},
		{name: "bool rule OFF", typ: "string", rules: "bool", in: "OFF", want: `"OFF"`},
		{name: "bool rule yes", typ: "string", rules: "bool", in: "yes", fail: fails("bool")},
		{name: "boolean alias", typ: "string", rules: "boolean", in: "2", fail: fails("bool")},
		{name: "bool rule none true", typ: "none", rules: "bool", in: true, want: `true`},
		{name: "bool rule none 1", typ: "none", rules: "bool", in: 1, want: `1`},
		{name: "bool rule none 2", typ: "none", rules: "bool", in: 2, fail: fails("bool")},
		{name: "bool rule on bool", typ: "bool", rules: "bool", in: "true", want: `true`},

		// timestamp / datetime: what the date conversion accepts.
		{name: "timestamp date", typ: "string", rules: "timestamp", in: "2020-01-02", want: `"2020-01-02"`},
		{name: "timestamp RFC 3339", typ: "string", rules: "timestamp", in: "2020-01-02T03:04:05Z", want: `"2020-01-02T03:04:05Z"`},
		{name: "timestamp with space", typ: "string", rules: "timestamp", in: "2020-01-02 03:04:05", want: `"2020-01-02 03:04:05"`},
		{name: "timestamp word", typ: "string", rules: "timestamp", in: "x", fail: fails("timestamp")},
		{name: "datetime alias", typ: "string", rules: "datetime", in: "2023-02-30", fail: fails("timestamp")},
		{name: "timestamp none ms", typ: "none", rules: "timestamp", in: 1000, want: `1000`},
		{name: "timestamp none bool", typ: "none", rules: "timestamp", in: true, fail: fails("timestamp")},
		{name: "timestamp on date", typ: "date", rules: "timestamp", in: 0, want: `"1970-01-01T00:00:00Z"`},
	})
}

func TestRuleRename(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{name: "rename", typ: "number", rules: "rename 'x'", in: 1, want: `1`, key: "x"},
		{name: "rename unquoted", typ: "number", rules: "rename x", in: 1, want: `1`, key: "x"},
		{name: "rn alias", typ: "number", rules: "rn x", in: 1, want: `1`, key: "x"},
		{name: "RENAME upper", typ: "number", rules: "RENAME x", in: 1, want: `1`, key: "x"},
		{name: "rename with space", typ: "number", rules: "rename 'a b'", in: 1, want: `1`, key: "a b"},
		{name: "rename last wins", typ: "number", rules: "rename a | rename b", in: 1, want: `1`, key: "b"},
		{name: "rename last wins across aliases", typ: "number", rules: "rn a | RENAME b | Rn c", in: 1, want: `1`, key: "c"},
		{name: "rename keeps the input key", typ: "string", rules: "rename x | default d", in: "in", want: `"in"`, key: "x"},
		{name: "rename absent", typ: "string", rules: "rename x", in: absent, want: `null`, key: "x"},
	})

	// rename changes the output key only: the value is still read under the
	// declared name, and two fields may swap names.
	reg := entity.NewRegistry()
	e := expose(t, reg, "swap",
		"a", "string", "rename b",
		"b", "string", "rename a",
		"c", "string", "rename c",
	)
	out, obj := mustMake(t, e, map[string]any{"a": "A", "b": "B", "c": "C", "x": "X"})
	if want := `{"b":"A","a":"B","c":"C"}`; string(out) != want {
		t.Errorf("swap: got %s, want %s", out, want)
	}
	if diff := cmp.Diff([]string{"b", "a", "c"}, obj.Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
}

// TestRefRules checks req, a bare default and rename on a $ref, and rename
// on a group.
func TestRefRules(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "item",
		"id", "number", "",
		"name", "string", "default 'none'",
	)
	cases := []struct {
		name  string
		rules string
		in    any
		want  string // JSON of the whole entity
		fail  []string
	}{
		{"absent", "", absent, `{"v":null}`, nil},
		{"nil", "", nil, `{"v":null}`, nil},
		{"object", "", map[string]any{"id": "3", "x": 1}, `{"v":{"id":3,"name":"none"}}`, nil},
		{"map[string]string", "", map[string]string{"id": "3", "name": "n"}, `{"v":{"id":3,"name":"n"}}`, nil},
		{"list", "", []any{map[string]any{"id": 1}, 42, "x", nil, map[string]any{"id": 2}}, `{"v":[{"id":1,"name":"none"},{"id":2,"name":"none"}]}`, nil},
		{"[]map[string]any", "", []map[string]any{{"id": 1}}, `{"v":[{"id":1,"name":"none"}]}`, nil},
		{"empty list", "", []any{}, `{"v":[]}`, nil},
		{"list of non-objects", "", []any{1, 2}, `{"v":[]}`, nil},
		{"string is null", "", "abc", `{"v":null}`, nil},
		{"number is null", "", 42, `{"v":null}`, nil},
		{"req absent", "req", absent, "", fails("req")},
		{"req nil", "required", nil, "", fails("req")},
		{"req not an object", "req", 42, "", fails("req")},
		{"req present", "req", map[string]any{}, `{"v":{"id":null,"name":"none"}}`, nil},
		{"req empty list", "req", []any{}, `{"v":[]}`, nil},
		{"bare default absent", "default", absent, `{"v":{"id":null,"name":"none"}}`, nil},
		{"bare def alias", "def", nil, `{"v":{"id":null,"name":"none"}}`, nil},
		{"bare default present", "default", map[string]any{"id": 1}, `{"v":{"id":1,"name":"none"}}`, nil},
		{"bare default and req", "req | default", absent, `{"v":{"id":null,"name":"none"}}`, nil},
		{"rename", "rename item", map[string]any{"id": 1}, `{"item":{"id":1,"name":"none"}}`, nil},
		{"rn absent", "rn item", absent, `{"item":null}`, nil},
		{"rename last wins", "rename a | rename b", []any{}, `{"b":[]}`, nil},
		{"all three", "REQ | Default | RENAME it", absent, `{"it":{"id":null,"name":"none"}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := expose(t, reg, "holder", "v", "$item", c.rules)
			out, _, err := makeAll(t, e, input(c.in))
			if c.fail == nil {
				if err != nil {
					t.Fatal(err)
				}
				if string(out) != c.want {
					t.Errorf("got  %s\nwant %s", out, c.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %s, want failures %v", out, c.fail)
			}
			var got []string
			for _, fe := range fieldErrors(t, err) {
				got = append(got, canonicalRule(fe.Rule))
			}
			if diff := cmp.Diff(c.fail, got); diff != "" {
				t.Errorf("failing rules (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("group rename", func(t *testing.T) {
		e := expose(t, reg, "grouped",
			"id", "number", "",
			"details", "{", "rename 'info'",
			"age", "number", "",
			"inner", "{", "rn deep",
			"mail", "string", "",
			"inner", "}", "",
			"details", "}", "",
		)
		out, _ := mustMake(t, e, map[string]any{"id": 1, "age": "40", "mail": "m", "details": "ignored"})
		if want := `{"id":1,"info":{"age":40,"deep":{"mail":"m"}}}`; string(out) != want {
			t.Errorf("got  %s\nwant %s", out, want)
		}
	})
}

// TestGroups: a group is an output object read from the same input level;
// groups nest, and the name on "}" is not checked.
func TestGroups(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "row",
		"id", "number", "",
		"a", "{", "",
		"x", "string", "",
		"b", "{", "",
		"y", "number", "default 1",
		"c", "{", "",
		"c", "}", "",
		"not b", "}", "",
		"z", "bool", "",
		"", "}", "",
		"w", "string", "",
	)
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"flat row", map[string]any{"id": 1, "x": 2, "y": "3", "z": "on", "w": 4}, `{"id":1,"a":{"x":"2","b":{"y":3,"c":{}},"z":true},"w":"4"}`},
		{"empty row", map[string]any{}, `{"id":null,"a":{"x":null,"b":{"y":1,"c":{}},"z":null},"w":null}`},
		{"input keys named like groups are not read", map[string]any{"a": map[string]any{"x": "nested"}, "b": 1, "x": "flat"}, `{"id":null,"a":{"x":"flat","b":{"y":1,"c":{}},"z":null},"w":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, obj := mustMake(t, e, c.in)
			if string(out) != c.want {
				t.Errorf("got  %s\nwant %s", out, c.want)
			}
			if diff := cmp.Diff([]string{"id", "a", "w"}, obj.Keys()); diff != "" {
				t.Errorf("Keys (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEveryFieldReported: a failure in one list element does not hide the
// failures of the others, nor of later fields.
func TestEveryFieldReported(t *testing.T) {
	reg := entity.NewRegistry()
	exposeSeed(t, reg)
	var list []any
	for range 20 {
		list = append(list, map[string]any{"mail": "bad"})
	}
	_, err := reg.Lookup("users").MakeJSON(map[string]any{"list": list})
	fields := fieldErrors(t, err)
	if len(fields) != 40 {
		t.Errorf("got %d field errors, want 40 (name and mail of 20 users)", len(fields))
	}
	seen := map[string]bool{}
	for _, f := range fields {
		seen[f.Path] = true
	}
	for i := range 20 {
		for _, k := range []string{"name", "mail"} {
			p := "list[" + strconv.Itoa(i) + "]." + k
			if !seen[p] {
				t.Errorf("missing %s", p)
			}
		}
	}
}
