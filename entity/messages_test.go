package entity_test

import (
	"database/sql/driver"
	"errors"
	"math"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/rules"
)

// failingValuer is a driver.Valuer whose Value fails.
type failingValuer struct{}

func (failingValuer) Value() (driver.Value, error) { return nil, errors.New("db down") }

// evenRule is a custom rule with a param: `even n` wants a multiple of n.
var evenRule = rules.Def{Name: "multiple", Aliases: []string{"mult"}, MinArgs: 1, MaxArgs: 1, Params: []string{"n"},
	Types: rules.Kinds(rules.Int),
	Compile: func(args []string, _ rules.Kind) (rules.Checker, error) {
		n, err := strconv.ParseInt(args[0], 10, 64)
		if err != nil || n == 0 {
			return nil, errors.New("wants a non-zero integer")
		}
		msg := errors.New("must be a multiple of " + args[0])
		return rules.CheckFunc(func(v rules.Value) error {
			if v.Int%n != 0 {
				return msg
			}
			return nil
		}), nil
	}}

// codeCase is one failure: the declaration of entity "e" (in a registry
// with the custom rule `multiple`), an input, and the FieldError's code,
// params, and English and Japanese messages.
type codeCase struct {
	name   string
	decl   []string
	in     any
	whole  any // the whole input, when not input(in)
	opts   []entity.Option
	setup  func(*entity.Registry)
	rule   string
	code   string
	params map[string]any
	en, ja string
}

func codeCases() []codeCase {
	one := func(typ, rules string) []string { return []string{"v", typ, rules} }
	sizes := []codeCase{
		{name: "min on a string", decl: one("string", "min 3"), in: "ab", rule: "min", code: "min", params: map[string]any{"min": int64(3)},
			en: "must be at least 3 characters long", ja: "3文字以上で入力してください"},
		{name: "min 1 on a string", decl: one("string", "min 1"), in: "", rule: "min", code: "min", params: map[string]any{"min": int64(1)},
			en: "must be at least 1 character long", ja: "1文字以上で入力してください"},
		{name: "min on a number", decl: one("number", "min 3"), in: 2, rule: "min", code: "min", params: map[string]any{"min": int64(3)},
			en: "must be at least 3", ja: "3以上の値にしてください"},
		{name: "decimal min on a float", decl: one("float", "min 2.5"), in: 2.4, rule: "min", code: "min", params: map[string]any{"min": 2.5},
			en: "must be at least 2.5", ja: "2.5以上の値にしてください"},
		{name: "negative min on a number", decl: one("number", "min -3"), in: -4, rule: "min", code: "min", params: map[string]any{"min": int64(-3)},
			en: "must be at least -3", ja: "-3以上の値にしてください"},
		{name: "min on a list", decl: one("list", "min 2"), in: []any{1}, rule: "min", code: "min", params: map[string]any{"min": int64(2)},
			en: "must have at least 2 elements", ja: "要素を2個以上にしてください"},
		{name: "min on none holding a bool", decl: one("none", "min 2"), in: true, rule: "min", code: "min", params: map[string]any{"min": int64(2)},
			en: "must be a string, number or list", ja: "文字列・数値・配列のいずれかを指定してください"},
		{name: "max on a string", decl: one("string", "max 2"), in: "abc", rule: "max", code: "max", params: map[string]any{"max": int64(2)},
			en: "must be at most 2 characters long", ja: "2文字以内で入力してください"},
		{name: "max on a number", decl: one("number", "max 2"), in: 3, rule: "max", code: "max", params: map[string]any{"max": int64(2)},
			en: "must be at most 2", ja: "2以下の値にしてください"},
		{name: "max on a list", decl: one("list", "max 1"), in: []any{1, 2}, rule: "max", code: "max", params: map[string]any{"max": int64(1)},
			en: "must have at most 1 element", ja: "要素を1個以内にしてください"},
		{name: "range on a string", decl: one("string", "range 2 4"), in: "a", rule: "range", code: "range", params: map[string]any{"min": int64(2), "max": int64(4)},
			en: "must be between 2 and 4 characters long", ja: "2文字以上4文字以内で入力してください"},
		{name: "range on a number", decl: one("number", "range 2 4"), in: 5, rule: "range", code: "range", params: map[string]any{"min": int64(2), "max": int64(4)},
			en: "must be between 2 and 4", ja: "2以上4以下の値にしてください"},
		{name: "range on a list", decl: one("list", "range 2 4"), in: []any{1}, rule: "range", code: "range", params: map[string]any{"min": int64(2), "max": int64(4)},
			en: "must have between 2 and 4 elements", ja: "要素を2個以上4個以内にしてください"},
		{name: "minmax is range", decl: one("string", "minmax 2 4"), in: "a", rule: "range", code: "range", params: map[string]any{"min": int64(2), "max": int64(4)},
			en: "must be between 2 and 4 characters long", ja: "2文字以上4文字以内で入力してください"},
		{name: "exact range on a string", decl: one("string", "range 3 3"), in: "a", rule: "range", code: "range", params: map[string]any{"min": int64(3), "max": int64(3)},
			en: "must be exactly 3 characters long", ja: "3文字で入力してください"},
		{name: "exact range on a number", decl: one("number", "range 3 3"), in: 2, rule: "range", code: "range", params: map[string]any{"min": int64(3), "max": int64(3)},
			en: "must be exactly 3", ja: "3にしてください"},
		{name: "exact range on a list", decl: one("list", "range 1 1"), in: []any{}, rule: "range", code: "range", params: map[string]any{"min": int64(1), "max": int64(1)},
			en: "must have exactly 1 element", ja: "要素をちょうど1個にしてください"},
	}
	formats := []codeCase{
		{name: "regex", decl: one("string", "regex '^a+$'"), in: "b", rule: "regex", code: "regex", params: map[string]any{"pattern": "^a+$"},
			en: "must match /^a+$/", ja: "形式が正しくありません（/^a+$/ に一致しません）"},
		{name: "regex of unquoted digits: a number", decl: one("string", "regex 123"), in: "b", rule: "regex", code: "regex", params: map[string]any{"pattern": int64(123)},
			en: "must match /123/", ja: "形式が正しくありません（/123/ に一致しません）"},
		{name: "url", decl: one("string", "url"), in: "x", rule: "url", code: "url", en: "must be a valid URL", ja: "有効なURLを入力してください"},
		{name: "email", decl: one("string", "email"), in: "x", rule: "email", code: "email", en: "must be a valid email address", ja: "有効なメールアドレスを入力してください"},
		{name: "date", decl: one("string", "date"), in: "x", rule: "date", code: "date", en: "must be a valid date (YYYY-MM-DD or YYYY/M/D)", ja: "有効な日付（YYYY-MM-DD または YYYY/M/D）を入力してください"},
		{name: "time", decl: one("string", "time"), in: "x", rule: "time", code: "time", en: "must be a valid time (HH:mm)", ja: "有効な時刻（HH:mm）を入力してください"},
		{name: "num", decl: one("string", "num"), in: "x", rule: "num", code: "num", en: "must be a number", ja: "数値を入力してください"},
		{name: "number is num", decl: one("string", "number"), in: "x", rule: "num", code: "num", en: "must be a number", ja: "数値を入力してください"},
		{name: "float", decl: one("string", "float"), in: "x", rule: "float", code: "float", en: "must be a number", ja: "数値を入力してください"},
		{name: "bool", decl: one("string", "bool"), in: "x", rule: "bool", code: "bool", en: "must be a boolean", ja: "真偽値を入力してください"},
		{name: "boolean is bool", decl: one("string", "boolean"), in: "x", rule: "bool", code: "bool", en: "must be a boolean", ja: "真偽値を入力してください"},
		{name: "timestamp", decl: one("string", "timestamp"), in: "x", rule: "timestamp", code: "timestamp", en: "must be a date or timestamp", ja: "日付または日時を入力してください"},
		{name: "datetime is timestamp", decl: one("string", "datetime"), in: "x", rule: "timestamp", code: "timestamp", en: "must be a date or timestamp", ja: "日付または日時を入力してください"},
	}
	others := []codeCase{
		{name: "req", decl: one("string", "req"), in: absent, rule: "req", code: "required", en: "is required", ja: "必須です"},
		{name: "required is req", decl: one("string", "required"), in: nil, rule: "req", code: "required", en: "is required", ja: "必須です"},
		{name: "req on a reference", decl: []string{"v", "$sub", "req"}, in: absent, rule: "req", code: "required", en: "is required", ja: "必須です"},
		{name: "type: a string for a number", decl: one("number", ""), in: "abc", opts: []entity.Option{entity.Strict()},
			rule: "type", code: "type", params: map[string]any{"type": "number", "got": "string"},
			en: "must be an integer, got a string", ja: "整数で指定してください（文字列が送られました）"},
		{name: "type: a fraction for a number", decl: one("number", ""), in: 12.5, opts: []entity.Option{entity.Strict()},
			rule: "type", code: "type", params: map[string]any{"type": "number", "got": "number with a fraction"},
			en: "must be an integer, got a number with a fraction", ja: "整数で指定してください（小数を含む数値が送られました）"},
		{name: "type: a number for a string", decl: one("string", ""), in: 1, opts: []entity.Option{entity.Strict()},
			rule: "type", code: "type", params: map[string]any{"type": "string", "got": "number"},
			en: "must be a string, got a number", ja: "文字列で指定してください（数値が送られました）"},
		{name: "type: a list for an object", decl: one("object", ""), in: []any{}, opts: []entity.Option{entity.Strict()},
			rule: "type", code: "type", params: map[string]any{"type": "object", "got": "array"},
			en: "must be an object, got an array", ja: "オブジェクトで指定してください（配列が送られました）"},
		{name: "type: a string for a reference", decl: []string{"v", "$sub", ""}, in: "x", opts: []entity.Option{entity.Strict()},
			rule: "type", code: "type", params: map[string]any{"type": "object", "got": "string"},
			en: "must be an object, got a string", ja: "オブジェクトで指定してください（文字列が送られました）"},
		{name: "depth", decl: []string{"v", "none", ""}, in: deepMap(5, 1), setup: func(r *entity.Registry) { setLimit(r, func(l *entity.Limits) { l.Depth = 3 }) },
			rule: "depth", code: "depth", params: map[string]any{"limit": int64(3)},
			en: "is nested deeper than the limit of 3 levels", ja: "入れ子が深すぎます（上限は3階層です）"},
		{name: "json", decl: one("none", ""), in: math.NaN(), rule: "json", code: "json",
			en: "cannot be written as JSON", ja: "JSONとして書き出せない値です"},
		{name: "value", decl: one("string", ""), whole: struct {
			V failingValuer `json:"v"`
		}{}, rule: "value", code: "value",
			en: "its Value method failed", ja: "値を読み取れませんでした"},
		{name: "default cycle", decl: []string{"v", "$cyc", "default"}, in: absent, rule: "default", code: "default",
			en: "its default makes the entity from an empty input, which needs this default again: the defaults form a cycle",
			ja: "既定値が循環しています（既定値を作るのに同じ既定値が必要です）"},
		{name: "custom rule", decl: one("number", "multiple 3"), in: 4, rule: "multiple", code: "multiple", params: map[string]any{"n": int64(3)},
			en: "must be a multiple of 3", ja: "must be a multiple of 3"},
		{name: "custom rule by its alias", decl: one("number", "mult 3"), in: 4, rule: "multiple", code: "multiple", params: map[string]any{"n": int64(3)},
			en: "must be a multiple of 3", ja: "must be a multiple of 3"},
	}
	return append(append(sizes, formats...), others...)
}

// codeRegistry returns a registry with the custom rule `multiple`, the
// entity "sub", the entities "cyc" and "cyc2" whose bare defaults form a
// cycle, and "e" declared by decl.
func codeRegistry(t testing.TB, decl []string, setup func(*entity.Registry)) (*entity.Registry, *entity.Entity) {
	t.Helper()
	reg := entity.NewRegistry()
	if err := reg.RegisterRule(evenRule); err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(reg)
	}
	expose(t, reg, "sub", "a", "string", "")
	expose(t, reg, "cyc", "c", "$cyc2", "default")
	expose(t, reg, "cyc2", "c", "$cyc", "default")
	return reg, expose(t, reg, "e", decl...)
}

// oneFieldError returns the only FieldError of err.
func oneFieldError(t testing.TB, err error) *entity.FieldError {
	t.Helper()
	fs := fieldErrors(t, err)
	if len(fs) != 1 {
		t.Fatalf("%d field errors, want 1: %v", len(fs), err)
	}
	return fs[0]
}

// TestFieldErrorCodes checks each failure's Rule, Code, Params and its
// messages in English and Japanese.
func TestFieldErrorCodes(t *testing.T) {
	for _, c := range codeCases() {
		t.Run(c.name, func(t *testing.T) {
			_, e := codeRegistry(t, c.decl, c.setup)
			for _, lang := range []string{"", "en", "ja", "ja-JP", "fr"} {
				opts := append([]entity.Option{entity.Lang(lang)}, c.opts...)
				in := any(input(c.in))
				if c.whole != nil {
					in = c.whole
				}
				_, err := e.MakeJSON(in, opts...)
				fe := oneFieldError(t, err)
				want := c.en
				if strings.HasPrefix(lang, "ja") {
					want = c.ja
				}
				if fe.Rule != c.rule || fe.Code != c.code || fe.Message != want {
					t.Errorf("Lang(%q): Rule, Code, Message = %q, %q, %q; want %q, %q, %q", lang, fe.Rule, fe.Code, fe.Message, c.rule, c.code, want)
				}
				if diff := cmp.Diff(c.params, fe.Params); diff != "" {
					t.Errorf("Lang(%q): Params (-want +got):\n%s", lang, diff)
				}
			}
		})
	}
}

// TestFieldErrorParamsOwned checks that each FieldError has a map of its
// own: changing one changes no other error, nor the next call's.
func TestFieldErrorParamsOwned(t *testing.T) {
	e := exposeOne(t, "string", "range 2 4")
	_, err1 := e.MakeJSON(input("a"))
	_, err2 := e.MakeJSON(input("a"))
	f1, f2 := oneFieldError(t, err1), oneFieldError(t, err2)
	f1.Params["min"] = "changed"
	if f2.Params["min"] != int64(2) {
		t.Errorf("another error's Params changed: %v", f2.Params)
	}
	_, err3 := e.MakeJSON(input("a"))
	if f3 := oneFieldError(t, err3); f3.Params["min"] != int64(2) {
		t.Errorf("the next call's Params changed: %v", f3.Params)
	}
}

// TestFieldErrorPointer checks the RFC 6901 pointer to where a failing
// value was read: list indexes, references, groups (which the input does
// not have), and the escaping of ~ and /.
func TestFieldErrorPointer(t *testing.T) {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.Depth = 4 })
	expose(t, reg, "item",
		"mail", "string", "email",
		"details", "{", "",
		"a/b~c", "number", "min 1",
		"details", "}", "")
	e := expose(t, reg, "e",
		"list", "$item", "",
		"one", "$item", "",
		"~/", "string", "req",
		"deep", "$item", "")
	tests := []struct {
		name              string
		in                string
		path, out, ptr    string
		wantRule, wantMsg string
	}{
		{"top", `{"list":[]}`, "~/", "~/", "/~0~1", "req", ""},
		{"list element", `{"~/":"x","list":[{"mail":"ok@ex.com"},{"mail":"bad"}]}`, "list[1].mail", "list[1].mail", "/list/1/mail", "email", ""},
		{"in a group", `{"~/":"x","one":{"a/b~c":0}}`, "one.a/b~c", "one.details.a/b~c", "/one/a~1b~0c", "min", ""},
		{"list skips non-objects in the output only", `{"~/":"x","list":[1,{"a/b~c":0}]}`, "list[1].a/b~c", "list[0].details.a/b~c", "/list/1/a~1b~0c", "min", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeJSON([]byte(tt.in))
			fe := oneFieldError(t, err)
			if fe.Path != tt.path || fe.OutputPath != tt.out || fe.Pointer != tt.ptr || fe.Rule != tt.wantRule {
				t.Errorf("Path, OutputPath, Pointer, Rule = %q, %q, %q, %q; want %q, %q, %q, %q",
					fe.Path, fe.OutputPath, fe.Pointer, fe.Rule, tt.path, tt.out, tt.ptr, tt.wantRule)
			}
		})
	}
	t.Run("depth in a list", func(t *testing.T) {
		deep := expose(t, reg, "deep", "kids", "$deep", "")
		in := map[string]any{"kids": []any{map[string]any{"kids": []any{map[string]any{"kids": []any{map[string]any{}}}}}}}
		_, err := deep.MakeJSON(in)
		fe := oneFieldError(t, err)
		if fe.Code != "depth" || fe.Pointer != "/kids/0/kids/0" {
			t.Errorf("Code, Pointer = %q, %q; want depth, /kids/0/kids/0", fe.Code, fe.Pointer)
		}
	})
}

// TestMsg checks the msg directive: the field's own message for any of
// its failures, with {field} and the failing rule's params, in every
// language; on a reference, for its own failures.
func TestMsg(t *testing.T) {
	reg := entity.NewRegistry()
	expose(t, reg, "sub", "a", "string", "req")
	e := expose(t, reg, "e",
		"nick", "string", "req | range 2 8 | msg '{field}: {min} to {max} letters, please ({{ok}})'",
		"age", "number", "msg 'age {type}/{got}'",
		"s", "$sub", "req | msg 'give {field}'")
	tests := []struct {
		name string
		in   map[string]any
		opts []entity.Option
		want []string
	}{
		{"range", map[string]any{"nick": "a", "s": map[string]any{"a": "x"}}, nil,
			[]string{"nick: 2 to 8 letters, please ({ok})"}},
		{"req says the range's params too", map[string]any{"s": map[string]any{"a": "x"}}, nil,
			[]string{"nick: 2 to 8 letters, please ({ok})"}},
		{"in Japanese too", map[string]any{"nick": "a", "s": map[string]any{"a": "x"}}, []entity.Option{entity.Lang("ja")},
			[]string{"nick: 2 to 8 letters, please ({ok})"}},
		{"type", map[string]any{"nick": "abc", "age": "x", "s": map[string]any{"a": "x"}}, []entity.Option{entity.Strict()},
			[]string{"age number/string"}},
		{"reference's req", map[string]any{"nick": "abc"}, nil, []string{"give s"}},
		{"not a reference's fields", map[string]any{"nick": "abc", "s": map[string]any{}}, []entity.Option{entity.Lang("ja")}, []string{"必須です"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.MakeJSON(tt.in, tt.opts...)
			var got []string
			for _, f := range fieldErrors(t, err) {
				got = append(got, f.Message)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMsgDeclErrors checks the declaration errors of msg.
func TestMsgDeclErrors(t *testing.T) {
	tests := []struct{ name, typ, rules, want string }{
		{"no argument", "string", "msg", `rule "msg" takes one argument, the message`},
		{"two arguments", "string", "msg a b", `rule "msg" takes one argument, the message`},
		{"unknown placeholder", "string", "min 1 | msg 'at least {max}'", `msg: placeholder {max} is not {field} nor a param of the field's rules (type, got, limit, min)`},
		{"unclosed placeholder", "string", "msg 'at least {min'", `a { at byte 9 opens a placeholder that does not close`},
		{"bad placeholder", "string", "msg 'a {b c}'", `placeholder {b c} is not a name`},
		{"an empty message", "string", "msg ''", `msg takes a text`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := entity.NewRegistry().Expose("e", "v", tt.typ, tt.rules)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v does not hold %q", err, tt.want)
			}
		})
	}
	t.Run("on a group", func(t *testing.T) {
		if _, err := entity.NewRegistry().Expose("e", "g", "{", "msg 'x'", "a", "string", "", "g", "}", ""); err != nil {
			t.Errorf("msg on a group: %v", err)
		}
	})
}

// TestSecretMessages checks that under a secret field the messages that
// may describe the value (a custom rule's) are "is not valid", in each
// language, while required's, min's and the field's own msg stay, and
// that Code and Params (no value in them) are kept.
func TestSecretMessages(t *testing.T) {
	reg := entity.NewRegistry()
	reg.Rules().MustRegister(rules.Def{Name: "quoting", Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(v rules.Value) error { return errors.New("bad: " + v.Str) }), nil
	}})
	expose(t, reg, "creds", "pin", "string", "quoting")
	e := expose(t, reg, "e",
		"pw", "string", "secret | min 8",
		"code", "string", "secret | quoting",
		"tok", "string", "secret | req",
		"c", "$creds", "secret",
		"hint", "string", "secret | min 9 | msg 'at least {min}'")
	in := map[string]any{"pw": "short", "code": "hunter2", "c": map[string]any{"pin": "1234"}, "hint": "hunter2"}
	for _, tt := range []struct{ lang, invalid, required, min string }{
		{"en", "is not valid", "is required", "must be at least 8 characters long"},
		{"ja", "正しくありません", "必須です", "8文字以上で入力してください"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			_, err := e.MakeJSON(in, entity.Lang(tt.lang))
			fs := fieldErrors(t, err)
			want := []string{tt.min, tt.invalid, tt.required, tt.invalid, "at least 9"}
			codes := []string{"min", "quoting", "required", "quoting", "min"}
			for i, f := range fs {
				if i >= len(want) || f.Message != want[i] || f.Code != codes[i] {
					t.Errorf("field %d: %q %q, want %q %q", i, f.Code, f.Message, codes[i], want[i])
				}
				if strings.Contains(f.Error(), "hunter2") || strings.Contains(f.Error(), "1234") {
					t.Errorf("a secret reached %q", f.Error())
				}
			}
			if len(fs) != len(want) {
				t.Fatalf("%d errors, want %d: %v", len(fs), len(want), err)
			}
			if fs[0].Params["min"] != int64(8) {
				t.Errorf("Params of a secret's min: %v", fs[0].Params)
			}
		})
	}
}

// TestLimitMessage checks the summary of the errors past the limit, in
// both languages.
func TestLimitMessage(t *testing.T) {
	reg := entity.NewRegistry()
	setLimit(reg, func(l *entity.Limits) { l.Errors = 1 })
	e := expose(t, reg, "e", "a", "string", "req", "b", "string", "req", "c", "string", "req")
	for lang, want := range map[string]string{"en": "and 2 more field errors, not listed", "ja": "ほか2件のエラーは省略されました"} {
		_, err := e.MakeJSON(map[string]any{}, entity.Lang(lang))
		fs := fieldErrors(t, err)
		last := fs[len(fs)-1]
		if last.Rule != "limit" || last.Code != "limit" || last.Message != want || last.Params["omitted"] != int64(2) || last.Pointer != "" {
			t.Errorf("Lang(%q): summary %+v, want message %q", lang, last, want)
		}
		if last.Error() != want {
			t.Errorf("Lang(%q): Error() = %q", lang, last.Error())
		}
	}
}

// TestAcceptLanguage checks how MakeRequest picks the language of its
// messages from Accept-Language, and that Lang overrides it.
func TestAcceptLanguage(t *testing.T) {
	e := exposeOne(t, "string", "req")
	tests := []struct {
		name, header string
		opts         []entity.Option
		want         string
	}{
		{"none", "", nil, "is required"},
		{"ja", "ja", nil, "必須です"},
		{"region falls back", "ja-JP", nil, "必須です"},
		{"q-values", "en;q=0.5, ja;q=0.9", nil, "必須です"},
		{"q-values the other way", "ja;q=0.4, en", nil, "is required"},
		{"first known", "fr-CA, fr;q=0.9, ja;q=0.8, en;q=0.5", nil, "必須です"},
		{"refused", "ja;q=0, en;q=0.1", nil, "is required"},
		{"unknown", "fr, de", nil, "is required"},
		{"any", "*", nil, "is required"},
		{"malformed", "ja;q=x;;,", nil, "is required"},
		{"en-GB", "en-GB", nil, "is required"},
		{"Lang wins", "ja", []entity.Option{entity.Lang("en")}, "is required"},
		{"Lang wins the other way", "en", []entity.Option{entity.Lang("ja")}, "必須です"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			if tt.header != "" {
				r.Header.Set("Accept-Language", tt.header)
			}
			_, err := e.MakeRequest(r, tt.opts...)
			if fe := oneFieldError(t, err); fe.Message != tt.want {
				t.Errorf("Message = %q, want %q", fe.Message, tt.want)
			}
		})
	}
}

// TestSetMessages checks overriding single messages and adding a
// language, and the errors of keys and messages that are not valid.
func TestSetMessages(t *testing.T) {
	reg := entity.NewRegistry()
	reg.Rules().MustRegister(evenRule)
	e := expose(t, reg, "e", "nick", "string", "req | min 3", "n", "number", "multiple 2")
	if err := reg.SetMessages("ja", map[string]string{"min.string": "{field}は{min}文字以上", "multiple": "{n}の倍数にしてください"}); err != nil {
		t.Fatal(err)
	}
	msgs := map[string]string{"required": "est obligatoire", "min": "au moins {min}", "type.got=string": "une chaîne"}
	if err := reg.SetMessages("fr", msgs); err != nil {
		t.Fatal(err)
	}
	msgs["required"] = "changed after the call" // the registry keeps its copy
	if err := reg.SetMessages("en", map[string]string{"multiple.number": "not a multiple of {n}"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang string
		in   map[string]any
		want []string
	}{
		{"ja", map[string]any{"nick": "ab", "n": 3}, []string{"nickは3文字以上", "2の倍数にしてください"}},
		{"ja", map[string]any{}, []string{"必須です"}},
		{"fr", map[string]any{}, []string{"est obligatoire"}},
		{"fr-CA", map[string]any{"nick": "ab", "n": 3}, []string{"au moins 3", "not a multiple of 2"}},
		{"en", map[string]any{"nick": "ab", "n": 3}, []string{"must be at least 3 characters long", "not a multiple of 2"}},
	}
	for _, tt := range tests {
		_, err := e.MakeJSON(tt.in, entity.Lang(tt.lang))
		var got []string
		for _, f := range fieldErrors(t, err) {
			got = append(got, f.Message)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Lang(%q) %v: messages (-want +got):\n%s", tt.lang, tt.in, diff)
		}
	}
	t.Run("type phrases", func(t *testing.T) {
		if err := reg.SetMessages("fr", map[string]string{"type": "doit être {type}, reçu {got}", "type.type=number": "un entier"}); err != nil {
			t.Fatal(err)
		}
		_, err := e.MakeJSON(map[string]any{"nick": "abc", "n": "x"}, entity.Lang("fr"), entity.Strict())
		if fe := oneFieldError(t, err); fe.Message != "doit être un entier, reçu une chaîne" {
			t.Errorf("Message = %q", fe.Message)
		}
	})

	errTests := []struct {
		name, lang string
		msgs       map[string]string
		want       string
	}{
		{"bad language", "not a tag!", map[string]string{"required": "x"}, `language "not a tag!"`},
		{"unknown code", "ja", map[string]string{"nope": "x"}, `key "nope": no code or rule is named "nope"`},
		{"alias", "ja", map[string]string{"minmax": "x"}, `"minmax" is an alias: the code is "range"`},
		{"custom alias", "ja", map[string]string{"mult": "x"}, `"mult" is an alias: the code is "multiple"`},
		{"unknown kind", "ja", map[string]string{"min.bool": "x"}, `"bool" is no kind`},
		{"unknown placeholder", "ja", map[string]string{"min": "{max}"}, `placeholder {max} is not {field} nor a param of "min" (min)`},
		{"unclosed placeholder", "ja", map[string]string{"required": "{field"}, `does not close`},
		{"phrase of no param", "ja", map[string]string{"type.kind=x": "y"}, `"type" has no param "kind"`},
		{"phrase with a placeholder", "ja", map[string]string{"type.got=x": "{field}"}, `a phrase holds no placeholders`},
		{"every error", "ja", map[string]string{"nope": "x", "min": "{max}"}, "\n"},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			err := reg.SetMessages(tt.lang, tt.msgs)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "entity: SetMessages") {
				t.Errorf("error %v does not hold %q", err, tt.want)
			}
		})
	}
	t.Run("nothing changed by a failed call", func(t *testing.T) {
		_ = reg.SetMessages("ja", map[string]string{"required": "ok", "nope": "x"})
		_, err := e.MakeJSON(map[string]any{}, entity.Lang("ja"))
		if fe := oneFieldError(t, err); fe.Message != "必須です" {
			t.Errorf("Message = %q", fe.Message)
		}
	})
	t.Run("other registries keep the built-in messages", func(t *testing.T) {
		_, err := exposeOne(t, "number", "min 3").MakeJSON(map[string]any{"v": 1}, entity.Lang("ja"))
		if fe := oneFieldError(t, err); fe.Message != "3以上の値にしてください" {
			t.Errorf("Message = %q", fe.Message)
		}
	})
}

// TestMessagesConcurrent checks that one server answers two languages at
// once, while SetMessages changes the messages of a third.
func TestMessagesConcurrent(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "e", "v", "string", "req")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			header, want := "en", "is required"
			if i%2 == 1 {
				header, want = "ja-JP,ja;q=0.9", "必須です"
			}
			for range 200 {
				r := httptest.NewRequest("POST", "/", nil)
				r.Header.Set("Accept-Language", header)
				_, err := e.MakeRequest(r)
				if fe := oneFieldError(t, err); fe.Message != want {
					t.Errorf("%s: Message = %q, want %q", header, fe.Message, want)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 50 {
			if err := reg.SetMessages("fr", map[string]string{"required": "obligatoire " + strconv.Itoa(i)}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	wg.Wait()
}

// TestAcceptLanguageSkipsBadEntries checks that an entry of
// Accept-Language that does not parse is skipped and the others kept,
// that a range well-formed only in part asks for the part that is, and
// that the q of a weight is read in either case.
func TestAcceptLanguageSkipsBadEntries(t *testing.T) {
	e := exposeOne(t, "string", "req")
	const ja, en = "必須です", "is required"
	tests := []struct{ name, header, want string }{
		{"a tag well-formed in part", "ja-JP-mac", ja},
		{"an unknown language before", "xx, ja", ja},
		{"an unknown language after", "ja, xx", ja},
		{"Q in upper case", "ja;Q=1", ja},
		{"Q in upper case with a fraction", "en;q=0.5, ja;Q=0.8", ja},
		{"a bad q skips its entry only", "ja;q=2, en;q=0.5", en},
		{"a bad q skips its entry only, the other way", "en;q=abc, ja;q=0.5", ja},
		{"a q of more than 3 decimals", "ja;q=0.5000, en;q=0.1", en},
		{"a q of 1 with a fraction", "ja;q=1.000", ja},
		{"a q of 1 with a non-zero fraction", "ja;q=1.5", en},
		{"two weights", "ja;q=0.5;q=0.6, fr", en},
		{"a parameter that is no weight", "ja;level=1, fr", en},
		{"a range of other bytes", "ja_JP, ja", ja},
		{"empty entries", ",, ,ja,", ja},
		{"white space around", " \tja ; q=0.9 ", ja},
		{"star before", "*, ja;q=0.5", ja},
		{"a range too long", strings.Repeat("a", 65) + ", ja", ja},
		{"refused ones stay refused", "ja;q=0, xx, en", en},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Accept-Language", tt.header)
			_, err := e.MakeRequest(r)
			if fe := oneFieldError(t, err); fe.Message != tt.want {
				t.Errorf("Accept-Language %q: Message = %q, want %q", tt.header, fe.Message, tt.want)
			}
		})
	}
}

// TestAcceptLanguageBounded checks that only the first 4 KiB and the first
// 32 entries of an Accept-Language header are read: an entry past either
// bound asks for nothing.
func TestAcceptLanguageBounded(t *testing.T) {
	reg := entity.NewRegistry()
	junk := func(n int) string { return strings.Repeat("xx, ", n) }
	tests := []struct{ name, header, want string }{
		{"the 32nd entry", junk(31) + "ja", "ja"},
		{"the 33rd entry", junk(32) + "ja", "en"},
		{"within 4 KiB", strings.Repeat(" ", 4090) + ",ja", "ja"},
		{"past 4 KiB", strings.Repeat(" ", 4096) + ",ja", "en"},
		{"a megabyte of junk", strings.Repeat("x", 1<<20) + ",ja", "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Accept-Language", tt.header)
			if got := reg.RequestLang(r); got != tt.want {
				t.Errorf("RequestLang = %q, want %q", got, tt.want)
			}
		})
	}
}

// BenchmarkAcceptLanguage measures the matching of Accept-Language headers
// of every size: a header of a megabyte costs what one of 4 KiB does, in
// microseconds, against a browser's usual header in the same run.
func BenchmarkAcceptLanguage(b *testing.B) {
	reg := entity.NewRegistry()
	for _, bc := range []struct{ name, header string }{
		{"browser", "ja,en-US;q=0.9,en;q=0.8"},
		{"4KiB of entries", strings.Repeat("zz-ZZ;q=0.5,", 4096/12)},
		{"1MiB of entries", strings.Repeat("zz-ZZ;q=0.5,", 1<<20/12)},
		{"1MiB in one entry", strings.Repeat("a", 1<<20)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Accept-Language", bc.header)
			b.ReportAllocs()
			for b.Loop() {
				reg.RequestLang(r)
			}
		})
	}
}

// TestSecretKeepsMessagesThatQuoteNoValue checks, rule by rule, that under
// secret the built-in messages that quote no value (min, max, len, range,
// req, type, email, url, date) are the same as without it, in each
// language, and that in, regex and a custom rule say "is not valid".
func TestSecretKeepsMessagesThatQuoteNoValue(t *testing.T) {
	reg := entity.NewRegistry()
	reg.Rules().MustRegister(rules.Def{Name: "echo", Compile: func([]string, rules.Kind) (rules.Checker, error) {
		return rules.CheckFunc(func(v rules.Value) error { return errors.New("bad: " + v.Str) }), nil
	}})
	tests := []struct {
		name, typ, rules string
		in               any
		kept             bool // the message is the one without secret
	}{
		{"min", "string", "min 8", "hunter2", true},
		{"max", "string", "max 3", "hunter2", true},
		{"len", "string", "len 4", "hunter2", true},
		{"range", "number", "range 1 5", 4242, true},
		{"req", "string", "req", nil, true},
		{"type", "number", "", "hunter2", true},
		{"email", "string", "email", "hunter2", true},
		{"url", "string", "url", "hunter2", true},
		{"date", "string", "date", "hunter2", true},
		{"in", "string", "in 'a' 'b'", "hunter2", false},
		{"regex", "string", "regex '^[0-9]+$'", "hunter2", false},
		{"custom", "string", "echo", "hunter2", false},
	}
	for _, tt := range tests {
		for _, lang := range []string{"en", "ja"} {
			t.Run(tt.name+"/"+lang, func(t *testing.T) {
				plain := expose(t, reg, "plain", "v", tt.typ, tt.rules)
				secret := expose(t, reg, "secret", "v", tt.typ, strings.TrimPrefix(tt.rules+" | secret", " | "))
				in := map[string]any{}
				if tt.in != nil {
					in["v"] = tt.in
				}
				_, perr := plain.MakeRequest(jsonRequest(t, in, "Accept-Language", lang))
				_, serr := secret.MakeRequest(jsonRequest(t, in, "Accept-Language", lang))
				pf, sf := oneFieldError(t, perr), oneFieldError(t, serr)
				want := pf.Message
				if !tt.kept {
					want = map[string]string{"en": "is not valid", "ja": "正しくありません"}[lang]
				}
				if sf.Message != want || sf.Code != pf.Code {
					t.Errorf("secret: %s %q, want %s %q", sf.Code, sf.Message, pf.Code, want)
				}
				if strings.Contains(sf.Message, "hunter2") || strings.Contains(sf.Message, "4242") {
					t.Errorf("a secret reached %q", sf.Message)
				}
			})
		}
	}
}

// TestDeclareCode checks that a code of the application's own is declared
// with its messages, takes more languages through SetMessages, and that a
// code that is no name, the package's own, a rule's, or without English
// is refused, changing nothing.
func TestDeclareCode(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "order", "customer_id", "number", "req")
	if err := reg.DeclareCode("no_customer", map[string]string{"en": "names no customer {id}", "ja": "顧客{id}は存在しません"}); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetMessages("fr", map[string]string{"no_customer": "aucun client {id}"}); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": "names no customer 42", "ja": "顧客42は存在しません", "fr": "aucun client 42", "de": "names no customer 42"} {
		r := jsonRequest(t, `{"customer_id":42}`, "Accept-Language", lang)
		err := e.Fail(r, nil, entity.NewFieldError("/customer_id", "no_customer", map[string]any{"id": 42}))
		if fe := oneFieldError(t, err); fe.Message != want {
			t.Errorf("%s: %q, want %q", lang, fe.Message, want)
		}
	}
	errTests := []struct {
		name, code string
		msgs       map[string]string
		want       string
	}{
		{"not a name", "no customer", map[string]string{"en": "x"}, "not a name"},
		{"empty", "", map[string]string{"en": "x"}, "not a name"},
		{"a code of the package", "required", map[string]string{"en": "x"}, "a code of the package's own"},
		{"type", "type", map[string]string{"en": "x"}, "a code of the package's own"},
		{"a rule", "min", map[string]string{"en": "x"}, "the name of a rule"},
		{"an alias", "minmax", map[string]string{"en": "x"}, "the name of a rule"},
		{"reserved", "problem", map[string]string{"en": "x"}, "reserved"},
		{"no English", "gone", map[string]string{"ja": "x"}, "no English message"},
		{"a bad language", "gone", map[string]string{"en": "x", "not a tag!": "y"}, `language "not a tag!"`},
		{"a bad message", "gone", map[string]string{"en": "{id"}, "does not close"},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			err := reg.DeclareCode(tt.code, tt.msgs)
			if err == nil || !strings.HasPrefix(err.Error(), "entity: DeclareCode") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("DeclareCode(%q) = %v, want an error holding %q", tt.code, err, tt.want)
			}
		})
	}
	t.Run("an undeclared code is refused by SetMessages", func(t *testing.T) {
		if err := reg.SetMessages("ja", map[string]string{"gone": "x"}); err == nil {
			t.Error("SetMessages took a code no one declared")
		}
	})
	t.Run("a placeholder the code does not have", func(t *testing.T) {
		if err := reg.SetMessages("ja", map[string]string{"no_customer": "{sku}"}); err == nil || !strings.Contains(err.Error(), "placeholder {sku}") {
			t.Errorf("SetMessages = %v", err)
		}
	})
}

// TestRequestLang checks the language a request's Accept-Language picks
// among the registry's, as MakeRequest picks it.
func TestRequestLang(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.SetMessages("pt-BR", map[string]string{"required": "é obrigatório"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ header, want string }{
		{"", "en"},
		{"ja", "ja"},
		{"ja-JP,ja;q=0.9", "ja"},
		{"fr, de", "en"},
		{"pt-BR, ja;q=0.5", "pt-BR"},
		{"en;q=0.5, ja;q=0.9", "ja"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Language", tt.header)
		if got := reg.RequestLang(r); got != tt.want {
			t.Errorf("RequestLang(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
	if got := reg.RequestLang(nil); got != "en" {
		t.Errorf("RequestLang(nil) = %q", got)
	}
	if got := (*entity.Registry)(nil).RequestLang(nil); got != "en" {
		t.Errorf("a nil registry's RequestLang = %q", got)
	}
}

// TestSetMessagesProblemTexts checks that the titles and details of the
// problems are catalog texts a registry sets in any language, and that a
// problem key or placeholder that is no text's is refused.
func TestSetMessagesProblemTexts(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "e", "POST", "v", "string", "req")
	err := reg.SetMessages("fr", map[string]string{
		"required":                               "est obligatoire",
		"problem.title.validation":               "Validation échouée",
		"problem.validation.one":                 "1 champ invalide",
		"problem.title.405":                      "Méthode non autorisée",
		"problem.method":                         "méthode refusée ; utilisez {allow}",
		"problem.json.syntax":                    "JSON invalide à l'octet {offset} : {reason}",
		"problem.reason=unexpected end of input": "fin inattendue",
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, body string
		status             int
		title, detail      string
	}{
		{"validation", "POST", `{}`, 400, "Validation échouée", "1 champ invalide"},
		{"method", "GET", ``, 405, "Méthode non autorisée", "méthode refusée ; utilisez POST"},
		{"JSON", "POST", `{"v":`, 400, "Invalid JSON", "JSON invalide à l'octet 5 : fin inattendue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			e.Write(rec, requestWith(tt.method, "application/json", tt.body, "Accept-Language", "fr"))
			if pb, ok := checkProblem(t, rec, tt.status); ok && (pb.Title != tt.title || pb.Detail != tt.detail) {
				t.Errorf("title %q, detail %q; want %q, %q", pb.Title, pb.Detail, tt.title, tt.detail)
			}
		})
	}
	for key, text := range map[string]string{
		"problem.nope":           "x",
		"problem.title.200":      "x",
		"problem.title.whatever": "x",
		"problem.method":         "{methods}",
	} {
		if err := reg.SetMessages("fr", map[string]string{key: text}); err == nil || !strings.HasPrefix(err.Error(), "entity: SetMessages: key") {
			t.Errorf("SetMessages(%q: %q) = %v, want an error", key, text, err)
		}
	}
}
